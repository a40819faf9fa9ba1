package buildlist

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, registry.Messages, platform.Messages)
	os.Exit(m.Run())
}
