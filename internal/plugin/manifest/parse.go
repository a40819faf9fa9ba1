package manifest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/argvalue"
	"github.com/elemctl/elemctl/internal/options"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// Error is a plugin that cannot load: the message names the plugin and,
// where one is at fault, the command.
type Error struct {
	Source  string
	Command string
	Message string
	// Lang is the language of Message, which the plugin and command
	// before it take too.
	Lang i18n.Lang
}

func (e *Error) Error() string {
	if e.Command != "" {
		return i18n.TL(e.Lang, "plugins.ctx-command", "source", e.Source, "command", e.Command) + ": " + e.Message
	}
	return i18n.TL(e.Lang, "plugins.ctx-plugin", "source", e.Source) + ": " + e.Message
}

func pluginErr(ctx context.Context, source, key string, args ...any) *Error {
	return &Error{Source: source, Message: i18n.T(ctx, key, args...), Lang: i18n.LangOf(ctx)}
}

func commandErr(ctx context.Context, source, command, key string, args ...any) *Error {
	return &Error{Source: source, Command: command, Message: i18n.T(ctx, key, args...), Lang: i18n.LangOf(ctx)}
}

// Plugin is a validated plugin.
type Plugin struct {
	Name     string
	Dir      string
	Version  string
	Requires []string
	// Executable is the resolved program path ("" for a plugin without
	// commands); Interpreter the alternatives that run it, if any; Args
	// follow it.
	Executable     string
	Interpreter    []string
	Args           []string
	Timeout        time.Duration
	StartupTimeout time.Duration
	// Adapter is the declared debug-adapter location, or nil.
	Adapter  *AdapterDecl
	Commands []*Command
}

// AdapterDecl is a plugin's debug_adapter: exactly one field is set.
type AdapterDecl struct {
	Path    string   // a directory (absolute)
	Command []string // a program (first element resolved) printing one
	Index   string   // an index directory or its index.json (absolute)
}

// Command is a validated command.
type Command struct {
	Plugin  *Plugin
	Name    string
	Help    string
	MCP     bool
	MCPName string
	Timeout time.Duration
	Args    []*Arg
}

// ToolName is the MCP tool name the command asks for: mcp_name, or the
// name with "-" turned into "_"; "" for a command kept off MCP.
func (c *Command) ToolName() string {
	if !c.MCP {
		return ""
	}
	if c.MCPName != "" {
		return c.MCPName
	}
	return strings.ReplaceAll(c.Name, "-", "_")
}

// Arg is a validated argument.
type Arg struct {
	// Name is as declared: "--page-size" or "page".
	Name string
	// Dest is the value's name: the name without leading dashes, inner "-"
	// turned into "_" ("page_size").
	Dest   string
	Option bool
	Help   string
	// Type is "str", "int", "float" or "bool".
	Type string
	// Default is typed: string, int64, float64, bool or nil; for a multiple
	// argument a []any of typed values, or nil.
	Default  any
	Required bool
	Choices  []any
	Alias    string
	Multiple bool
}

// Flag is the option's name without dashes ("page-size"), "" for a
// positional.
func (a *Arg) Flag() string {
	if !a.Option {
		return ""
	}
	return strings.TrimLeft(a.Name, "-")
}

// Types supported for arguments, in the order messages list them.
var Types = []string{"str", "int", "float", "bool"}

// isGlobalOption tells elemctl's own options, which a plugin argument may
// not take.
func isGlobalOption(flag string) bool {
	_, ok := options.Named(flag)
	return ok
}

// parserDests are value names the reference's command-line parser keeps
// for its own entries.
var parserDests = []string{"command", "handler", "plugin_command", "plugin_commands", "plugin_failures"}

// reservedDest tells a value name the CLI keeps for itself: the dest of a
// global option or of the parser's own entries.
func reservedDest(dest string) bool {
	for _, o := range options.Global {
		if o.Dest() == dest {
			return true
		}
	}
	return contains(parserDests, dest)
}

// HelpOptions are the help keys.
var HelpOptions = []string{"-h", "--help"}

var (
	// Names are checked by hand rather than with regexps: compiling them
	// at package init cost every elemctl start, plugins or not.
	reName    = nameRule{first: alnum, rest: "._-"}
	reCommand = nameRule{first: alnum, rest: "_-"}
	reArg     = nameRule{first: alnum, rest: "_-"}
	reTool    = nameRule{rest: "_-", max: 64}
)

