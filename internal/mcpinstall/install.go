// Package mcpinstall writes elemctl's MCP server into the configuration
// of the common agent clients (Claude Code, Cursor, VS Code, Windsurf,
// Zed): the right file for the client, scope and system, the client's own
// entry format, every other byte of the file kept (comments included), a
// backup before any change, and nothing written when nothing changes.
package mcpinstall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/options"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/spelling"
	"github.com/elemctl/elemctl/internal/userdir"
)

// Clients, in the order help names them.
var Clients = []string{"claude", "cursor", "vscode", "windsurf", "zed"}

// Scopes: the user's own configuration, or the project's (the current
// directory), which a team may commit.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// DefaultName is the entry's name in the client's server list.
const DefaultName = "elemctl"

// client is one agent client's configuration format.
type client struct {
	// container is the key of the top-level object that maps server names
	// to entries.
	container string
	// withType adds "type": "stdio" to the entry (the clients whose files
	// also hold remote servers).
	withType bool
	// userPath is the user-scope file; projectPath the project-scope file
	// relative to the project directory ("" = the client has none).
	userPath    func(ctx context.Context, e env) (string, error)
	projectPath string
}

var clients = map[string]client{
	// Claude Code: `claude mcp add --scope user` writes ~/.claude.json
	// (under $CLAUDE_CONFIG_DIR when set), --scope project writes .mcp.json.
	"claude": {container: "mcpServers", withType: true, projectPath: ".mcp.json",
		userPath: func(ctx context.Context, e env) (string, error) {
			if d := e.getenv("CLAUDE_CONFIG_DIR"); d != "" {
				return filepath.Join(d, ".claude.json"), nil
			}
			home, err := e.home(ctx)
			return filepath.Join(home, ".claude.json"), err
		}},
	"cursor": {container: "mcpServers", projectPath: filepath.Join(".cursor", "mcp.json"),
		userPath: func(ctx context.Context, e env) (string, error) {
			home, err := e.home(ctx)
			return filepath.Join(home, ".cursor", "mcp.json"), err
		}},
	// VS Code keeps MCP servers in mcp.json beside settings.json, under
	// "servers".
	"vscode": {container: "servers", withType: true, projectPath: filepath.Join(".vscode", "mcp.json"),
		userPath: func(ctx context.Context, e env) (string, error) {
			dir, err := e.configDir(ctx, "Code")
			return filepath.Join(dir, "User", "mcp.json"), err
		}},
	// Windsurf reads one file of the user's; it has no project file.
	"windsurf": {container: "mcpServers",
		userPath: func(ctx context.Context, e env) (string, error) {
			home, err := e.home(ctx)
			return filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), err
		}},
	// Zed's servers are "context_servers" in its settings.json, which is
	// JSON with comments. Zed keeps its configuration in ~/.config/zed on
	// macOS as on Linux.
	"zed": {container: "context_servers", projectPath: filepath.Join(".zed", "settings.json"),
		userPath: func(ctx context.Context, e env) (string, error) {
			switch e.goos {
			case "windows":
				dir, err := e.configDir(ctx, "Zed")
				return filepath.Join(dir, "settings.json"), err
			case "darwin":
				home, err := e.home(ctx)
				return filepath.Join(home, ".config", "zed", "settings.json"), err
			}
			dir, err := e.configDir(ctx, "zed")
			return filepath.Join(dir, "settings.json"), err
		}},
}

// env is the environment paths are found in.
type env struct {
	getenv func(string) string
	goos   string
}

func (e env) home(ctx context.Context) (string, error) {
	h, err := userdir.Home(e.getenv, e.goos)
	if err != nil {
		return "", platform.ConfigErrorf(ctx, "mcpinstall.no-home")
	}
	return h, nil
}

// configDir is an application's directory in the system's per-user
// configuration place: %APPDATA% on Windows, ~/Library/Application Support
// on macOS, $XDG_CONFIG_HOME (~/.config) elsewhere.
func (e env) configDir(ctx context.Context, app string) (string, error) {
	switch e.goos {
	case "windows":
		if d := e.getenv("APPDATA"); d != "" {
			return filepath.Join(d, app), nil
		}
		home, err := e.home(ctx)
		return filepath.Join(home, "AppData", "Roaming", app), err
	case "darwin":
		home, err := e.home(ctx)
		return filepath.Join(home, "Library", "Application Support", app), err
	}
	if d := e.getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, app), nil
	}
	home, err := e.home(ctx)
	return filepath.Join(home, ".config", app), err
}

// Launchers are the package runners an entry may start elemctl with.
var Launchers = []string{"npx", "uvx", "pipx"}

// launch is the command and arguments of the entry: elemctl itself, or a
// package runner that starts the elemctl package of its registry (npx -y
// elemctl, uvx elemctl, pipx run elemctl). On Windows npx is a batch file
// (npx.cmd) that clients cannot start without a shell, so cmd /c runs it.
func launch(launcher, command string, args []any, goos string) (string, []any) {
	var prefix []any
	switch launcher {
	case "":
		return command, args
	case "npx":
		command, prefix = "npx", []any{"-y", "elemctl"}
		if goos == "windows" {
			command, prefix = "cmd", []any{"/c", "npx", "-y", "elemctl"}
		}
	case "uvx":
		command, prefix = "uvx", []any{"elemctl"}
	case "pipx":
		command, prefix = "pipx", []any{"run", "elemctl"}
	}
	return command, append(prefix, args...)
}

