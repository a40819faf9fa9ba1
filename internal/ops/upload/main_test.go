package upload_test

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/messages"
)

func TestMain(m *testing.M) {
	i18n.Register(messages.Operations()...)
	os.Exit(m.Run())
}