// Parse validates the manifest of the plugin in dir. Its shape is checked
// against plugin/protocol.Manifest – fields the types do not declare, values
// of the wrong kind – and it is decoded into one; then every rule is
// checked before anything is accepted: one broken command leaves the whole
// plugin out.
func Parse(ctx context.Context, dir string, data []byte, opts Options) (*Plugin, error) {
	opts.norm()
	source := filepath.Base(dir)
	file := filepath.Join(dir, protocol.ManifestFile)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	doc, err := jsonx.Decode(data)
	if err != nil {
		return nil, pluginErr(ctx, source, "plugins.manifest-invalid", "file", file, "error", err)
	}
	top, ok := doc.(*jsonx.Object)
	if !ok {
		return nil, pluginErr(ctx, source, "plugins.manifest-not-object", "file", file)
	}
	// The name first: it names the plugin in every other refusal.
	switch name := top.Value("name").(type) {
	case nil:
	case string:
		if name != "" {
			if !reName.MatchString(name) {
				return nil, pluginErr(ctx, source, "plugins.name-invalid", "name", name)
			}
			source = name
		}
	default:
		return nil, pluginErr(ctx, source, "plugins.field-type", "field", "name", "want", "string")
	}
	if err := checkShape(ctx, source, top); err != nil {
		return nil, err
	}
	var m protocol.Manifest
	assign(reflect.ValueOf(&m).Elem(), top)
	m.Name = source
	return build(ctx, dir, &m, opts)
}

// build turns a manifest of the right shape into a plugin, checking its
// rules.
func build(ctx context.Context, dir string, m *protocol.Manifest, opts Options) (*Plugin, error) {
	source := m.Name
	p := &Plugin{Name: source, Dir: dir, Version: m.Version, Requires: m.Requires, Args: m.Args,
		Timeout: DefaultTimeout, StartupTimeout: DefaultStartupTimeout}
	if missing := MissingFeatures(p.Requires); len(missing) > 0 {
		return nil, pluginErr(ctx, source, "plugins.feature-missing", "features", strings.Join(missing, ", "), "version", opts.Version)
	}
	if m.Timeout > 0 {
		p.Timeout = seconds(m.Timeout)
	}
	if m.StartupTimeout > 0 {
		p.StartupTimeout = seconds(m.StartupTimeout)
	}
	if raw := given(m.Interpreter); raw != nil {
		interp, err := parseInterpreter(raw)
		if err != nil {
			return nil, pluginErr(ctx, source, "plugins.interpreter-invalid")
		}
		p.Interpreter = interp
	}
	if raw := given(m.DebugAdapter); raw != nil {
		decl, err := parseAdapter(dir, raw)
		if err != nil {
			return nil, pluginErr(ctx, source, "plugins.adapter-invalid")
		}
		p.Adapter = decl
	}
	names := map[string]bool{}
	for i := range m.Commands {
		cmd, err := buildCommand(ctx, p, i, &m.Commands[i])
		if err != nil {
			return nil, err
		}
		if names[cmd.Name] {
			return nil, commandErr(ctx, source, cmd.Name, "plugins.command-duplicate")
		}
		names[cmd.Name] = true
		p.Commands = append(p.Commands, cmd)
	}
	if len(p.Commands) > 0 || m.Executable != "" {
		if m.Executable == "" {
			return nil, pluginErr(ctx, source, "plugins.no-executable")
		}
		resolved, found := ResolveExecutable(dir, m.Executable, opts.GOOS, len(p.Interpreter) > 0)
		if !found {
			return nil, pluginErr(ctx, source, "plugins.executable-missing", "path", resolved)
		}
		p.Executable = resolved
	}
	return p, nil
}

func seconds(n float64) time.Duration { return time.Duration(n * float64(time.Second)) }

// given is a raw field's value; nil when it is absent or null.
func given(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		return nil
	}
	return v
}

// ResolveExecutable finds the program of a plugin: name relative to dir
// (or absolute). On Windows a name without extension is also tried with
// .exe, .cmd and .bat, unless an interpreter runs it as a script.
func ResolveExecutable(dir, name, goos string, script bool) (string, bool) {
	path := filepath.FromSlash(name)
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	candidates := []string{path}
	if goos == "windows" && !script && filepath.Ext(path) == "" {
		for _, ext := range []string{".exe", ".cmd", ".bat"} {
			candidates = append(candidates, path+ext)
		}
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, true
		}
	}
	return path, false
}

