package dap

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/debugsession"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// standLookup is the Session function `elemctl dap` uses, pointed at the
// emulated stand over real HTTP.
func standLookup(ctx context.Context, req SessionRequest) (*SessionInfo, error) {
	s, err := debugsession.Lookup(ctx, debugsession.Options{
		Getenv: func(string) string { return "" },
		Client: platform.ClientOptions{TokenCacheDir: "-"},
	}, req.AppRef, req.EnvFile, req.Cwd)
	if err != nil {
		return nil, err
	}
	return &SessionInfo{AppID: s.AppID, Card: s.Card, DebugToken: s.DebugToken, DebugAddress: s.DebugAddress,
		ClientDebugAddress: s.ClientDebugAddress, BaseURL: s.BaseURL}, nil
}

func TestAttachAgainstTheStand(t *testing.T) {
	st := standtest.Start(t, stand.Options{})
	demo, err := st.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	root, projectDir := projectTree(t)
	env := "ELEMENT_BASE_URL=" + st.URL() + "\nELEMENT_CLIENT_ID=" + st.ClientID() + "\nELEMENT_CLIENT_SECRET=" + st.ClientSecret() + "\n"
	if err := os.WriteFile(filepath.Join(projectDir, "stand.env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	host := regexp.MustCompile(`^https?://`).ReplaceAllString(st.URL(), "")

	opts := fastFakeOptions(t)
	opts.Session = standLookup
	s := startSession(t, opts)
	c := s.client
	c.initialize()

	t.Run("by name, with an env file", func(t *testing.T) {
		c.call("attach", map[string]any{"appId": demo.AppName, "envFile": "stand.env", "cwd": projectDir})
		args := lastRequest(c.fakeLog(), "attach")["arguments"].(map[string]any)
		token, _ := args["debugToken"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(token) {
			t.Errorf("debugToken = %q", token)
		}
		if args["uri"] != "wss://"+host+"/debug/server" || args["clientDebugAddress"] != "wss://"+host+"/debug/client" {
			t.Errorf("uri = %v, clientDebugAddress = %v", args["uri"], args["clientDebugAddress"])
		}
		if args["workspace"] != root {
			t.Errorf("workspace = %v, want %s", args["workspace"], root)
		}
		app := args["application"].(map[string]any)
		if app["id"] != demo.AppID || app["displayName"] != demo.AppName || app["status"] != "Running" || app["error"] != nil {
			t.Errorf("application = %v", app)
		}
		ev := c.event(DebuggeeURLEvent)
		u, err := url.Parse(ev.body()["url"].(string))
		if err != nil || u.Query().Get("debug-server-url") != "wss://"+host+"/debug/client" || u.Query().Get("debug-session-id") != args["sessionId"] {
			t.Errorf("debuggee URL = %v (%v)", ev.body()["url"], err)
		}
		if !strings.HasPrefix(ev.body()["url"].(string), app["uri"].(string)+"?") {
			t.Errorf("debuggee URL %v does not start with the card's uri %v", ev.body()["url"], app["uri"])
		}
		for _, m := range c.all {
			if m.str("command") != "fake/log" && strings.Contains(string(m.raw), token) {
				t.Errorf("the debug token reached the client: %s", m.raw)
			}
		}
		if strings.Contains(s.stderr.String(), token) {
			t.Errorf("the debug token reached stderr:\n%s", s.stderr)
		}
	})

	t.Run("an unknown application", func(t *testing.T) {
		resp := c.response(c.request("attach", map[string]any{"appId": "nope", "envFile": "stand.env", "cwd": projectDir}))
		if want := i18n.TL(i18n.RU, "client.app-not-found", "ref", "nope"); resp.m["success"] != false || resp.str("message") != want {
			t.Errorf("attach = %s\nwant the message %q", resp.raw, want)
		}
	})

	t.Run("debugging disabled on the server", func(t *testing.T) {
		st.SetDebugEnabled(false)
		defer st.SetDebugEnabled(true)
		resp := c.response(c.request("attach", map[string]any{"appId": demo.AppID, "envFile": "stand.env", "cwd": projectDir}))
		if resp.m["success"] != false || !strings.Contains(resp.str("message"), "Debugging is disabled") {
			t.Errorf("attach = %s", resp.raw)
		}
	})

	t.Run("a missing env file", func(t *testing.T) {
		resp := c.response(c.request("attach", map[string]any{"appId": demo.AppID, "envFile": "missing.env", "cwd": projectDir}))
		if resp.m["success"] != false || !strings.Contains(resp.str("message"), "missing.env") {
			t.Errorf("attach = %s", resp.raw)
		}
	})
}
