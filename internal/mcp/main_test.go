package mcp

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	tables "github.com/elemctl/elemctl/internal/messages"
)

func TestMain(m *testing.M) {
	i18n.Register(tables.Operations()...)
	i18n.Register(Messages)
	os.Exit(m.Run())
}