func parseInterpreter(raw any) ([]string, error) {
	if one, ok := raw.(string); ok {
		if strings.TrimSpace(one) == "" {
			return nil, fmt.Errorf("empty")
		}
		return []string{one}, nil
	}
	many, ok := StringList(raw)
	if !ok || len(many) == 0 {
		return nil, fmt.Errorf("not a list of names")
	}
	for _, m := range many {
		if strings.TrimSpace(m) == "" {
			return nil, fmt.Errorf("empty")
		}
	}
	return many, nil
}

func absFrom(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

func parseAdapter(dir string, raw any) (*AdapterDecl, error) {
	if path, ok := raw.(string); ok {
		if path == "" {
			return nil, fmt.Errorf("empty")
		}
		return &AdapterDecl{Path: absFrom(dir, path)}, nil
	}
	o, ok := raw.(*jsonx.Object)
	if !ok || o.Len() != 1 {
		return nil, fmt.Errorf("not one of the forms")
	}
	if s, ok := o.Value("path").(string); ok && s != "" {
		return &AdapterDecl{Path: absFrom(dir, s)}, nil
	}
	if s, ok := o.Value("index").(string); ok && s != "" {
		return &AdapterDecl{Index: absFrom(dir, s)}, nil
	}
	if argv, ok := StringList(o.Value("command")); ok && len(argv) > 0 && argv[0] != "" {
		// A program named with a path is the plugin's own; a bare name is
		// looked up on PATH when it runs.
		if strings.ContainsAny(argv[0], `/\`) {
			argv[0] = absFrom(dir, argv[0])
		}
		return &AdapterDecl{Command: argv}, nil
	}
	return nil, fmt.Errorf("not one of the forms")
}

// StringList reads a JSON array of strings (as decoded into []any).
func StringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func buildCommand(ctx context.Context, p *Plugin, index int, spec *protocol.CommandSpec) (*Command, error) {
	source, name := p.Name, spec.Name
	if !reCommand.MatchString(name) {
		return nil, pluginErr(ctx, source, "plugins.command-name-invalid", "name", name)
	}
	c := &Command{Plugin: p, Name: name, Help: spec.Help, MCP: spec.MCP == nil || *spec.MCP, MCPName: spec.MCPName, Timeout: p.Timeout}
	if c.MCPName != "" && !reTool.MatchString(c.MCPName) {
		return nil, commandErr(ctx, source, name, "plugins.mcp-name-invalid", "name", c.MCPName)
	}
	if spec.Timeout > 0 {
		c.Timeout = seconds(spec.Timeout)
	}
	for i := range spec.Arguments {
		a, err := buildArg(ctx, source, name, &spec.Arguments[i])
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
	}
	if err := checkArgs(ctx, source, name, c.Args); err != nil {
		return nil, err
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func buildArg(ctx context.Context, source, command string, spec *protocol.ArgumentSpec) (*Arg, error) {
	name := spec.Name
	fail := func(key string, args ...any) error {
		return commandErr(ctx, source, command, key, append([]any{"argument", name}, args...)...)
	}
	a := &Arg{Name: name, Type: "str", Help: spec.Help, Alias: spec.CLIAlias, Multiple: spec.Multiple}
	bare := strings.TrimLeft(name, "-")
	a.Option = bare != name
	if contains(HelpOptions, name) {
		return nil, fail("plugins.option-taken", "option", name)
	}
	if a.Option && !strings.HasPrefix(name, "--") {
		return nil, fail("plugins.option-form", "name", bare)
	}
	if isGlobalOption(name) {
		return nil, fail("plugins.global-option-taken", "option", name)
	}
	if !reArg.MatchString(bare) {
		return nil, fail("plugins.argument-name-invalid")
	}
	a.Dest = strings.ReplaceAll(bare, "-", "_")
	if reservedDest(a.Dest) {
		return nil, fail("plugins.value-name-taken", "dest", a.Dest)
	}
	if spec.Type != "" {
		if !contains(Types, spec.Type) {
			return nil, fail("plugins.argument-type", "type", spec.Type, "types", strings.Join(Types, ", "))
		}
		a.Type = spec.Type
	}
	// An option is optional unless required; a positional is required
	// unless required is false.
	a.Required = !a.Option
	if spec.Required != nil {
		a.Required = *spec.Required
	}
	if a.Type == "bool" {
		if !a.Option {
			return nil, fail("plugins.flag-positional", "name", bare)
		}
		if a.Multiple {
			return nil, fail("plugins.multiple-flag")
		}
	}
	if a.Alias != "" {
		if key, args := aliasRefusal(a); key != "" {
			return nil, fail(key, args...)
		}
	}
	if v := spec.Default; v != nil {
		var key string
		if a.Default, key = typedDefault(a, v); key != "" {
			return nil, fail(key, "value", compact(v), "type", a.Type)
		}
	}
	for _, v := range spec.Choices {
		tv, ok := argvalue.Convert(a.Type, v)
		if !ok || v == nil {
			return nil, fail("plugins.choices-type", "value", compact(v), "type", a.Type)
		}
		a.Choices = append(a.Choices, tv)
	}
	return a, nil
}

// aliasRefusal is why the cli_alias of a positional is refused ("" when
// it is not): the message key and its values.
func aliasRefusal(a *Arg) (string, []any) {
	switch {
	case a.Option:
		return "plugins.alias-needs-positional", nil
	case !strings.HasPrefix(a.Alias, "-"):
		return "plugins.alias-not-an-option", []any{"alias", a.Alias}
	case contains(HelpOptions, a.Alias):
		return "plugins.option-taken", []any{"option", a.Alias}
	case isGlobalOption(a.Alias):
		return "plugins.global-option-taken", []any{"option", a.Alias}
	case !strings.HasPrefix(a.Alias, "--"):
		return "plugins.option-form", []any{"name", strings.TrimLeft(a.Alias, "-")}
	case !reArg.MatchString(strings.TrimLeft(a.Alias, "-")):
		return "plugins.argument-name-invalid", nil
	}
	return "", nil
}

// typedDefault is a declared default in the argument's type – a list of
// them for a multiple argument – or the key of why it does not fit.
func typedDefault(a *Arg, v any) (any, string) {
	if !a.Multiple {
		tv, ok := argvalue.Convert(a.Type, v)
		if !ok {
			return nil, "plugins.default-type"
		}
		return tv, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, "plugins.multiple-default"
	}
	typed := make([]any, 0, len(list))
	for _, e := range list {
		tv, ok := argvalue.Convert(a.Type, e)
		if !ok {
			return nil, "plugins.default-type"
		}
		typed = append(typed, tv)
	}
	return typed, ""
}

func compact(v any) string {
	out, err := jsonx.Compact(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}

// checkArgs applies the rules between a command's arguments.
func checkArgs(ctx context.Context, source, command string, args []*Arg) error {
	dests := map[string]string{}
	keys := map[string]string{} // option or alias → argument
	for _, a := range args {
		if other, ok := dests[a.Dest]; ok {
			return commandErr(ctx, source, command, "plugins.argument-duplicate", "argument", a.Name, "other", other, "dest", a.Dest)
		}
		dests[a.Dest] = a.Name
		if a.Option {
			if other, ok := keys[a.Name]; ok {
				return commandErr(ctx, source, command, "plugins.alias-duplicate", "argument", a.Name, "option", a.Name, "other", other)
			}
			keys[a.Name] = a.Name
		}
	}
	for _, a := range args {
		if a.Alias == "" {
			continue
		}
		if other, ok := keys[a.Alias]; ok {
			return commandErr(ctx, source, command, "plugins.alias-duplicate", "argument", a.Name, "option", a.Alias, "other", other)
		}
		keys[a.Alias] = a.Name
	}
	return nil
}

// nameRule is a name of ASCII letters and digits plus the rest
// characters; first, when set, limits the first character; max > 0 caps
// the length.
type nameRule struct {
	first func(byte) bool
	rest  string
	max   int
}

func alnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// MatchString tells whether s follows the rule.
func (r nameRule) MatchString(s string) bool {
	if s == "" || r.max > 0 && len(s) > r.max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 0 && r.first != nil {
			if !r.first(c) {
				return false
			}
			continue
		}
		if !alnum(c) && strings.IndexByte(r.rest, c) < 0 {
			return false
		}
	}
	return true
}
