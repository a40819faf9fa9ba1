package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// The tests of this file run the real elemctl binary with real plugin
// programs: the Go test plugin, the Go warm-up example and the Python
// example.

var pluginBins struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// buildBin builds a main package of the module once per test run.
func buildBin(t *testing.T, pkg string) string {
	t.Helper()
	pluginBins.Lock()
	defer pluginBins.Unlock()
	if p, ok := pluginBins.paths[pkg]; ok {
		return p
	}
	if pluginBins.dir == "" {
		d, err := os.MkdirTemp("", "elemctl-plugins-cli-")
		if err != nil {
			t.Fatal(err)
		}
		pluginBins.dir, pluginBins.paths = d, map[string]string{}
	}
	name := filepath.Base(pkg)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(pluginBins.dir, strings.ReplaceAll(pkg, "/", "_"), name)
	cmd := exec.Command("go", "build", "-o", out, "github.com/elemctl/elemctl/"+pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	pluginBins.paths[pkg] = out
	return out
}

// pluginBed is a plugin directory, an environment and the binary.
type pluginBed struct {
	t    *testing.T
	bin  string
	root string
	env  map[string]string
	dir  string
}

func newPluginBed(t *testing.T) *pluginBed {
	home := t.TempDir()
	b := &pluginBed{t: t, bin: buildBin(t, "cmd/elemctl"), root: t.TempDir(), dir: t.TempDir(), env: map[string]string{
		"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_STATE_HOME": filepath.Join(home, "state"),
		"ELEMCTL_DATA_DIR": filepath.Join(home, "elemctl"), "ELEMCTL_LANG": "en", "ELEMCTL_NO_PROXY": "1",
		"PATH": os.Getenv("PATH"), "TMPDIR": home, "SYSTEMROOT": os.Getenv("SYSTEMROOT"),
	}}
	b.env["ELEMCTL_PLUGIN_PATH"] = b.root
	return b
}

// install puts an SDK-built program into the plugin directory with its
// own manifest, changed by edit.
func (b *pluginBed) install(dirName, pkg string, edit func(*protocol.Manifest)) {
	b.t.Helper()
	exe := buildBin(b.t, pkg)
	out, err := exec.Command(exe, "manifest").Output()
	if err != nil {
		b.t.Fatal(err)
	}
	var m protocol.Manifest
	if err := json.Unmarshal(out, &m); err != nil {
		b.t.Fatal(err)
	}
	m.Executable = exe
	if edit != nil {
		edit(&m)
	}
	raw, _ := json.Marshal(m)
	b.manifest(dirName, string(raw))
}

func (b *pluginBed) manifest(dirName, text string) {
	b.t.Helper()
	d := filepath.Join(b.root, dirName)
	if err := os.MkdirAll(d, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, protocol.ManifestFile), []byte(text), 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *pluginBed) environ() []string {
	var out []string
	for k, v := range b.env {
		out = append(out, k+"="+v)
	}
	return out
}

type result struct {
	stdout, stderr string
	code           int
}

func (b *pluginBed) run(args ...string) result {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Env = b.environ()
	cmd.Dir = b.dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		b.t.Fatalf("elemctl %v: %v", args, err)
	}
	return result{out.String(), errOut.String(), code}
}

