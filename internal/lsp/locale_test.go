package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// The server follows the editor's locale by the rule of the user's own
// (Russian for ru*, English for any other), as the DAP face does: a
// refusal after initialize speaks the client's language, whatever the
// server started in.
func TestServerFollowsTheClientLocale(t *testing.T) {
	t.Parallel()
	notFound := map[i18n.Lang]string{i18n.RU: "метод не поддерживается", i18n.EN: "method not found"}
	for locale, want := range map[string]i18n.Lang{"ru-RU": i18n.RU, "en": i18n.EN, "de": i18n.EN, "zh-cn": i18n.EN} {
		other := i18n.EN
		if want == i18n.EN {
			other = i18n.RU
		}
		s := start(t, setup{noSeed: true, adoptLocale: true, lang: other})
		params, _ := json.Marshal(map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}, "locale": locale})
		s.initializeWith(params)
		_, err := s.conn.Call(context.Background(), "elemctl/noSuchMethod", nil, nil)
		if err == nil || !strings.Contains(err.Error(), notFound[want]) {
			t.Errorf("locale %q: want a refusal in %s (%q), got %v", locale, want, notFound[want], err)
		}
		s.close()
	}
}
