package plugin_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/plugin/protocol"
)

func testPluginWorld(t *testing.T, s *stand.Stand, edit func(*protocol.Manifest)) *world {
	t.Helper()
	root := t.TempDir()
	installBuilt(t, root, "testplugin", goBuild(t, "internal/plugin/testplugin"), edit)
	w := newWorld(t, root, s)
	if len(w.loaded.Failures) != 0 {
		t.Fatalf("the test plugin did not load: %+v", w.loaded.Failures)
	}
	return w
}

func TestCatalogDeclarations(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	echo := w.cat.Path("echo")
	if echo.Source != "testplugin" || echo.Tool != "echo" || echo.LSP != "plugin.echo" || !echo.Slow || !echo.OptionalToolArgs {
		t.Errorf("echo: source %q tool %q lsp %q slow %v optional tool arguments %v", echo.Source, echo.Tool, echo.LSP, echo.Slow, echo.OptionalToolArgs)
	}
	var tool []string
	for _, a := range echo.MCPArgs() {
		if a.Required {
			t.Errorf("plugin parameter %s is required", a.Name)
		}
		tool = append(tool, a.Name+"="+compact(t, a.Default))
	}
	if got := strings.Join(tool, " "); got != `items=[] count=1 ratio=null mode=null level=null tag=["base"] num=[] verbose=false` {
		t.Errorf("MCP parameters %s", got)
	}
	var cli []string
	for _, a := range echo.Args {
		cli = append(cli, a.Name)
	}
	if got := strings.Join(cli, " "); got != "items count ratio mode level tag num verbose" {
		t.Errorf("CLI arguments %s", got)
	}
	if a := echo.Args[0]; !a.Positional || !a.Multiple || a.CLIAlias != "--item" || a.Required ||
		!strings.HasSuffix(a.Help, "(several values may be given, separated by spaces)") {
		t.Errorf("items %+v", a)
	}
	if a := echo.Args[5]; !strings.HasSuffix(a.Help, "(the key may be repeated, one value each)") {
		t.Errorf("tag help %q", a.Help)
	}
	if c := w.cat.Path("verdict"); c.Tool != "test_verdict" {
		t.Errorf("mcp_name: %q", c.Tool)
	}
	if c := w.cat.Path("list"); c.Tool != "" {
		t.Errorf("mcp false still has tool %q", c.Tool)
	}
	if w.cat.Path("deploy").Source != "" {
		t.Error("the core deploy was replaced")
	}
}

func TestCoreNameWins(t *testing.T) {
	root := t.TempDir()
	exe := goBuild(t, "internal/plugin/testplugin")
	installBuilt(t, root, "clash", exe, func(m *protocol.Manifest) {
		m.Name = "clash"
		m.Commands = []protocol.CommandSpec{{Name: "deploy"}, {Name: "mine", MCPName: "get_app"}, {Name: "echo"}}
	})
	w := newWorld(t, root, nil)
	if c := w.cat.Path("deploy"); c == nil || c.Source != "" {
		t.Fatal("a plugin took deploy")
	}
	if c := w.cat.Tool("get_app"); c == nil || c.Source != "" {
		t.Fatal("a plugin took get_app")
	}
	if c := w.cat.Path("mine"); c == nil || c.Tool != "" {
		t.Fatalf("a tool clash costs the tool only: %+v", c)
	}
	if c := w.cat.Path("echo"); c == nil || c.Tool != "echo" {
		t.Fatal("the healthy command is missing")
	}
	var msgs []string
	for _, f := range w.loaded.Failures {
		msgs = append(msgs, f.Error)
	}
	all := strings.Join(msgs, "\n")
	if len(msgs) != 2 || !strings.Contains(all, "command 'deploy': this is the name of an elemctl command") ||
		!strings.Contains(all, "command 'mine': the MCP tool name 'get_app' is already taken; the mcp_name of the command helps here") {
		t.Errorf("failures:\n%s", all)
	}
}

