package adapter

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, manifest.Messages, platform.Messages)
	os.Exit(m.Run())
}
