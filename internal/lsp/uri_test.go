package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestPathFromURIOnWindows(t *testing.T) {
	cases := []struct{ in, want string }{
		{"file:///c%3A/Users/dev/%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82.yaml", `C:\Users\dev\Проект.yaml`},
		{"file:///C:/Users/dev/x.xbsl", `C:\Users\dev\x.xbsl`},
		{"file:///c:/a/b/../c", `C:\a\c`},
		{"FILE:///d%3a/work", `D:\work`},
		{"file://server/share/dir/f.xbsl", `\\server\share\dir\f.xbsl`},
		{"file://localhost/c%3A/x", `C:\x`},
		{`C:\Users\dev\ws`, `C:\Users\dev\ws`},
		{`c:/Users/dev/ws/`, `C:\Users\dev\ws`},
		{`\\server\share\ws`, `\\server\share\ws`},
		{`ws\sub`, `ws\sub`},
	}
	for _, c := range cases {
		got, err := pathFromURI(c.in, true)
		if err != nil || got != c.want {
			t.Errorf("%s → %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestPathFromURIOnUnix(t *testing.T) {
	cases := []struct{ in, want string }{
		{"file:///home/dev/%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82.yaml", "/home/dev/Проект.yaml"},
		{"file:///home/dev/a%20b/", "/home/dev/a b"},
		{"file://localhost/tmp/x", "/tmp/x"},
		{"/home/dev/ws", "/home/dev/ws"},
		{"./ws", "ws"},
	}
	for _, c := range cases {
		got, err := pathFromURI(c.in, false)
		if err != nil || got != c.want {
			t.Errorf("%s → %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestURIsThatAreNoFilesAreErrorsNotPanics(t *testing.T) {
	for _, windows := range []bool{false, true} {
		for _, in := range []string{
			"untitled:Untitled-1",
			"vscode-remote://ssh-remote%2Bhost/home/x",
			"git:/c%3A/x?%7B%7D",
			"file:///c%3A/x/%zz",
			"",
			"file://otherhost/x",
		} {
			if in == "file://otherhost/x" && windows {
				continue // a UNC share on Windows
			}
			if got, err := pathFromURI(in, windows); err == nil {
				t.Errorf("windows=%v %q → %q, want an error", windows, in, got)
			}
		}
	}
	if _, err := pathFromURI("file:///x/y", true); err == nil {
		t.Errorf("a Windows path needs a drive or a share")
	}
}

func TestURIFromPath(t *testing.T) {
	cases := []struct {
		in      string
		windows bool
		want    string
	}{
		{`C:\Users\dev\Проект.yaml`, true, "file:///c%3A/Users/dev/%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82.yaml"},
		{`c:/a b/x#1.xbsl`, true, "file:///c%3A/a%20b/x%231.xbsl"},
		{`\\server\share\f.xbsl`, true, "file://server/share/f.xbsl"},
		{"/home/dev/a b/Проект.yaml", false, "file:///home/dev/a%20b/%D0%9F%D1%80%D0%BE%D0%B5%D0%BA%D1%82.yaml"},
	}
	for _, c := range cases {
		if got := uriFromPath(c.in, c.windows); got != c.want {
			t.Errorf("%s → %s, want %s", c.in, got, c.want)
		}
		back, err := pathFromURI(c.want, c.windows)
		if err != nil || !samePath(back, cleanPath(c.in, c.windows), c.windows) {
			t.Errorf("round trip of %s: %q %v", c.in, back, err)
		}
	}
}

func TestWithin(t *testing.T) {
	if !within(`C:\WS\Acme\Tasks`, `c:\ws`, true) || within(`C:\wsx\a`, `C:\ws`, true) {
		t.Error("within on Windows")
	}
	if !within("/ws/Acme", "/ws", false) || within("/wsx", "/ws", false) || within("/WS/a", "/ws", false) {
		t.Error("within on Unix")
	}
}

// bound is what an LSP call of c binds: the call's directory and stand,
// and the values its command would run with.
type bound struct {
	cwd, envFile string
	values       command.Values
}

// decodeArguments binds an executeCommand's arguments for c the way a call
// does (command.Invoke with the face of an LSP call) and returns what the
// command would have run with.
func decodeArguments(ctx context.Context, c *command.Command, called string, args []json.RawMessage, base string) (bound, error) {
	raw, err := oneArgument(ctx, args)
	if err != nil {
		return bound{}, err
	}
	run := &command.Call{Command: c}
	var got bound
	_, err = command.Invoke(ctx, c, runner(func(_ context.Context, in command.Values) (any, error) {
		got = bound{cwd: run.Dir, envFile: run.EnvFile, values: in}
		return nil, nil
	}), callFace(c, called, base, run), raw)
	return got, err
}

func TestArgumentsMapCamelCaseOntoKeys(t *testing.T) {
	ctx := context.Background()
	c := &command.Command{Path: []string{"deploy"}, Args: []command.Argument{
		{Name: "app-id", Type: command.String},
		{Name: "project-dir", Type: command.String},
		{Name: "require-clean", Type: command.Bool},
		{Name: "build-version", Type: command.String},
		{Name: "server-start-timeout", Type: command.Float, Default: 900.0},
		{Name: "status", Type: command.String, Multiple: true},
		{Name: "count", Type: command.Int},
		{Name: "kind", Type: command.String, Choices: []string{"application", "library"}},
	}}
	ws := t.TempDir()
	wsJSON, _ := json.Marshal(ws)
	raw := json.RawMessage(`{"cwd":` + string(wsJSON) + `,"envFile":"stand.env","appId":"tasks","projectDir":"Acme/Tasks","requireClean":true,
		"serverStartTimeout":5,"status":["Running","Stopped"],"count":"3","extraArgs":"--build-version 1.0-9 --kind=library"}`)
	got, err := decodeArguments(ctx, c, "elemctl.deploy", []json.RawMessage{raw}, "/base")
	if err != nil {
		t.Fatal(err)
	}
	v := got.values
	if got.cwd != ws || got.envFile != "stand.env" || v.Str("app-id") != "tasks" || v.Str("project-dir") != "Acme/Tasks" ||
		!v.Bool("require-clean") || v.Float("server-start-timeout") != 5 || len(v.Strings("status")) != 2 || v.Int("count") != 3 ||
		v.Str("build-version") != "1.0-9" || v.Str("kind") != "library" {
		t.Errorf("decoded: %+v %v", got, v.Keys())
	}
	// Defaults apply, appId and projectDir are ignored where they mean
	// nothing, cwd defaults to the base.
	other := &command.Command{Path: []string{"apps", "list"}, Args: []command.Argument{{Name: "brief", Type: command.Bool}, {Name: "limit", Type: command.Int, Default: 10}}}
	got, err = decodeArguments(ctx, other, "elemctl.apps.list", []json.RawMessage{json.RawMessage(`{"appId":"x","projectDir":"y"}`)}, ws)
	if err != nil || got.cwd != ws || got.values.Int("limit") != 10 || got.values.Given("limit") {
		t.Errorf("defaults: %+v %v", got, err)
	}
	for _, bad := range []string{
		`{"count":1.5}`, `{"count":"x"}`, `{"requireClean":"maybe"}`, `{"kind":"extension"}`, `{"nope":1}`,
		`{"extraArgs":"--client-secret x"}`, `{"extraArgs":"--nope"}`, `{"extraArgs":"--build-version"}`, `[1]`, `{"cwd":"untitled:x"}`,
	} {
		if _, err := decodeArguments(ctx, c, "elemctl.deploy", []json.RawMessage{json.RawMessage(bad)}, "/base"); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	if _, err := decodeArguments(ctx, c, "elemctl.deploy", []json.RawMessage{json.RawMessage(`{}`), json.RawMessage(`{}`)}, "/base"); err == nil {
		t.Error("two arguments were accepted")
	}
}

func TestSourceFileAndColumns(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "Acme", "Tasks")
	file := filepath.Join(project, "Основное", "М.xbsl")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	// An astral character before the error: one rune, two UTF-16 units.
	if err := os.WriteFile(file, []byte("\ufeffметод А()\n𝔸  #error x  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := platform.CompileError{File: "Основное/М.xbsl", Entry: "Acme/Tasks/Основное/М.xbsl", Line: 2, Column: 4, Message: "x"}
	if got := sourceFile(project, "Acme", "Tasks", e); got != file {
		t.Errorf("source file %s", got)
	}
	// A project directory not named after the project: the entry under
	// the grandparent is not there, the project-relative path is.
	if got := sourceFile(project, "Other", "Name", platform.CompileError{File: "Acme/Tasks/Основное/М.xbsl", Entry: "Acme/Tasks/Основное/М.xbsl"}); got != file {
		t.Errorf("entry under the root: %s", got)
	}
	d := diagnosticOf("elemctl probe", e, readLines(file))
	if d.Range.Start.Line != 1 || d.Range.Start.Character != 4 || d.Range.End.Character != 12 {
		t.Errorf("range %+v", d.Range)
	}
	// Without the file the position is the platform's.
	d = diagnosticOf("elemctl probe", e, nil)
	if d.Range.Start.Character != 3 || d.Range.End.Character != 3 {
		t.Errorf("range without the file %+v", d.Range)
	}
}
