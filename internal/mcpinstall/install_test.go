package mcpinstall

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

var testEntry = jsonx.New("command", "/bin/elemctl", "args", []any{"mcp"})

// edited runs setEntry and checks what every edit must keep: the result
// parses, holds the entry, and a second run changes nothing.
func edited(t *testing.T, src string) string {
	t.Helper()
	out, changed, err := setEntry([]byte(src), "servers", "elemctl", testEntry)
	if err != nil {
		t.Fatalf("setEntry(%q): %v", src, err)
	}
	root, err := parseJSONC(out)
	if err != nil {
		t.Fatalf("the result does not parse: %v\n%s", err, out)
	}
	got := root.decode(out).(*jsonx.Object).Obj("servers").Obj("elemctl")
	for _, k := range testEntry.Keys() {
		if !equalJSON(got.Value(k), testEntry.Value(k)) {
			t.Errorf("the entry's %s is %v in\n%s", k, got.Value(k), out)
		}
	}
	again, changedAgain, err := setEntry(out, "servers", "elemctl", testEntry)
	if err != nil || changedAgain || string(again) != string(out) {
		t.Errorf("a second run changed the file (%v, %v):\n%s", changedAgain, err, again)
	}
	if !changed && src != string(out) {
		t.Errorf("unchanged but different")
	}
	return string(out)
}

func TestSetEntryKeepsEveryOtherByte(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"empty file", "", "{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n"},
		{"comments only", "// my settings\n", "// my settings\n{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n"},
		{"empty object", "{}\n", "{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n"},
		{"one line", `{"a": 1}`, `{"a": 1, "servers": {"elemctl": {"command": "/bin/elemctl", "args": ["mcp"]}}}`},
		{"one-line container", "{\n  \"servers\": {\"x\": {}}\n}",
			"{\n  \"servers\": {\"x\": {}, \"elemctl\": {\"command\": \"/bin/elemctl\", \"args\": [\"mcp\"]}}\n}"},
		{"tabs", "{\n\t\"servers\": {\n\t\t\"x\": {}\n\t}\n}",
			"{\n\t\"servers\": {\n\t\t\"x\": {},\n\t\t\"elemctl\": {\n\t\t\t\"command\": \"/bin/elemctl\",\n\t\t\t\"args\": [\"mcp\"]\n\t\t}\n\t}\n}"},
		{"comment after the last member", "{\n  \"servers\": {\n    \"x\": {} // keep\n  }\n}",
			"{\n  \"servers\": {\n    \"x\": {}, // keep\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}"},
		{"trailing comma and comment", "{\n  \"servers\": {\n    \"x\": {}, /* keep */\n  },\n}",
			"{\n  \"servers\": {\n    \"x\": {}, /* keep */\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    },\n  },\n}"},
		{"comments only inside", "{\n  \"servers\": {\n    // none yet\n  }\n}",
			"{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\",\n      \"args\": [\"mcp\"]\n    }\n    // none yet\n  }\n}"},
		{"CRLF", "{\r\n  \"a\": 1\r\n}\r\n", "{\r\n  \"a\": 1,\r\n  \"servers\": {\r\n    \"elemctl\": {\r\n      \"command\": \"/bin/elemctl\",\r\n      \"args\": [\"mcp\"]\r\n    }\r\n  }\r\n}\r\n"},
		{"byte order mark", "\ufeff{\"servers\": {}}", "\ufeff{\"servers\": {\n  \"elemctl\": {\n    \"command\": \"/bin/elemctl\",\n    \"args\": [\"mcp\"]\n  }\n}}"},
		{"existing entry, other keys kept", "{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"old\", // was here\n      \"env\": {\"A\": \"1\"}\n    }\n  }\n}",
			"{\n  \"servers\": {\n    \"elemctl\": {\n      \"command\": \"/bin/elemctl\", // was here\n      \"env\": {\"A\": \"1\"},\n      \"args\": [\"mcp\"]\n    }\n  }\n}"},
		{"already there", "{\"servers\": {\"elemctl\": {\"args\": [\"mcp\"], \"command\": \"/bin/elemctl\", \"disabled\": false}}}",
			"{\"servers\": {\"elemctl\": {\"args\": [\"mcp\"], \"command\": \"/bin/elemctl\", \"disabled\": false}}}"},
		{"strings with braces and comment marks", "{\"u\": \"http://x/*y*/{\", \"servers\": {}}",
			"{\"u\": \"http://x/*y*/{\", \"servers\": {\n  \"elemctl\": {\n    \"command\": \"/bin/elemctl\",\n    \"args\": [\"mcp\"]\n  }\n}}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := edited(t, c.src); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestSetEntryRefusesWhatItCannotEditSafely(t *testing.T) {
	for name, src := range map[string]string{
		"not JSON":              "{\n  \"servers\": {}\n  \"x\": 1\n}",
		"unterminated comment":  "{ /* }",
		"a list":                "[]",
		"container not object":  `{"servers": []}`,
		"entry not object":      `{"servers": {"elemctl": "x"}}`,
		"container twice":       `{"servers": {}, "servers": {}}`,
		"entry twice":           `{"servers": {"elemctl": {}, "elemctl": {}}}`,
		"comment in a value":    "{\"servers\": {\"elemctl\": {\"command\": \"/bin/elemctl\", \"args\": [\"old\" /* x */]}}}",
		"text after the object": `{} {}`,
		"bad string":            `{"a": "\x"}`,
	} {
		if out, _, err := setEntry([]byte(src), "servers", "elemctl", testEntry); err == nil {
			t.Errorf("%s: edited into %s", name, out)
		}
	}
}

