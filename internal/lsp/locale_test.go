package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// The server follows the editor's locale by the rule of the user's own
// (Russian for ru*, English for any other), as the DAP face does.
func TestServerFollowsTheClientLocale(t *testing.T) {
	t.Cleanup(func() { i18n.SetLang(i18n.RU) })
	for locale, want := range map[string]i18n.Lang{"ru-RU": i18n.RU, "en": i18n.EN, "de": i18n.EN, "zh-cn": i18n.EN} {
		other := i18n.EN
		if want == i18n.EN {
			other = i18n.RU
		}
		i18n.SetLang(other)
		s := start(t, setup{noSeed: true, adoptLocale: true})
		params, _ := json.Marshal(map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}, "locale": locale})
		s.initializeWith(params)
		if got := i18n.Current(); got != want {
			t.Errorf("locale %q: messages in %s, want %s", locale, got, want)
		}
		s.close()
	}
}
