package selfupdate

import (
	"os"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func TestMain(m *testing.M) {
	i18n.SetLang(i18n.EN)
	os.Exit(m.Run())
}