// ok runs a command that must succeed and decodes its answer.
func (b *pluginBed) ok(args ...string) map[string]any {
	b.t.Helper()
	r := b.run(args...)
	if r.code != 0 {
		b.t.Fatalf("elemctl %v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		b.t.Fatalf("elemctl %v: stdout is not a JSON object: %v\n%s", args, err, r.stdout)
	}
	return m
}

func oneLine(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// faceRendersPlugins tells whether the CLI face renders plugin commands
// with pluginLeaf and calls the failure hooks (see the plugins report);
// the rules of spec §2.7 that only pluginLeaf implements are skipped until
// it does.
func faceRendersPlugins(t *testing.T, b *pluginBed) bool {
	t.Helper()

	ctx := context.Background()
	a := newApp(nil, &bytes.Buffer{}, &bytes.Buffer{}, func(k string) string { return b.env[k] })
	root := a.buildRoot(ctx)
	for _, c := range root.Commands() {
		if c.Annotations[pluginAnnotation] != "" {
			return true
		}
	}
	return false
}

func TestPluginsOnTheCLI(t *testing.T) {
	t.Parallel()
	b := newPluginBed(t)
	b.install("testplugin", "internal/plugin/testplugin", nil)
	b.manifest("broken", `{"name": "broken", "executable": "nope", "commands": [{"name": "b"}]}`)
	b.manifest("newer", `{"name": "newer", "requires": ["teleport"]}`)
	b.install("clash", "internal/plugin/testplugin", func(m *protocol.Manifest) {
		m.Name = "clash"
		m.Commands = []protocol.CommandSpec{{Name: "deploy"}}
	})

	t.Run("plugins report", func(t *testing.T) {
		r := b.run("plugins")
		if r.code != 0 || strings.Contains(r.stderr, "did not load") {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		var rep struct {
			DebugAdapter []any            `json:"debug-adapter"`
			Commands     []map[string]any `json:"commands"`
			Failures     []map[string]any `json:"failures"`
			Features     []string         `json:"features"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.stdout, "{\n  \"debug-adapter\": [],\n  \"commands\": [\n    {\n      \"name\": \"echo\",\n      \"source\": \"testplugin\",\n      \"mcp\": \"echo\"\n    },") {
			t.Errorf("report shape:\n%s", r.stdout)
		}
		var names []string
		for _, c := range rep.Commands {
			names = append(names, c["name"].(string)+"="+oneLine(t, c["mcp"]))
		}
		all := strings.Join(names, " ")
		if !strings.Contains(all, `verdict="test_verdict"`) || !strings.Contains(all, `list=null`) || strings.Contains(all, "deploy") {
			t.Errorf("commands %s", all)
		}
		var failed []string
		for _, f := range rep.Failures {
			failed = append(failed, f["source"].(string)+": "+f["error"].(string))
		}
		fs := strings.Join(failed, "\n")
		if len(failed) != 3 || !strings.Contains(fs, "broken: plugin 'broken': the plugin's program") ||
			!strings.Contains(fs, "newer: plugin 'newer': the plugin needs features elemctl "+versionText()+" lacks: teleport") ||
			!strings.Contains(fs, "clash: plugin 'clash', command 'deploy': this is the name of an elemctl command") {
			t.Errorf("failures:\n%s", fs)
		}
		if len(rep.Features) == 0 || rep.Features[0] != "multiple" {
			t.Errorf("features %v", rep.Features)
		}
	})

	t.Run("typed arguments", func(t *testing.T) {
		ans := b.ok("echo", "a", "b", "--count", "3", "--ratio", "0.5", "--tag", "x", "--tag", "y", "--verbose", "--mode", "slow")
		if got := oneLine(t, ans["arguments"]); got != `{"count":3,"items":["a","b"],"level":null,"mode":"slow","num":[],"ratio":0.5,"tag":["x","y"],"verbose":true}` {
			t.Errorf("arguments %s", got)
		}
		if ans["surface"] != "cli" {
			t.Errorf("surface %v", ans["surface"])
		}
		ans = b.ok("echo")
		if got := oneLine(t, ans["arguments"]); got != `{"count":1,"items":[],"level":null,"mode":null,"num":[],"ratio":null,"tag":["base"],"verbose":false}` {
			t.Errorf("defaults %s", got)
		}
	})

	t.Run("log routing", func(t *testing.T) {
		r := b.run("talk", "--lines", "2")
		if r.code != 0 || strings.TrimSpace(r.stdout) != "{\n  \"said\": 2\n}" {
			t.Fatalf("exit %d stdout %q", r.code, r.stdout)
		}
		// The plugin's own stderr and its log lines travel separately, so
		// only their presence is certain, not their interleaving.
		if !strings.Contains(r.stderr, "line 1\n") || !strings.Contains(r.stderr, "line 2\n") || !strings.Contains(r.stderr, "a stray print") {
			t.Errorf("stderr %q", r.stderr)
		}
		r = b.run("talk", "--quiet")
		if strings.Contains(r.stderr, "line 1") || r.code != 0 {
			t.Errorf("--quiet still logs: %q", r.stderr)
		}
	})

	t.Run("exit codes", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
		}{
			{[]string{"verdict"}, 0},
			{[]string{"verdict", "--ok", "false"}, 1},
			{[]string{"verdict", "--exit-code", "4"}, 4},
			{[]string{"verdict", "--ok", "false", "--exit-code", "0"}, 0},
			{[]string{"verdict", "--ok", "false", "--exit-code", "300"}, 1},
			{[]string{"verdict", "--exit-code", "true"}, 0},
		} {
			r := b.run(tc.args...)
			if r.code != tc.code || !strings.Contains(r.stdout, `"ok"`) {
				t.Errorf("%v: exit %d, want %d; stdout %q", tc.args, r.code, tc.code, r.stdout)
			}
		}
	})

	t.Run("a crash costs the call", func(t *testing.T) {
		for _, name := range []string{"crash", "garbage", "fail"} {
			r := b.run(name)
			if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `"error": "`) {
				t.Errorf("%s: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("plugins off", func(t *testing.T) {
		b.env["ELEMCTL_NO_PLUGINS"] = "yes"
		defer delete(b.env, "ELEMCTL_NO_PLUGINS")
		if r := b.run("echo"); r.code != 2 {
			t.Errorf("echo with plugins off: exit %d, stderr %q", r.code, r.stderr)
		}
		ans := b.ok("plugins")
		if oneLine(t, ans["commands"]) != "[]" || oneLine(t, ans["failures"]) != "[]" {
			t.Errorf("plugins off: %v", ans)
		}
		b.env["ELEMCTL_NO_PLUGINS"] = "0"
		if r := b.run("echo"); r.code != 0 {
			t.Errorf("ELEMCTL_NO_PLUGINS=0 keeps plugins on: exit %d", r.code)
		}
	})

	t.Run("rules of plugin command lines", func(t *testing.T) {
		if !faceRendersPlugins(t, b) {
			t.Fatal("the CLI face renders no plugin command")
		}
		usage := func(want string, args ...string) {
			t.Helper()
			r := b.run(args...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, want) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", args, r.code, r.stderr, want)
			}
		}
		// two different values of one option are an error of the call,
		// as two different values of a positional and its option are
		refused := func(want string, args ...string) {
			t.Helper()
			r := b.run(args...)
			if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `"error": "`+want) {
				t.Errorf("%v: exit %d, stderr %q; want exit 1 with the error %q", args, r.code, r.stderr, want)
			}
		}
		refused(`the key --count takes one value but is repeated with different ones: \"1\" and \"2\"`, "echo", "--count", "1", "--count", "2")
		refused(`the key --mode takes one value but is repeated with different ones: \"fast\" and \"slow\"`, "echo", "--mode=fast", "--mode", "slow")
		usage("argument --item: not allowed with argument items", "echo", "a", "--item", "b")
		usage("argument --page: not allowed with argument page", "pick", "3", "--page", "3", "--stand", "s")
		usage(`invalid value for --mode: "medium"`, "echo", "--mode", "medium")
		usage(`invalid value for --level: "4"`, "echo", "--level", "4")
		usage(`invalid value "x" for page: an integer expected`, "pick", "x", "--stand", "s")
		usage("--stand", "pick", "3")
		usage("page (--page)", "pick", "--stand", "s")
		usage("unexpected arguments: 4", "pick", "3", "4", "--stand", "s")
		// the parser's own refusals are in the user's language here too,
		// and a plugin's own refusal keeps its text
		usage("неизвестный ключ: --no-such", "--lang", "ru", "echo", "--no-such")
		refused(`ключ --count принимает одно значение, а повторен с разными: \"1\" и \"2\"`, "--lang", "ru", "echo", "--count", "1", "--count", "2")

		if got := oneLine(t, b.ok("echo", "--count", "3", "--count", "03", "--verbose", "--verbose")["arguments"]); !strings.Contains(got, `"count":3`) {
			t.Errorf("equal repeats: %s", got)
		}
		if got := oneLine(t, b.ok("echo", "--item", "a", "--item", "b", "--num", "1", "--num", "2", "--level", "02")["arguments"]); !strings.Contains(got, `"items":["a","b"]`) || !strings.Contains(got, `"num":[1,2]`) || !strings.Contains(got, `"level":2`) {
			t.Errorf("repeated alias and multiple int: %s", got)
		}
		if got := oneLine(t, b.ok("pick", "--page", "7", "--stand", "dev")); got != `{"page":7,"stand":"dev"}` {
			t.Errorf("alias alone: %s", got)
		}
		r := b.run("echo", "--help")
		if !strings.Contains(r.stdout, "(the key may be repeated, one value each)") || !strings.Contains(r.stdout, "the same as the positional argument items") ||
			!strings.Contains(r.stdout, "(several values may be given, separated by spaces)") {
			t.Errorf("help:\n%s", r.stdout)
		}
	})

	t.Run("failure lines and the unknown command", func(t *testing.T) {
		probe := b.run("echo")
		if !strings.Contains(probe.stderr, "did not load") {
			t.Fatalf("the CLI face reports no plugin failure before a command: %q", probe.stderr)
		}
		if !strings.Contains(probe.stderr, "plugin 'broken' did not load, its commands are unavailable: plugin 'broken': the plugin's program") {
			t.Errorf("failure line: %q", probe.stderr)
		}
		if r := b.run("echo", "--quiet"); strings.Contains(r.stderr, "did not load") {
			t.Errorf("--quiet shows failure lines: %q", r.stderr)
		}
		for _, quiet := range [][]string{{"plugins"}, {"--version"}} {
			if r := b.run(quiet...); strings.Contains(r.stderr, "did not load") {
				t.Errorf("%v prints failure lines: %q", quiet, r.stderr)
			}
		}
		r := b.run("b", "x")
		var refusal struct {
			Error    string           `json:"error"`
			Failures []map[string]any `json:"plugin-failures"`
		}
		if r.code != 1 || r.stdout != "" || json.Unmarshal([]byte(r.stderr[strings.Index(r.stderr, "{"):]), &refusal) != nil ||
			!strings.Contains(refusal.Error, "there is no command 'b', and some plugins did not load: broken, clash, newer") || len(refusal.Failures) != 3 {
			t.Errorf("unknown command: exit %d, stderr %q", r.code, r.stderr)
		}
	})
}

func TestDebugAdapterCommands(t *testing.T) {
	b := newPluginBed(t)
	r := b.run("debug-adapter")
	if r.code != 0 || r.stdout != "{\n  \"path\": null,\n  \"found\": false\n}\n" {
		t.Fatalf("nothing installed: exit %d %q %q", r.code, r.stdout, r.stderr)
	}

	// A distribution with the adapter inside.
	car := filepath.Join(t.TempDir(), "1c-enterprise-element-server-with-ide-9.2.8+11-linux-x86_64.e1c.car")
	f, _ := os.Create(car)
	zw := zip.NewWriter(f)
	for _, name := range []string{"bin/g5rt.debugger.adapter", "repo/com.e1c.g5rt.debugger.adapter-9.2.8.jar", "repo/netty-common-4.1.0.jar"} {
		w, _ := zw.Create(adapter.DebuggerPrefix + name)
		w.Write([]byte("x"))
	}
	zw.Close()
	f.Close()

	r = b.run("debug-adapter", "extract", car)
	if r.code != 0 || !strings.Contains(r.stderr, "extracted 3 files into") || !strings.Contains(r.stderr, "default 9.2.8+11") {
		t.Fatalf("extract: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	want := filepath.Join(b.env["XDG_DATA_HOME"], "elemctl", "adapter", "9.2.8+11")
	ans := b.ok("debug-adapter")
	if ans["path"] != want || ans["found"] != true || ans["adapter-class"] != "com.e1c.g5rt.debugger.adapter.App" {
		t.Errorf("after extract: %v", ans)
	}
	if r := b.run("debug-adapter", "extract", car); r.code != 1 || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("extract again: exit %d %q", r.code, r.stderr)
	}
	out := b.ok("debug-adapter", "extract", car, "--output", "adapter")
	if out["path"] != filepath.Join(b.dir, "adapter", "9.2.8+11") {
		t.Errorf("--output is relative to the current directory: %v", out)
	}
	if r := b.run("debug-adapter", "--env-file", ".env"); r.code != 1 {
		t.Errorf("a local command takes no connection flags: exit %d", r.code)
	}

	// ELEMCTL_DEBUG_ADAPTER comes before plugins; plugins list every
	// declared adapter.
	b.manifest("ships", `{"debug_adapter": "nothing-here"}`)
	b.env["ELEMCTL_DEBUG_ADAPTER"] = filepath.Join(b.dir, "adapter")
	ans = b.ok("debug-adapter")
	if ans["path"] != filepath.Join(b.dir, "adapter", "9.2.8+11") {
		t.Errorf("ELEMCTL_DEBUG_ADAPTER: %v", ans)
	}
	rep := b.ok("plugins")
	if got := oneLine(t, rep["debug-adapter"]); !strings.Contains(got, `"has-jars":false`) || !strings.Contains(got, "nothing-here") {
		t.Errorf("plugins debug-adapter %s", got)
	}
}

func TestPluginsAgainstTheStand(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	b := newPluginBed(t)
	b.env["ELEMENT_BASE_URL"], b.env["ELEMENT_CLIENT_ID"], b.env["ELEMENT_CLIENT_SECRET"] = s.URL(), s.ClientID(), s.ClientSecret()
	b.env["ELEMENT_APP_ID"] = demo.AppID
	b.install("warm-up", "examples/plugins/warm-up", nil)
	if err := s.SetAppStatus(demo.AppID, "Stopped"); err != nil {
		t.Fatal(err)
	}
	r := b.run("warm-up")
	if r.code != 0 || !strings.Contains(r.stdout, `"started": true`) || !strings.Contains(r.stderr, "starting "+demo.AppName) {
		t.Fatalf("warm-up: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if ans := b.ok("warm-up", "--stand", demo.AppName); ans["status"] != "Running" || ans["started"] != false {
		t.Errorf("warm-up --stand NAME: %v", ans)
	}
	if ans := b.ok("warm-up", "--stand", demo.AppID, "--force"); ans["restarted"] != true || ans["status-now"] != "Running" {
		t.Errorf("warm-up --stand ID --force: %v", ans)
	}
	if r := b.run("warm-up", "--stand", demo.AppID, "--stand", "other"); r.code != 1 || !strings.Contains(r.stderr, `"error": "`) || !strings.Contains(r.stderr, "--stand") {
		t.Errorf("--stand given twice with different values: exit %d\n%s", r.code, r.stderr)
	}
	if r := b.run("warm-up", "--help"); !strings.Contains(r.stdout, "--stand") || !strings.Contains(r.stdout, "--force") {
		t.Errorf("warm-up --help:\n%s", r.stdout)
	}

	logs := b.run("plugins").stdout + r.stdout + r.stderr
	if strings.Contains(logs, s.ClientSecret()) {
		t.Error("the client secret was printed")
	}

	t.Run("the Python example", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 is absent: the Python example is not run")
		}
		example, _ := filepath.Abs("../../examples/plugins/app-report")
		b.env["ELEMCTL_PLUGIN_PATH"] += string(os.PathListSeparator) + filepath.Dir(example)
		ans := b.ok("app-report", "running", "stopped")
		if ans["surface"] != "cli" || ans["source"] != "list_apps" || oneLine(t, ans["by-status"]) != `{"Running":1}` {
			t.Errorf("app-report: %v", ans)
		}
		r := b.run("app-report", "--raw", "--min-live", "5")
		if r.code != 3 || !strings.Contains(r.stdout, `"source": "console"`) || !strings.Contains(r.stderr, "Running: 1") {
			t.Errorf("app-report --raw: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, s.ClientSecret()) {
			t.Error("the client secret was printed")
		}
	})
}

func TestPluginToolsOverMCP(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	b := newPluginBed(t)
	b.install("testplugin", "internal/plugin/testplugin", nil)
	b.install("warm-up", "examples/plugins/warm-up", nil)
	envFile := filepath.Join(b.dir, ".env")
	os.WriteFile(envFile, []byte("ELEMENT_BASE_URL="+s.URL()+"\nELEMENT_CLIENT_ID="+s.ClientID()+"\nELEMENT_CLIENT_SECRET="+s.ClientSecret()+"\nELEMCTL_NO_PROXY=1\n"), 0o600)

	cl, err := client.NewStdioMCPClient(b.bin, b.environ(), "--env-file", envFile, "mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "plugins-test", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	tools, err := cl.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]mcpgo.Tool{}
	for _, tool := range tools.Tools {
		byName[tool.Name] = tool
	}
	for _, name := range []string{"echo", "test_verdict", "warm_up", "debug_adapter", "get_app"} {
		if _, ok := byName[name]; !ok {
			t.Errorf("tool %s is missing", name)
		}
	}
	if _, ok := byName["list"]; ok {
		t.Error("an mcp: false command became a tool")
	}
	echo, _ := json.Marshal(byName["echo"].InputSchema)
	for _, want := range []string{`"count":{"default":1,`, `"type":"integer"`, `"items":{"default":[]`, `"env_file"`} {
		if !strings.Contains(string(echo), want) {
			t.Errorf("echo schema lacks %s: %s", want, echo)
		}
	}
	if len(byName["echo"].InputSchema.Required) != 0 {
		t.Errorf("plugin tools list required parameters: %v", byName["echo"].InputSchema.Required)
	}
	if _, ok := byName["echo"].InputSchema.Properties["item"]; ok {
		t.Errorf("cli_alias adds no parameter: %s", echo)
	}
	warm, _ := json.Marshal(byName["warm_up"].InputSchema.Properties)
	if !strings.Contains(string(warm), `"stand":{`) || !strings.Contains(string(warm), `"force":{"default":false`) {
		t.Errorf("warm_up takes stand and force: %s", warm)
	}
	if strings.Contains(string(warm), `"default":null`) {
		t.Errorf("a string parameter of warm_up declares default null: %s", warm)
	}

	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		req := mcpgo.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = args
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(mcpgo.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		return text.String(), res.IsError
	}
	text, isErr := call("echo", map[string]any{"items": []any{"a"}, "count": 2, "num": []any{3, 4}})
	if isErr || !strings.Contains(text, `"surface": "mcp"`) || !strings.Contains(text, `"num": [`) || !strings.Contains(text, `"count": 2`) {
		t.Errorf("echo over MCP: %s", text)
	}
	text, isErr = call("talk", map[string]any{"lines": 2})
	if isErr || !strings.Contains(text, `"log": [`) || !strings.Contains(text, `"line 2"`) {
		t.Errorf("log merged into the answer: %s", text)
	}
	text, isErr = call("test_verdict", map[string]any{"ok": "false", "exit_code": "4"})
	if isErr || !strings.Contains(text, `"exit-code": 4`) {
		t.Errorf("exit-code passes through: %v %s", isErr, text)
	}
	text, isErr = call("crash", nil)
	if !isErr || !strings.Contains(text, "exited before answering") {
		t.Errorf("crash over MCP: %v %s", isErr, text)
	}
	text, isErr = call("warm_up", map[string]any{"stand": demo.AppName})
	if isErr || !strings.Contains(text, demo.AppID) {
		t.Errorf("warm_up over MCP: %s", text)
	}
	text, isErr = call("echo", nil)
	if isErr {
		t.Errorf("the server does not work after a crash: %s", text)
	}
}