func TestSyntaxErrorsSayWhere(t *testing.T) {
	_, err := parseJSONC([]byte("{\n  \"a\": 1\n  \"b\": 2\n}"))
	se, ok := err.(*syntaxError)
	if !ok || se.line != 3 || se.column != 3 {
		t.Errorf("error %v", err)
	}
}

func TestConfigPaths(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	j := filepath.Join
	for _, c := range []struct {
		client, goos string
		env          map[string]string
		want         string
	}{
		{"claude", "linux", map[string]string{"HOME": "/h"}, j("/h", ".claude.json")},
		{"claude", "linux", map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c"}, j("/c", ".claude.json")},
		{"claude", "windows", map[string]string{"USERPROFILE": `C:\Users\u`}, j(`C:\Users\u`, ".claude.json")},
		{"cursor", "darwin", map[string]string{"HOME": "/Users/u"}, j("/Users/u", ".cursor", "mcp.json")},
		{"cursor", "windows", map[string]string{"HOMEDRIVE": "D:", "HOMEPATH": `\u`}, j(`D:\u`, ".cursor", "mcp.json")},
		{"vscode", "linux", map[string]string{"HOME": "/h"}, j("/h", ".config", "Code", "User", "mcp.json")},
		{"vscode", "linux", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, j("/x", "Code", "User", "mcp.json")},
		{"vscode", "linux", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "relative"}, j("/h", ".config", "Code", "User", "mcp.json")},
		{"vscode", "darwin", map[string]string{"HOME": "/Users/u"}, j("/Users/u", "Library", "Application Support", "Code", "User", "mcp.json")},
		{"vscode", "windows", map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`}, j(`C:\Users\u\AppData\Roaming`, "Code", "User", "mcp.json")},
		{"windsurf", "linux", map[string]string{"HOME": "/h"}, j("/h", ".codeium", "windsurf", "mcp_config.json")},
		{"zed", "linux", map[string]string{"HOME": "/h"}, j("/h", ".config", "zed", "settings.json")},
		{"zed", "linux", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, j("/x", "zed", "settings.json")},
		{"zed", "darwin", map[string]string{"HOME": "/Users/u", "XDG_CONFIG_HOME": "/x"}, j("/Users/u", ".config", "zed", "settings.json")},
		{"zed", "windows", map[string]string{"APPDATA": `C:\R`}, j(`C:\R`, "Zed", "settings.json")},
	} {
		res, err := Install(ctx, Options{Client: c.client, Command: "/bin/elemctl", Print: true, GOOS: c.goos,
			Getenv: func(k string) string { return c.env[k] }})
		if err != nil || res.File != c.want {
			t.Errorf("%s on %s %v: %q %v, want %q", c.client, c.goos, c.env, res.File, err, c.want)
		}
	}
	for client, want := range map[string]string{"claude": ".mcp.json", "cursor": j(".cursor", "mcp.json"),
		"vscode": j(".vscode", "mcp.json"), "zed": j(".zed", "settings.json")} {
		res, err := Install(ctx, Options{Client: client, Scope: ScopeProject, Command: "/bin/elemctl", Print: true, Dir: "/p",
			Getenv: func(string) string { return "" }})
		if err != nil || res.File != j("/p", want) {
			t.Errorf("%s project: %q %v", client, res.File, err)
		}
	}
	if _, err := Install(ctx, Options{Client: "cursor", Command: "/bin/elemctl", Print: true, GOOS: "linux",
		Getenv: func(string) string { return "" }}); err == nil || !strings.Contains(err.Error(), "home directory") {
		t.Errorf("without a home: %v", err)
	}
}

func TestInstallWritesWithBackupAndKeepsTheMode(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" || k == "USERPROFILE" {
			return home
		}
		return ""
	}
	now := func() time.Time { return time.Date(2026, 12, 3, 10, 20, 30, 0, time.UTC) }
	opts := Options{Client: "cursor", Command: "/bin/elemctl", EnvFile: "/e/team.env", Getenv: env, Now: now}

	// A new file: created, private to the user, no backup.
	res, err := Install(ctx, opts)
	if err != nil || !res.Created || !res.Written || res.Backup != "" {
		t.Fatalf("first install: %+v %v", res, err)
	}
	path := filepath.Join(home, ".cursor", "mcp.json")
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("a new user file's mode: %v", st.Mode().Perm())
		}
	}
	first, _ := os.ReadFile(path)

	// A change: the old text is kept under the time's name, twice in the
	// same second under two names, and the file keeps its mode.
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o640)
	}
	opts.EnvFile = "/e/other.env"
	res, err = Install(ctx, opts)
	if err != nil || !res.Changed || res.Backup != path+".20261203-102030.bak" {
		t.Fatalf("second install: %+v %v", res, err)
	}
	if kept, _ := os.ReadFile(res.Backup); string(kept) != string(first) {
		t.Errorf("the backup holds %s", kept)
	}
	opts.EnvFile = ""
	res, err = Install(ctx, opts)
	if err != nil || res.Backup != path+".20261203-102030-2.bak" {
		t.Fatalf("third install: %+v %v", res, err)
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
			t.Errorf("the file's mode changed to %v", st.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 3 {
		t.Errorf("the directory holds %d files (a temporary file left?)", len(entries))
	}

	// Unchanged: nothing written, no backup.
	res, err = Install(ctx, opts)
	if err != nil || res.Changed || res.Written || res.Backup != "" {
		t.Errorf("an unchanged install: %+v %v", res, err)
	}
}

func TestInstallEditsALinkedFileWhereItLies(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	home := t.TempDir()
	dotfiles := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(dotfiles, []byte(`{"mcpServers": {}}`), 0o644)
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	link := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.Symlink(dotfiles, link); err != nil {
		t.Fatal(err)
	}
	res, err := Install(ctx, Options{Client: "cursor", Command: "/bin/elemctl", Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}})
	if err != nil || !res.Written {
		t.Fatalf("%+v %v", res, err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if text, _ := os.ReadFile(dotfiles); !strings.Contains(string(text), `"elemctl"`) {
		t.Errorf("the linked file: %s", text)
	}
}

func TestInstallRefusals(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	env := func(string) string { return "/h" }
	for name, o := range map[string]Options{
		"unknown client":   {Client: "emacs"},
		"bad scope":        {Client: "cursor", Scope: "team"},
		"windsurf project": {Client: "windsurf", Scope: ScopeProject},
		"bad name":         {Client: "cursor", Name: `a"b`},
	} {
		o.Command, o.Getenv, o.Print = "/bin/elemctl", env, true
		if _, err := Install(ctx, o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A file it cannot edit: untouched, and the snippet says what to add.
	home := t.TempDir()
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("{ nope"), 0o644)
	res, err := Install(ctx, Options{Client: "cursor", Command: "/bin/elemctl", Getenv: func(k string) string { return home }})
	if err == nil || !strings.Contains(err.Error(), "line 1, column 3") {
		t.Fatalf("a broken file: %v", err)
	}
	if !strings.Contains(res.Snippet, `"mcpServers": {`) || !strings.Contains(res.Snippet, `"command": "/bin/elemctl"`) {
		t.Errorf("snippet %s", res.Snippet)
	}
	if text, _ := os.ReadFile(path); string(text) != "{ nope" {
		t.Errorf("the broken file was changed: %s", text)
	}
}

// TestLaunchers: --launcher writes the entry that starts the elemctl
// package of a registry, with the server's own arguments after it.
func TestLaunchers(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	cases := []struct {
		launcher, goos, want string
	}{
		{"npx", "linux", `"command":"npx","args":["-y","elemctl","--env-file","/team.env","mcp"]`},
		{"npx", "windows", `"command":"cmd","args":["/c","npx","-y","elemctl","--env-file","/team.env","mcp"]`},
		{"uvx", "darwin", `"command":"uvx","args":["elemctl","--env-file","/team.env","mcp"]`},
		{"pipx", "linux", `"command":"pipx","args":["run","elemctl","--env-file","/team.env","mcp"]`},
	}
	for _, c := range cases {
		res, err := Install(ctx, Options{Client: "claude", Scope: ScopeProject, Launcher: c.launcher, EnvFile: "/team.env",
			Print: true, Dir: t.TempDir(), GOOS: c.goos, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := jsonx.Compact(res.Entry)
		if !strings.Contains(string(got), c.want) {
			t.Errorf("%s on %s: %s, want %s", c.launcher, c.goos, got, c.want)
		}
	}
	if _, err := Install(ctx, Options{Client: "claude", Launcher: "bunx", Print: true, GOOS: "linux", Getenv: func(string) string { return "/h" }}); err == nil || !strings.Contains(err.Error(), "npx, uvx, pipx") {
		t.Fatalf("an unknown launcher: %v", err)
	}
}
