package mcpinstall

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/spelling"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, platform.Messages, spelling.Messages)
	os.Exit(m.Run())
}