// Options say what to install where.
type Options struct {
	Client string
	// Scope is ScopeUser ("" too) or ScopeProject.
	Scope string
	// Name is the entry's name ("" = DefaultName).
	Name string
	// Command is the absolute path of the elemctl the client is to run.
	Command string
	// Launcher, when set, makes the client start elemctl through a package
	// runner instead of Command: npx (the npm package), uvx or pipx (the
	// Python package), which fetch and update it themselves.
	Launcher string
	// EnvFile is the absolute .env the server is to start with ("" = the
	// client's working directory's .env, as elemctl mcp reads it).
	EnvFile string
	// Print computes everything and writes nothing.
	Print bool
	// Dir is the project directory (the project scope's base).
	Dir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// GOOS is the system whose paths apply; "" means this one.
	GOOS string
	// Now stamps the backup's name; nil means time.Now.
	Now func() time.Time
}

// Result is what Install did or would do.
type Result struct {
	Client, Scope, File, Name string
	// Entry is the server entry as the client reads it.
	Entry *jsonx.Object
	// Snippet is the text to add by hand: {container: {name: entry}}.
	Snippet string
	// Created: the file did not exist. Changed: the file differs (or would
	// differ) from what it was. Written: the file was written.
	Created, Changed, Written bool
	// Backup is the copy of the file as it was before the change ("" when
	// nothing was written or the file is new).
	Backup string
}

// Object is the result as the command's JSON answer. The snippet is there
// only when asked (--print) or when the file could not be edited.
func (r Result) Object(withSnippet bool) *jsonx.Object {
	o := jsonx.New("client", r.Client, "scope", r.Scope, "file", r.File, "name", r.Name, "entry", r.Entry,
		"created", r.Created, "changed", r.Changed, "written", r.Written)
	if r.Backup != "" {
		o.Set("backup", r.Backup)
	} else {
		o.Set("backup", nil)
	}
	if withSnippet {
		o.Set("snippet", r.Snippet)
	}
	return o
}