func TestTypedArgumentsAndSurface(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	ans, err := w.run(command.CLI, "echo", map[string]any{
		"items": []string{"a", "b"}, "count": 3, "ratio": "2.5", "level": 2, "num": []any{1, 2}, "verbose": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arguments":{"items":["a","b"],"count":3,"ratio":2.5,"mode":null,"level":2,"tag":["base"],"num":[1,2],"verbose":true},"surface":"cli","host-calls":true}`
	if got := compact(t, ans); got != want {
		t.Errorf("answer\n%s\nwant\n%s", got, want)
	}
	ans, err = w.run(command.MCP, "echo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(t, ans); !strings.Contains(got, `"items":[],"count":1,"ratio":null`) || !strings.Contains(got, `"verbose":false`) || !strings.Contains(got, `"surface":"mcp"`) {
		t.Errorf("defaults on MCP: %s", got)
	}
	if _, err := w.run(command.MCP, "echo", map[string]any{"count": "many"}); err == nil || !strings.Contains(err.Error(), "invalid int value") {
		t.Errorf("a bad value: %v", err)
	}
	ans, err = w.run(command.CLI, "list", nil)
	if err != nil || compact(t, ans) != `[1,"two"]` || command.ExitCode(ans) != 0 {
		t.Errorf("a list answer %v %v", ans, err)
	}
}

func TestLogsAndStrayOutput(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	ans, err := w.run(command.CLI, "talk", map[string]any{"lines": 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.takeLogs(), "|"); got != "line 1|line 2|line 3" {
		t.Errorf("logs %q", got)
	}
	if compact(t, ans) != `{"said":3}` {
		t.Errorf("answer %s", compact(t, ans))
	}
	if !strings.Contains(w.stderr.String(), "a stray print") {
		t.Errorf("the plugin's stray print did not reach stderr: %q", w.stderr.String())
	}
}

func TestExitCodeRule(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	for _, tc := range []struct {
		ok, code string
		want     int
	}{
		{"true", "none", 0}, {"false", "none", 1}, {"false", "0", 0}, {"true", "5", 5}, {"true", "255", 255},
		{"false", "300", 1}, {"true", "-1", 0}, {"false", "true", 1}, {"true", "string", 0}, {"false", "2.0", 1},
	} {
		ans, err := w.run(command.CLI, "verdict", map[string]any{"ok": tc.ok, "exit_code": tc.code})
		if err != nil {
			t.Fatal(err)
		}
		if got := command.ExitCode(ans); got != tc.want {
			t.Errorf("ok=%s exit-code=%s: exit %d, want %d (%s)", tc.ok, tc.code, got, tc.want, compact(t, ans))
		}
	}
}

func TestFailures(t *testing.T) {
	w := testPluginWorld(t, nil, nil)
	_, err := w.run(command.CLI, "fail", nil)
	var pe *platform.Error
	if !errors.As(err, &pe) || pe.Message != "the widget is broken" {
		t.Errorf("fail: %v", err)
	}
	if _, err := w.run(command.CLI, "panic", nil); err == nil || !strings.Contains(err.Error(), "panic: boom") {
		t.Errorf("panic: %v", err)
	}
}

// TestMisbehavingPlugins: each failure costs its call only – a clear
// error, the process stopped and reaped – and the next call works.
func TestMisbehavingPlugins(t *testing.T) {
	w := testPluginWorld(t, nil, func(m *protocol.Manifest) {
		commandTimeout(m, "hang", 0.4)
		commandTimeout(m, "garbage", 5)
	})
	cases := []struct {
		command, want string
		limit         time.Duration
	}{
		{"crash", "exited before answering (exit status 3)", 5 * time.Second},
		{"hang", "the command 'hang' did not finish within 0.4 s; the process is stopped", 5 * time.Second},
		{"garbage", `wrote something that is not a protocol message to stdout: "hello, I am not JSON"`, 3 * time.Second},
		{"mute", "closed its stdout without answering", 3 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			pids := pidFile(t)
			start := time.Now()
			ans, err := w.run(command.CLI, tc.command, nil)
			took := time.Since(start)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("answer %v, error %v; want %q", ans, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "plugin 'testplugin'") {
				t.Errorf("the error does not name the plugin: %v", err)
			}
			if took > tc.limit {
				t.Errorf("took %v", took)
			}
			assertGone(t, pids)
			if _, err := w.run(command.CLI, "echo", nil); err != nil {
				t.Errorf("the next call failed: %v", err)
			}
		})
	}
	if got := strings.Join(w.takeLogs(), "|"); !strings.Contains(got, "about to crash") {
		t.Errorf("the crashing plugin's log line is lost: %q", got)
	}
}

func TestStartupTimeout(t *testing.T) {
	w := testPluginWorld(t, nil, func(m *protocol.Manifest) { m.StartupTimeout = 0.3 })
	pids := pidFile(t)
	t.Setenv("TESTPLUGIN_MUTE", "1")
	start := time.Now()
	_, err := w.run(command.CLI, "echo", nil)
	if err == nil || !strings.Contains(err.Error(), "did not answer the handshake within 0.3 s") {
		t.Fatalf("error %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	assertGone(t, pids)
}

func TestHostCalls(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ELEMENT_CLIENT_SECRET", s.ClientSecret())
	w := testPluginWorld(t, s, nil)

	ans, err := w.run(command.CLI, "get", map[string]any{"app": demo.AppName})
	if err != nil {
		t.Fatal(err)
	}
	card := compact(t, ans)
	if !strings.Contains(card, `"id":"`+demo.AppID+`"`) || !strings.Contains(card, `"applied-build"`) {
		t.Errorf("get_app through the host: %s", card)
	}

	// A failed host call passed on keeps elemctl's error shape.
	_, err = w.run(command.CLI, "get", map[string]any{"app": "no-such-app"})
	if err == nil || !strings.Contains(err.Error(), "no-such-app") {
		t.Errorf("a failing host call: %v", err)
	}

	ans, err = w.run(command.CLI, "call", map[string]any{"method": "list_apps", "params": `{"brief": true}`})
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(t, ans); !strings.HasPrefix(got, `{"total":`) || !strings.Contains(got, demo.AppID) {
		t.Errorf("list_apps answers in its MCP shape: %s", got)
	}

	ans, err = w.run(command.CLI, "call", map[string]any{"method": "console", "params": `{"path": "/applications/` + demo.AppID + `"}`})
	if err != nil || !strings.Contains(compact(t, ans), demo.AppID) {
		t.Errorf("console call: %v %v", ans, err)
	}
	var apiErr *platform.APIError
	_, err = w.run(command.CLI, "call", map[string]any{"method": "console", "params": `{"path": "/applications/00000000-0000-0000-0000-000000000000"}`})
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || !strings.Contains(apiErr.URL, "/console/api/v2/applications/") {
		t.Errorf("a Console API error keeps status and url: %#v", err)
	}

	refusals := map[string]string{
		`{"path": "/../sys/token", "method": "POST"}`:  `is not a Console API path`,
		`{"path": "/applications/%2e%2e/x"}`:           `is not a Console API path`,
		`{"path": "applications"}`:                     `is not a Console API path`,
		`{"path": "/applications", "method": "TRACE"}`: "the method TRACE is not supported",
	}
	for params, want := range refusals {
		if _, err := w.run(command.CLI, "call", map[string]any{"method": "console", "params": params}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("console %s: %v", params, err)
		}
	}
	for method, want := range map[string]string{
		"nope":    "elemctl has no operation 'nope'",
		"echo":    "elemctl has no operation 'echo'",
		"get_app": "unknown parameter bogus",
	} {
		if _, err := w.run(command.CLI, "call", map[string]any{"method": method, "params": `{"bogus": 1}`}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", method, err)
		}
	}
	if _, err := w.run(command.CLI, "call", map[string]any{"method": "get_app", "params": `{"app_id": "x", "env_file": "/tmp/other.env"}`}); err == nil || !strings.Contains(err.Error(), "env_file is not accepted") {
		t.Errorf("env_file: %v", err)
	}

	ans, err = w.run(command.CLI, "env", nil)
	if err != nil || !strings.Contains(compact(t, ans), `"secret-seen":false`) {
		t.Errorf("the client secret reached the plugin: %v %v", ans, err)
	}
	for _, tok := range s.IssuedTokens() {
		if strings.Contains(w.stderr.String(), tok) {
			t.Error("a token reached stderr")
		}
	}
}

func TestWarmUpExample(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	installBuilt(t, root, "warm-up", goBuild(t, "examples/plugins/warm-up"), nil)
	w := newWorld(t, root, s)
	w.env["ELEMENT_APP_ID"] = demo.AppID
	calls := func(action string) int {
		n := 0
		for _, c := range s.Calls() {
			if c.Method == "PUT" && strings.HasSuffix(c.Path, "/applications/"+demo.AppID+"/status/"+action) {
				n++
			}
		}
		return n
	}
	answer := func(status string, started, restarted bool, now string) string {
		return fmt.Sprintf(`{"id":"%s","name":"%s","status":"%s","started":%v,"restarted":%v,"status-now":"%s"}`,
			demo.AppID, demo.AppName, status, started, restarted, now)
	}

	// A stopped application (ELEMENT_APP_ID) is started and waited for.
	if err := s.SetAppStatus(demo.AppID, "Stopped"); err != nil {
		t.Fatal(err)
	}
	ans, err := w.run(command.CLI, "warm-up", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(t, ans); got != answer("Stopped", true, false, "Running") {
		t.Errorf("warm-up of a stopped app: %s", got)
	}
	if logs := w.takeLogs(); len(logs) == 0 || logs[0] != "starting "+demo.AppName {
		t.Errorf("logs %q", logs)
	}

	// A running one, named by --stand, is left alone...
	ans, err = w.run(command.MCP, "warm-up", map[string]any{"stand": demo.AppName})
	if err != nil || compact(t, ans) != answer("Running", false, false, "Running") {
		t.Errorf("a running app: %v %v", compact(t, ans), err)
	}
	stops, starts := calls("stop"), calls("start")
	// ...unless --force asks for a restart.
	ans, err = w.run(command.CLI, "warm-up", map[string]any{"stand": demo.AppName, "force": true})
	if err != nil || compact(t, ans) != answer("Running", true, true, "Running") {
		t.Errorf("--force on a running app: %v %v", compact(t, ans), err)
	}
	if calls("stop") != stops+1 || calls("start") != starts+1 {
		t.Errorf("--force: %d stops and %d starts, want one each", calls("stop")-stops, calls("start")-starts)
	}
	if logs := w.takeLogs(); len(logs) == 0 || logs[0] != "restarting "+demo.AppName {
		t.Errorf("logs %q", logs)
	}

	// An application in Error is started again only with --force.
	if err := s.SetAppStatus(demo.AppID, "Error"); err != nil {
		t.Fatal(err)
	}
	ans, err = w.run(command.CLI, "warm-up", map[string]any{"stand": demo.AppID})
	if err != nil || compact(t, ans) != answer("Error", false, false, "Error") {
		t.Errorf("an app in Error: %v %v", compact(t, ans), err)
	}
	if _, err = w.run(command.CLI, "warm-up", map[string]any{"stand": demo.AppID, "force": true}); err == nil {
		t.Error("--force on an app in Error: the stand keeps it in Error, the command must fail")
	} else if !strings.Contains(err.Error(), "status Error") {
		t.Errorf("--force on an app in Error: %v", err)
	}
}

func TestManifestOfExampleIsCurrent(t *testing.T) {
	exe := goBuild(t, "examples/plugins/warm-up")
	root := t.TempDir()
	installBuilt(t, root, "x", exe, func(m *protocol.Manifest) { m.Executable = "warm-up" })
	got := readFile(t, root+"/x/"+protocol.ManifestFile)
	want := readFile(t, "../../examples/plugins/warm-up/"+protocol.ManifestFile)
	var a, b any
	json.Unmarshal([]byte(got), &a)
	json.Unmarshal([]byte(want), &b)
	if compact(t, a) != compact(t, b) {
		t.Errorf("examples/plugins/warm-up/elemctl-plugin.json is stale; `warm-up manifest` prints\n%s", got)
	}
}
