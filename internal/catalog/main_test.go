package catalog

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/schemaguard"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/spelling"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, command.Messages, cards.Messages, platform.Messages, deploy.Messages, assembly.Messages, upload.Messages, registry.Messages, schemaguard.Messages, buildlist.Messages, readback.Messages, spelling.Messages)
	os.Exit(m.Run())
}
