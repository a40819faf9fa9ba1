package manifest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/plugin/protocol"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// plugin writes a plugin directory with the given manifest text and an
// executable named "run".
func plugin(t *testing.T, root, dir, text string) string {
	t.Helper()
	d := filepath.Join(root, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, protocol.ManifestFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "run"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// withArgs is a one-command manifest whose command has the arguments.
func withArgs(args ...string) string {
	return `{"name": "p", "executable": "run", "commands": [{"name": "c", "arguments": [` + strings.Join(args, ",") + `]}]}`
}

func TestValidationRefusals(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	cases := []struct {
		name, manifest, want string
	}{
		{"not json", `{`, "is not JSON"},
		{"not an object", `[]`, "must hold a JSON object"},
		{"unknown top field", `{"name": "p", "comands": []}`, `unknown manifest field "comands"`},
		{"bad plugin name", `{"name": "p q"}`, `the plugin name "p q" is not valid`},
		{"commands not a list", `{"name": "p", "executable": "run", "commands": 3}`, `"commands" must be a list`},
		{"command not an object", `{"name": "p", "executable": "run", "commands": [3]}`, "item 1 is not a command"},
		{"command string", `{"name": "p", "executable": "run", "commands": ["deploy"]}`, "item 1 is not a command"},
		{"command without name", `{"name": "p", "executable": "run", "commands": [{"help": "x"}]}`, "command 1 has no name"},
		{"command name empty", `{"name": "p", "executable": "run", "commands": [{"name": ""}]}`, "command 1 has no name"},
		{"command name not a string", `{"name": "p", "executable": "run", "commands": [{"name": 5}]}`, "command 1 has no name"},
		{"command name with space", `{"name": "p", "executable": "run", "commands": [{"name": "a b"}]}`, `the command name "a b" is not valid`},
		{"command twice", `{"name": "p", "executable": "run", "commands": [{"name": "c"}, {"name": "c"}]}`, "declared twice"},
		{"unknown command field", `{"name": "p", "executable": "run", "commands": [{"name": "c", "handler": "x"}]}`, `unknown manifest field "handler"`},
		{"no executable", `{"name": "p", "commands": [{"name": "c"}]}`, `no "executable"`},
		{"missing executable", `{"name": "p", "executable": "nope", "commands": [{"name": "c"}]}`, "does not exist"},
		{"bad mcp_name", `{"name": "p", "executable": "run", "commands": [{"name": "c", "mcp_name": "a b"}]}`, "mcp_name"},
		{"feature missing", `{"name": "p", "requires": ["multiple", "teleport", "time-travel"]}`, "lacks: teleport, time-travel"},
		{"bad timeout", `{"name": "p", "timeout": -1}`, `"timeout" must be a positive number`},
		{"zero timeout", `{"name": "p", "timeout": 0}`, `"timeout" must be a positive number`},
		{"bad adapter", `{"name": "p", "debug_adapter": 5}`, `"debug_adapter" must be`},
		{"bad adapter object", `{"name": "p", "debug_adapter": {"where": "x"}}`, `"debug_adapter" must be`},
		{"argument not an object", withArgs(`"--x"`), "item 1 is not an argument"},
		{"argument without name", withArgs(`{"help": "x"}`), "argument 1 has no name"},
		{"unknown argument field", withArgs(`{"name": "--x", "action": "store"}`), `argument --x: unknown field "action"`},
		{"type unsupported", withArgs(`{"name": "--x", "type": "list"}`), "the type list is not supported (supported: str, int, float, bool)"},
		{"flag positional", withArgs(`{"name": "x", "type": "bool"}`), "a flag can only be an option: --x"},
		{"multiple flag", withArgs(`{"name": "--x", "type": "bool", "multiple": true}`), "repeatable (multiple), but it is a flag"},
		{"multiple default string", withArgs(`{"name": "--x", "multiple": true, "default": "a.png"}`), `default must be a list or null, not "a.png"`},
		{"multiple default number", withArgs(`{"name": "--x", "multiple": true, "default": 3}`), "not 3"},
		{"multiple default object", withArgs(`{"name": "--x", "multiple": true, "default": {"a": 1}}`), `not {"a":1}`},
		{"default wrong type", withArgs(`{"name": "--x", "type": "int", "default": "three"}`), "does not fit the type int"},
		{"choice wrong type", withArgs(`{"name": "--x", "type": "int", "choices": [1, "b"]}`), `the choice "b" does not fit`},
		{"duplicate dest", withArgs(`{"name": "--page-size"}`, `{"name": "page_size"}`), "already keeps its value under the name page_size"},
		{"alias on option", withArgs(`{"name": "--x", "cli_alias": "--y"}`), "cli_alias is for positional arguments only"},
		{"alias not an option", withArgs(`{"name": "x", "cli_alias": "y"}`), `the cli_alias "y" must be an option`},
		{"alias clashes with option", withArgs(`{"name": "--page"}`, `{"name": "x", "cli_alias": "--page"}`), "the option --page is already taken by the argument --page"},
		{"alias clashes with alias", withArgs(`{"name": "x", "cli_alias": "--z"}`, `{"name": "y", "cli_alias": "--z"}`), "the option --z is already taken by the argument x"},
		{"global option", withArgs(`{"name": "--timeout"}`), "the elemctl global option --timeout"},
		{"global flag", withArgs(`{"name": "--json", "type": "bool"}`), "global option --json"},
		{"global option as alias", withArgs(`{"name": "stand", "cli_alias": "--quiet"}`), "global option --quiet"},
		{"global env-file", withArgs(`{"name": "--env-file"}`), "global option --env-file"},
		{"value name positional", withArgs(`{"name": "timeout"}`), "keeps a value under the name timeout"},
		{"value name env_file", withArgs(`{"name": "env-file"}`), "under the name env_file"},
		{"value name option env_file", withArgs(`{"name": "--env_file"}`), "under the name env_file"},
		{"value name handler", withArgs(`{"name": "handler"}`), "under the name handler"},
		{"value name command", withArgs(`{"name": "--command"}`), "under the name command"},
		{"value name plugin_failures", withArgs(`{"name": "plugin-failures"}`), "under the name plugin_failures"},
		{"help option", withArgs(`{"name": "--help", "type": "bool"}`), "elemctl's own (-h, --help)"},
		{"h option", withArgs(`{"name": "-h"}`), "elemctl's own (-h, --help)"},
		{"help alias", withArgs(`{"name": "x", "cli_alias": "-h"}`), "elemctl's own (-h, --help)"},
		{"single dash option", withArgs(`{"name": "-s"}`), "written with two dashes: --s"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := plugin(t, t.TempDir(), "p", tc.manifest)
			_, err := Load(ctx, dir, Options{Getenv: envOf(nil), Version: "9.9.9"})
			if err == nil {
				t.Fatalf("accepted: %s", tc.manifest)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "plugin 'p'") {
				t.Errorf("error %q does not name the plugin", err)
			}
		})
	}
}

func TestValidationNamesTheCommand(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := plugin(t, t.TempDir(), "p", withArgs(`{"name": "--timeout"}`))
	_, err := Load(ctx, dir, Options{Getenv: envOf(nil)})
	if err == nil || !strings.HasPrefix(err.Error(), "plugin 'p', command 'c': argument --timeout") {
		t.Fatalf("error %v", err)
	}
}

func TestValidationRussianFragments(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	cases := map[string]string{
		withArgs(`{"name": "--x", "type": "bool", "multiple": true}`): "повторяемым (multiple), а это флаг",
		withArgs(`{"name": "--lang"}`):                                "общего ключа elemctl --lang.",
		withArgs(`{"name": "plugin-command"}`):                        "хранит значение под именем plugin_command,",
	}
	for text, want := range cases {
		_, err := Load(ctx, plugin(t, t.TempDir(), "p", text), Options{Getenv: envOf(nil)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not contain %q", err, want)
		}
	}
}

func TestNearNamesAreFree(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := plugin(t, t.TempDir(), "p", withArgs(`{"name": "--base"}`, `{"name": "--timeout-seconds", "type": "float"}`,
		`{"name": "--json-out", "type": "bool"}`, `{"name": "stand", "cli_alias": "--stand-name"}`))
	p, err := Load(ctx, dir, Options{Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	var dests []string
	for _, a := range p.Commands[0].Args {
		dests = append(dests, a.Dest)
	}
	if got := strings.Join(dests, ","); got != "base,timeout_seconds,json_out,stand" {
		t.Errorf("dests %s", got)
	}
}

func TestArgumentDefaults(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := plugin(t, t.TempDir(), "p", withArgs(
		`{"name": "page"}`,
		`{"name": "extra", "required": false}`,
		`{"name": "--retries", "type": "int", "default": 1}`,
		`{"name": "--ratio", "type": "float", "default": 2}`,
		`{"name": "--tag", "multiple": true, "default": ["a", "b"]}`,
		`{"name": "--must", "required": true}`,
		`{"name": "--level", "type": "int", "choices": [1, 2]}`,
	))
	p, err := Load(ctx, dir, Options{Getenv: envOf(nil)})
	if err != nil {
		t.Fatal(err)
	}
	a := p.Commands[0].Args
	if !a[0].Required || a[1].Required || a[2].Required || !a[5].Required {
		t.Errorf("required: positional by default, option when asked: %v %v %v %v", a[0].Required, a[1].Required, a[2].Required, a[5].Required)
	}
	if a[2].Default != int64(1) || a[3].Default != float64(2) {
		t.Errorf("typed defaults %#v %#v", a[2].Default, a[3].Default)
	}
	if d, _ := json.Marshal(a[4].Default); string(d) != `["a","b"]` {
		t.Errorf("list default %s", d)
	}
	if a[6].Choices[1] != int64(2) {
		t.Errorf("typed choices %#v", a[6].Choices)
	}
	if p.Commands[0].ToolName() != "c" || p.Timeout != DefaultTimeout || p.StartupTimeout != DefaultStartupTimeout {
		t.Errorf("tool %q timeouts %v %v", p.Commands[0].ToolName(), p.Timeout, p.StartupTimeout)
	}
}

func TestDisabledTruthiness(t *testing.T) {
	for value, off := range map[string]bool{
		"": false, "0": false, "false": false, "no": false, " False ": false, "NO": false,
		"1": true, "true": true, "yes": true, "off": true, "anything": true, "00": true,
	} {
		if got := Disabled(envOf(map[string]string{EnvDisable: value})); got != off {
			t.Errorf("ELEMCTL_NO_PLUGINS=%q: disabled %v, want %v", value, got, off)
		}
	}
}

func TestDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	got := Dirs(envOf(map[string]string{EnvPath: "/a" + sep + sep + "/b", "XDG_DATA_HOME": "/data"}), "linux")
	// The Linux rules spell Linux paths, and the Windows rules Windows
	// paths, on whichever system the test runs.
	want := []string{"/a", "/b", "/data/elemctl/plugins"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("dirs %v, want %v", got, want)
	}
	if got := UserPluginDir(envOf(map[string]string{"HOME": "/home/u"}), "linux"); got != "/home/u/.local/share/elemctl/plugins" {
		t.Errorf("home fallback %s", got)
	}
	if got := UserPluginDir(envOf(map[string]string{"LOCALAPPDATA": "L", "XDG_DATA_HOME": "/x"}), "windows"); got != `L\elemctl\plugins` {
		t.Errorf("windows %s", got)
	}
}

func TestDiscoverOrderShadowAndFailures(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	first, second, data := t.TempDir(), t.TempDir(), t.TempDir()
	plugin(t, first, "zeta", `{"name": "zeta", "executable": "run", "commands": [{"name": "z"}]}`)
	plugin(t, first, "dup", `{"name": "alpha", "executable": "run", "commands": [{"name": "a1"}]}`)
	plugin(t, second, "alpha", `{"name": "alpha", "executable": "run", "commands": [{"name": "a2"}]}`)
	plugin(t, second, "broken", `{"name": "broken", "commands": [{"name": "b"}]}`)
	plugin(t, second, "garbled", `not json`)
	if err := os.MkdirAll(filepath.Join(second, "no-manifest"), 0o755); err != nil {
		t.Fatal(err)
	}
	plugin(t, filepath.Join(data, "elemctl", "plugins"), "user", `{"executable": "run", "commands": [{"name": "u"}]}`)
	env := map[string]string{EnvPath: first + string(os.PathListSeparator) + second, "XDG_DATA_HOME": data}
	set := Discover(ctx, Options{Getenv: envOf(env)})
	var names []string
	for _, p := range set.Plugins {
		names = append(names, p.Name+":"+p.Commands[0].Name)
	}
	if got := strings.Join(names, " "); got != "alpha:a1 user:u zeta:z" {
		t.Errorf("plugins %s (first place wins, then name order; the name defaults to the directory)", got)
	}
	var failed []string
	for _, f := range set.Failures {
		failed = append(failed, f.Source)
	}
	if got := strings.Join(failed, " "); got != "broken garbled" {
		t.Errorf("failures %s: %+v", got, set.Failures)
	}
	env[EnvDisable] = "1"
	if set := Discover(ctx, Options{Getenv: envOf(env)}); len(set.Plugins)+len(set.Failures) != 0 {
		t.Errorf("discovery with ELEMCTL_NO_PLUGINS=1 found %+v", set)
	}
}

func TestResolveClashes(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	root := t.TempDir()
	plugin(t, root, "a", `{"executable": "run", "commands": [{"name": "deploy"}, {"name": "hello"}, {"name": "list-apps"}, {"name": "quiet", "mcp": false}]}`)
	plugin(t, root, "b", `{"executable": "run", "commands": [{"name": "hello"}, {"name": "other", "mcp_name": "hello"}, {"name": "apps"}, {"name": "mcp"}]}`)
	set := Discover(ctx, Options{Getenv: envOf(map[string]string{EnvPath: root, "HOME": t.TempDir()})})
	res := set.Resolve(ctx, Taken{
		Commands: map[string]bool{"deploy": true, "apps": true, "mcp": true},
		Tools:    map[string]bool{"deploy": true, "list_apps": true},
		LSP:      map[string]bool{},
	})
	var got []string
	for _, r := range res.Commands {
		got = append(got, r.Plugin.Name+"/"+r.Name+"="+r.Tool)
	}
	if s := strings.Join(got, " "); s != "a/hello=hello a/list-apps= a/quiet= b/other=" {
		t.Errorf("commands %s", s)
	}
	var failures []string
	for _, f := range res.Failures {
		failures = append(failures, f.Source)
		if f.MCPOnly != strings.Contains(f.Error, "tool name") {
			t.Errorf("MCP-only marker wrong for %q", f.Error)
		}
	}
	if s := strings.Join(failures, " "); s != "a a b b b b" {
		t.Errorf("failures %s: %+v", s, res.Failures)
	}
	if n := len(res.CLIFailures()); n != 4 {
		t.Errorf("CLI failures %d: %+v", n, res.CLIFailures())
	}
}

func TestAllOrNothing(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	root := t.TempDir()
	plugin(t, root, "half", `{"executable": "run", "commands": [{"name": "good"}, {"name": "bad", "arguments": [{"name": "--json"}]}]}`)
	set := Discover(ctx, Options{Getenv: envOf(map[string]string{EnvPath: root, "HOME": t.TempDir()})})
	if len(set.Plugins) != 0 || len(set.Failures) != 1 || !strings.Contains(set.Failures[0].Error, "command 'bad'") {
		t.Fatalf("a plugin with one bad command must add nothing: %+v", set)
	}
}

func TestWindowsExecutableExtensions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool.cmd"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, ok := ResolveExecutable(dir, "tool", "windows", false); !ok || filepath.Base(p) != "tool.cmd" {
		t.Errorf("windows: %s %v", p, ok)
	}
	if _, ok := ResolveExecutable(dir, "tool", "linux", false); ok && runtime.GOOS != "windows" {
		t.Error("linux found tool without its extension")
	}
	if _, ok := ResolveExecutable(dir, "tool", "windows", true); ok {
		t.Error("a script run by an interpreter gets no extension")
	}
}

func TestNameRules(t *testing.T) {
	for s, want := range map[string]bool{"warm-up": true, "a.b_c-1": true, "-x": false, ".x": false, "": false, "x y": false, "имя": false} {
		if reName.MatchString(s) != want {
			t.Errorf("plugin name %q: want %v", s, want)
		}
	}
	for s, want := range map[string]bool{"a.b": false, "run_it": true, "9lives": true, "_x": false} {
		if reCommand.MatchString(s) != want {
			t.Errorf("command name %q: want %v", s, want)
		}
	}
	if !reTool.MatchString("_tool-1") || reTool.MatchString(strings.Repeat("a", 65)) || !reTool.MatchString(strings.Repeat("a", 64)) {
		t.Error("tool names: any of [A-Za-z0-9_-], 1 to 64")
	}
}
