package manifest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
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

// fields is a JSON object read field by field, so each mistake gets its
// own message and unknown fields are caught. The manifest is decoded once
// (internal/jsonx, no reflection): discovery runs on every start.
type fields struct{ o *jsonx.Object }

func objectOf(v any) (fields, bool) {
	o, ok := v.(*jsonx.Object)
	return fields{o}, ok
}

func (f fields) get(key string) any { return f.o.Value(key) }

func (f fields) unknown(known ...string) string {
	for _, k := range f.o.Keys() {
		found := false
		for _, kk := range known {
			if k == kk {
				found = true
				break
			}
		}
		if !found {
			return k
		}
	}
	return ""
}

func (f fields) present(key string) bool { return f.get(key) != nil }

func (f fields) str(key string) (string, bool) {
	v := f.get(key)
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

func (f fields) boolp(key string) (*bool, bool) {
	v := f.get(key)
	if v == nil {
		return nil, true
	}
	b, ok := v.(bool)
	if !ok {
		return nil, false
	}
	return &b, true
}

func (f fields) number(key string) (float64, bool) {
	v := f.get(key)
	if v == nil {
		return 0, true
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	x, err := n.Float64()
	return x, err == nil
}

func (f fields) strings(key string) ([]string, bool) {
	v := f.get(key)
	if v == nil {
		return nil, true
	}
	return StringList(v)
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

func (f fields) list(key string) ([]any, bool) {
	v := f.get(key)
	if v == nil {
		return nil, true
	}
	l, ok := v.([]any)
	return l, ok
}

// Parse validates the manifest of the plugin in dir. Every rule is checked
// before anything is accepted: one broken command leaves the whole plugin
// out.
func Parse(ctx context.Context, dir string, data []byte, opts Options) (*Plugin, error) {
	opts.norm()
	source := filepath.Base(dir)
	file := filepath.Join(dir, protocol.ManifestFile)
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	doc, err := jsonx.Decode(data)
	if err != nil {
		return nil, pluginErr(ctx, source, "plugins.manifest-invalid", "file", file, "error", err)
	}
	top, ok := objectOf(doc)
	if !ok {
		return nil, pluginErr(ctx, source, "plugins.manifest-not-object", "file", file)
	}
	p := &Plugin{Dir: dir, Timeout: DefaultTimeout, StartupTimeout: DefaultStartupTimeout}
	name, ok := top.str("name")
	if !ok {
		return nil, pluginErr(ctx, source, "plugins.field-type", "field", "name", "want", "string")
	}
	if name != "" {
		if !reName.MatchString(name) {
			return nil, pluginErr(ctx, source, "plugins.name-invalid", "name", name)
		}
		source = name
	}
	p.Name = source
	if k := top.unknown("$schema", "name", "version", "description", "requires", "executable", "interpreter",
		"args", "timeout", "startup_timeout", "debug_adapter", "commands"); k != "" {
		return nil, pluginErr(ctx, source, "plugins.field-unknown", "field", k)
	}
	for _, k := range []string{"$schema", "version", "description", "executable"} {
		if _, ok := top.str(k); !ok {
			return nil, pluginErr(ctx, source, "plugins.field-type", "field", k, "want", "string")
		}
	}
	p.Version, _ = top.str("version")
	var okReq bool
	if p.Requires, okReq = top.strings("requires"); !okReq {
		return nil, pluginErr(ctx, source, "plugins.field-type", "field", "requires", "want", "[string]")
	}
	if missing := MissingFeatures(p.Requires); len(missing) > 0 {
		return nil, pluginErr(ctx, source, "plugins.feature-missing", "features", strings.Join(missing, ", "), "version", opts.Version)
	}
	var okArgs bool
	if p.Args, okArgs = top.strings("args"); !okArgs {
		return nil, pluginErr(ctx, source, "plugins.field-type", "field", "args", "want", "[string]")
	}
	for _, k := range []string{"timeout", "startup_timeout"} {
		n, ok := top.number(k)
		if !ok || n < 0 || math.IsInf(n, 0) || (top.present(k) && n == 0) {
			return nil, pluginErr(ctx, source, "plugins.timeout-invalid", "field", k)
		}
		if n > 0 {
			d := time.Duration(n * float64(time.Second))
			if k == "timeout" {
				p.Timeout = d
			} else {
				p.StartupTimeout = d
			}
		}
	}
	if top.present("interpreter") {
		interp, err := parseInterpreter(top.get("interpreter"))
		if err != nil {
			return nil, pluginErr(ctx, source, "plugins.interpreter-invalid")
		}
		p.Interpreter = interp
	}
	if top.present("debug_adapter") {
		decl, err := parseAdapter(dir, top.get("debug_adapter"))
		if err != nil {
			return nil, pluginErr(ctx, source, "plugins.adapter-invalid")
		}
		p.Adapter = decl
	}
	items, ok := top.list("commands")
	if !ok {
		return nil, pluginErr(ctx, source, "plugins.not-commands", "index", 0)
	}
	names := map[string]bool{}
	for i, raw := range items {
		cmd, err := parseCommand(ctx, p, i, raw)
		if err != nil {
			return nil, err
		}
		if names[cmd.Name] {
			return nil, commandErr(ctx, source, cmd.Name, "plugins.command-duplicate")
		}
		names[cmd.Name] = true
		p.Commands = append(p.Commands, cmd)
	}
	exe, _ := top.str("executable")
	if len(p.Commands) > 0 || exe != "" {
		if exe == "" {
			return nil, pluginErr(ctx, source, "plugins.no-executable")
		}
		resolved, found := ResolveExecutable(dir, exe, opts.GOOS, len(p.Interpreter) > 0)
		if !found {
			return nil, pluginErr(ctx, source, "plugins.executable-missing", "path", resolved)
		}
		p.Executable = resolved
	}
	return p, nil
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
	f, ok := objectOf(raw)
	if !ok || f.o.Len() != 1 {
		return nil, fmt.Errorf("not one of the forms")
	}
	if s, ok := f.str("path"); ok && s != "" {
		return &AdapterDecl{Path: absFrom(dir, s)}, nil
	}
	if s, ok := f.str("index"); ok && s != "" {
		return &AdapterDecl{Index: absFrom(dir, s)}, nil
	}
	if argv, ok := f.strings("command"); ok && len(argv) > 0 && argv[0] != "" {
		// A program named with a path is the plugin's own; a bare name is
		// looked up on PATH when it runs.
		if strings.ContainsAny(argv[0], `/\`) {
			argv[0] = absFrom(dir, argv[0])
		}
		return &AdapterDecl{Command: argv}, nil
	}
	return nil, fmt.Errorf("not one of the forms")
}

func parseCommand(ctx context.Context, p *Plugin, index int, raw any) (*Command, error) {
	source := p.Name
	f, ok := objectOf(raw)
	if !ok {
		return nil, pluginErr(ctx, source, "plugins.not-commands", "index", index+1)
	}
	name, ok := f.str("name")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, pluginErr(ctx, source, "plugins.command-name", "index", index+1)
	}
	if !reCommand.MatchString(name) {
		return nil, pluginErr(ctx, source, "plugins.command-name-invalid", "name", name)
	}
	if k := f.unknown("name", "help", "mcp", "mcp_name", "timeout", "arguments"); k != "" {
		return nil, commandErr(ctx, source, name, "plugins.field-unknown", "field", k)
	}
	c := &Command{Plugin: p, Name: name, MCP: true, Timeout: p.Timeout}
	if c.Help, ok = f.str("help"); !ok {
		return nil, commandErr(ctx, source, name, "plugins.field-type", "field", "help", "want", "string")
	}
	mcp, ok := f.boolp("mcp")
	if !ok {
		return nil, commandErr(ctx, source, name, "plugins.field-type", "field", "mcp", "want", "boolean")
	}
	if mcp != nil {
		c.MCP = *mcp
	}
	if c.MCPName, ok = f.str("mcp_name"); !ok {
		return nil, commandErr(ctx, source, name, "plugins.field-type", "field", "mcp_name", "want", "string")
	}
	if c.MCPName != "" && !reTool.MatchString(c.MCPName) {
		return nil, commandErr(ctx, source, name, "plugins.mcp-name-invalid", "name", c.MCPName)
	}
	if n, ok := f.number("timeout"); !ok || n < 0 || (f.present("timeout") && n == 0) {
		return nil, commandErr(ctx, source, name, "plugins.timeout-invalid", "field", "timeout")
	} else if n > 0 {
		c.Timeout = time.Duration(n * float64(time.Second))
	}
	items, ok := f.list("arguments")
	if !ok {
		return nil, commandErr(ctx, source, name, "plugins.not-argument", "index", 0)
	}
	for i, raw := range items {
		a, err := parseArg(ctx, source, name, i, raw)
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

func parseArg(ctx context.Context, source, command string, index int, raw any) (*Arg, error) {
	f, ok := objectOf(raw)
	if !ok {
		return nil, commandErr(ctx, source, command, "plugins.not-argument", "index", index+1)
	}
	name, ok := f.str("name")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, commandErr(ctx, source, command, "plugins.argument-name", "index", index+1)
	}
	fail := func(key string, args ...any) error {
		return commandErr(ctx, source, command, key, append([]any{"argument", name}, args...)...)
	}
	if k := f.unknown("name", "help", "type", "default", "required", "choices", "cli_alias", "multiple"); k != "" {
		return nil, fail("plugins.argument-field-unknown", "field", k)
	}
	a := &Arg{Name: name, Type: "str"}
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
	if a.Help, ok = f.str("help"); !ok {
		return nil, fail("plugins.argument-field-type", "field", "help", "want", "string")
	}
	typ, ok := f.str("type")
	if !ok {
		return nil, fail("plugins.argument-type", "type", compact(f.get("type")), "types", strings.Join(Types, ", "))
	}
	if typ != "" {
		if !contains(Types, typ) {
			return nil, fail("plugins.argument-type", "type", typ, "types", strings.Join(Types, ", "))
		}
		a.Type = typ
	}
	multiple, ok := f.boolp("multiple")
	if !ok {
		return nil, fail("plugins.argument-field-type", "field", "multiple", "want", "boolean")
	}
	a.Multiple = multiple != nil && *multiple
	required, ok := f.boolp("required")
	if !ok {
		return nil, fail("plugins.argument-field-type", "field", "required", "want", "boolean")
	}
	// An option is optional unless required; a positional is required
	// unless required is false.
	a.Required = !a.Option
	if required != nil {
		a.Required = *required
	}
	if a.Alias, ok = f.str("cli_alias"); !ok {
		return nil, fail("plugins.argument-field-type", "field", "cli_alias", "want", "string")
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
		if a.Option {
			return nil, fail("plugins.alias-needs-positional")
		}
		if !strings.HasPrefix(a.Alias, "-") {
			return nil, fail("plugins.alias-not-an-option", "alias", a.Alias)
		}
		if contains(HelpOptions, a.Alias) {
			return nil, fail("plugins.option-taken", "option", a.Alias)
		}
		if isGlobalOption(a.Alias) {
			return nil, fail("plugins.global-option-taken", "option", a.Alias)
		}
		if !strings.HasPrefix(a.Alias, "--") {
			return nil, fail("plugins.option-form", "name", strings.TrimLeft(a.Alias, "-"))
		}
		if !reArg.MatchString(strings.TrimLeft(a.Alias, "-")) {
			return nil, fail("plugins.argument-name-invalid")
		}
	}
	if f.present("default") {
		v := f.get("default")
		if a.Multiple {
			list, ok := v.([]any)
			if !ok {
				return nil, fail("plugins.multiple-default", "value", compact(f.get("default")))
			}
			typed := make([]any, 0, len(list))
			for _, e := range list {
				tv, ok := argvalue.Convert(a.Type, e)
				if !ok {
					return nil, fail("plugins.default-type", "value", compact(f.get("default")), "type", a.Type)
				}
				typed = append(typed, tv)
			}
			a.Default = typed
		} else {
			tv, ok := argvalue.Convert(a.Type, v)
			if !ok {
				return nil, fail("plugins.default-type", "value", compact(f.get("default")), "type", a.Type)
			}
			a.Default = tv
		}
	}
	choices, ok := f.list("choices")
	if !ok {
		return nil, fail("plugins.argument-field-type", "field", "choices", "want", "[…]")
	}
	for _, v := range choices {
		tv, ok := argvalue.Convert(a.Type, v)
		if !ok || v == nil {
			return nil, fail("plugins.choices-type", "value", compact(v), "type", a.Type)
		}
		a.Choices = append(a.Choices, tv)
	}
	return a, nil
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
