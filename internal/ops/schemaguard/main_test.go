package schemaguard

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages)
	os.Exit(m.Run())
}