// Install writes (or with Print, only computes) the entry. On a file it
// cannot edit safely it returns the Result with the snippet to add by hand
// and an error saying why; the file is left untouched.
func Install(ctx context.Context, o Options) (Result, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	if o.Scope == "" {
		o.Scope = ScopeUser
	}
	c, ok := clients[o.Client]
	if !ok {
		return Result{}, platform.ConfigErrorf(ctx, "mcpinstall.unknown-client", "client", o.Client,
			"suggestion", spelling.DidYouMean(ctx, o.Client, Clients), "clients", strings.Join(Clients, ", "))
	}
	if o.Scope != ScopeUser && o.Scope != ScopeProject {
		return Result{}, platform.ConfigErrorf(ctx, "mcpinstall.bad-scope", "scope", o.Scope)
	}
	if o.Launcher != "" && !slices.Contains(Launchers, o.Launcher) {
		return Result{}, platform.ConfigErrorf(ctx, "mcpinstall.bad-launcher", "launcher", o.Launcher, "launchers", strings.Join(Launchers, ", "))
	}
	if strings.TrimSpace(o.Name) == "" || strings.ContainsAny(o.Name, "\"\\\n\r\t") {
		return Result{}, platform.ConfigErrorf(ctx, "mcpinstall.bad-name", "name", o.Name)
	}
	path, err := c.path(ctx, o)
	if err != nil {
		return Result{}, err
	}
	args := []any{"mcp"}
	if o.EnvFile != "" {
		args = []any{options.EnvFile.Flag(), o.EnvFile, "mcp"}
	}
	command, args := launch(o.Launcher, o.Command, args, o.GOOS)
	entry := jsonx.New()
	if c.withType {
		entry.Set("type", "stdio")
	}
	entry.Set("command", command).Set("args", args)

	r := Result{Client: o.Client, Scope: o.Scope, File: path, Name: o.Name, Entry: entry}
	r.Snippet = render(jsonx.New(c.container, jsonx.New(o.Name, entry)), "", style{unit: "  ", nl: "\n"}) + "\n"

	// A symlinked file (dotfiles kept elsewhere) is edited where it lies.
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	src, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Created, src = true, nil
	case err != nil:
		return r, fileError(ctx, "mcpinstall.read-failed", path, err)
	}
	out, changed, err := setEntry(src, c.container, o.Name, entry)
	if err != nil {
		return r, refusal(ctx, path, err)
	}
	r.Changed = changed
	if !changed || o.Print {
		return r, nil
	}
	mode := fs.FileMode(0o600)
	if o.Scope == ScopeProject {
		// A project's file is meant to be shared and committed.
		mode = 0o644
	}
	if !r.Created {
		st, err := os.Stat(target)
		if err != nil {
			return r, fileError(ctx, "mcpinstall.read-failed", path, err)
		}
		mode = st.Mode().Perm()
		if r.Backup, err = backup(target, src, mode, o.Now()); err != nil {
			return r, fileError(ctx, "mcpinstall.backup-failed", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return r, fileError(ctx, "mcpinstall.write-failed", path, err)
	}
	if err := atomicfile.Write(target, out, mode); err != nil {
		return r, fileError(ctx, "mcpinstall.write-failed", path, err)
	}
	r.Written = true
	return r, nil
}

func (c client) path(ctx context.Context, o Options) (string, error) {
	e := env{getenv: o.Getenv, goos: o.GOOS}
	if o.Scope == ScopeProject {
		if c.projectPath == "" {
			user, _ := c.userPath(ctx, e)
			return "", platform.ConfigErrorf(ctx, "mcpinstall.no-project-scope", "client", o.Client, "file", user)
		}
		dir := o.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		return filepath.Join(dir, c.projectPath), nil
	}
	return c.userPath(ctx, e)
}

// setEntry puts entry under container.name in a document, returning the new
// text and whether it differs. Only the keys of entry are set in an
// existing entry; its other keys stay.
func setEntry(src []byte, container, name string, entry *jsonx.Object) ([]byte, bool, error) {
	root, err := parseJSONC(src)
	if err != nil {
		return nil, false, err
	}
	st := styleOf(src, root)
	if root == nil {
		// An empty file, or one of comments only: they stay above.
		text := render(jsonx.New(container, jsonx.New(name, entry)), "", st) + st.nl
		out := append([]byte(nil), src...)
		if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, st.nl...)
		}
		return append(out, text...), true, nil
	}
	if root.kind != '{' {
		return nil, false, errNotObject("(document)")
	}
	cont, dup := root.find(container)
	if dup {
		return nil, false, errDuplicate(container)
	}
	if cont == nil {
		return applyEdits(src, insertMembers(src, root, []keyValue{{container, jsonx.New(name, entry)}}, st)), true, nil
	}
	if cont.value.kind != '{' {
		return nil, false, errNotObject(container)
	}
	have, dup := cont.value.find(name)
	if dup {
		return nil, false, errDuplicate(container + "." + name)
	}
	if have == nil {
		return applyEdits(src, insertMembers(src, cont.value, []keyValue{{name, entry}}, st)), true, nil
	}
	if have.value.kind != '{' {
		return nil, false, errNotObject(container + "." + name)
	}
	var edits []edit
	var missing []keyValue
	for _, key := range entry.Keys() {
		want := entry.Value(key)
		m, dup := have.value.find(key)
		switch {
		case dup:
			return nil, false, errDuplicate(container + "." + name + "." + key)
		case m == nil:
			missing = append(missing, keyValue{key, want})
		case equalJSON(m.value.decode(src), want):
		case m.value.hasComment(src):
			return nil, false, errComment(container + "." + name + "." + key)
		default:
			indent, _ := lineIndent(src, m.keyStart)
			edits = append(edits, edit{m.value.start, m.value.end, render(want, indent, st)})
		}
	}
	if len(missing) > 0 {
		edits = append(edits, insertMembers(src, have.value, missing, st)...)
	}
	if len(edits) == 0 {
		return src, false, nil
	}
	return applyEdits(src, edits), true, nil
}

// Reasons a file cannot be edited safely.
type unsafeEdit struct {
	key  string
	args []any
}

// Error is the reason's key: refusal renders it in the call's language.
func (e *unsafeEdit) Error() string { return e.key }

func errNotObject(key string) error { return &unsafeEdit{"mcpinstall.not-object", []any{"key", key}} }
func errDuplicate(key string) error {
	return &unsafeEdit{"mcpinstall.duplicate-key", []any{"key", key}}
}
func errComment(key string) error { return &unsafeEdit{"mcpinstall.comment-inside", []any{"key", key}} }

// refusal says why a file is left alone.
func refusal(ctx context.Context, path string, err error) error {
	why := err.Error()
	var se *syntaxError
	var ue *unsafeEdit
	if errors.As(err, &ue) {
		why = i18n.T(ctx, ue.key, ue.args...)
	}
	if errors.As(err, &se) {
		why = i18n.T(ctx, "mcpinstall.syntax", "line", se.line, "column", se.column, "error", se.what)
	}
	return &platform.Error{Kind: platform.KindConfig, Err: err, Message: i18n.T(ctx, "mcpinstall.refused", "file", path, "reason", why)}
}

func fileError(ctx context.Context, key, path string, err error) error {
	return &platform.Error{Kind: platform.KindGeneral, Err: err, Message: i18n.T(ctx, key, "file", path, "error", describe(err))}
}

// describe is an OS error without the path the message names already.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// backup keeps the file as it was, beside it, under a name with the time:
// FILE.YYYYMMDD-HHMMSS.bak (a counter follows when that name is taken).
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + "." + now.Format("20060102-150405")
	for i := 1; ; i++ {
		name := base + ".bak"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.bak", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cErr := f.Close(); err == nil {
			err = cErr
		}
		if err != nil {
			os.Remove(name)
			return "", err
		}
		return name, nil
	}
}
