package selfupdate

import (
	"context"
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, platform.Messages)
	os.Exit(m.Run())
}

// english is the context of the tests: they read the English messages.
func english() context.Context { return i18n.WithLang(context.Background(), i18n.EN) }
