package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// Two different references to one application are an error of the call –
// exit 1 with the error JSON, as the reference tool exits – whether both
// come as --app-id or as the positional and --app-id; the same reference
// twice is fine. The real binary runs against the stand.
func TestTwoDifferentAppReferencesExitOne(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	b := newPluginBed(t)
	b.env["ELEMENT_BASE_URL"], b.env["ELEMENT_CLIENT_ID"], b.env["ELEMENT_CLIENT_SECRET"] = s.URL(), s.ClientID(), s.ClientSecret()
	b.env["ELEMCTL_LANG"] = "en"

	if ans := b.ok("apps", "get", "--app-id", demo.AppID, "--app-id", demo.AppID); ans["id"] != demo.AppID {
		t.Errorf("the same --app-id twice: %v", ans)
	}
	for _, args := range [][]string{
		{"apps", "get", "--app-id", "a", "--app-id", "b"},
		{"apps", "get", "--app-id", demo.AppID, "--app-id", demo.AppName},
		{"apps", "get", demo.AppID, "--app-id", demo.AppName},
	} {
		r := b.run(args...)
		var refusal map[string]any
		if r.code != 1 || r.stdout != "" || json.Unmarshal([]byte(r.stderr), &refusal) != nil {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 with the error JSON", args, r.code, r.stdout, r.stderr)
			continue
		}
		if msg, _ := refusal["error"].(string); !strings.Contains(msg, "twice") && !strings.Contains(msg, "repeated") {
			t.Errorf("%v: the error %q names no repetition", args, msg)
		}
	}
}
