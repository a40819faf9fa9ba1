package clientcache

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, platform.Messages)
	os.Exit(m.Run())
}
