// Package command is the framework of elemctl's commands: what a command
// is (its CLI path, MCP tool name, LSP command id and arguments), the
// catalog that holds them, and what every face (cmd/elemctl, mcp, lsp, the
// plugin host) shares to run one: the binders of a call's arguments (JSON
// and command-line words), the builder of a call's context, and the
// renderings of a result per dialect. The commands themselves are declared
// in internal/catalog; plugin commands are values of the same types.
package command

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/argvalue"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Surface names the face a command runs on. No operation reads it: the
// plugin host passes it on to plugins, whose protocol carries it.
type Surface string

const (
	CLI Surface = "cli"
	MCP Surface = "mcp"
	LSP Surface = "lsp"
)

// Type is the type of an argument's value.
type Type string

const (
	String Type = "str"
	Int    Type = "int"
	Float  Type = "float"
	Bool   Type = "bool"
)

// Argument is one input of a command.
type Argument struct {
	// Name is the argument's name on its face: the CLI flag without dashes
	// (kebab-case), or the MCP parameter (snake_case) in Command.ToolArgs.
	Name string
	// Key is what the handler reads; "" means Name with "_" turned to "-".
	Key string
	// Help is a message key of internal/i18n (or literal text).
	Help     string
	Type     Type
	Default  any
	Required bool
	Choices  []string
	// Multiple: a repeatable option, or a positional taking several values.
	Multiple bool
	// Positional: given without a flag on the CLI.
	Positional bool
	// CLIAlias is an option that may give a positional instead
	// (e.g. "--app-id"); giving both with different values is an error.
	CLIAlias string
	// Metavar names the value in CLI help ("APP_ID").
	Metavar string
	// Nullable: on MCP the value may be null, meaning "not given"
	// (e.g. bool|null switches).
	Nullable bool
	// OrList: on MCP a single value or a list of values is accepted.
	OrList bool
	// Hidden keeps the argument out of help.
	Hidden bool
	// AliasExclusive makes a positional and its CLIAlias a mutually
	// exclusive pair, as a plugin's manifest declares them: both at once
	// are refused even with equal values. Otherwise both may be given when
	// they agree.
	AliasExclusive bool
	// Bound limits a number: NonNegative or Positive; every face refuses
	// a number outside it.
	Bound Bound
	// Fixed arguments are never read from the caller: the handler always
	// gets Default. A tool fixes this way what a command-line option
	// chooses (create_app always starts from the newest build).
	Fixed bool
	// Suggest are values shell completion offers beyond Choices: words the
	// argument usually takes without being limited to them.
	Suggest []string
	// Complete names where shell completion reads the argument's values
	// from the stand; an application's or a project's id (app-id,
	// project-id) needs none declared.
	Complete Completion
}

// Completion names the values shell completion reads from the stand.
type Completion string

const (
	// CompleteApps: the names of the stand's applications.
	CompleteApps Completion = "apps"
	// CompleteProjects: the ids of the stand's projects, their names
	// beside them.
	CompleteProjects Completion = "projects"
	// CompleteBuildVersions: the versions of the builds of the project the
	// command line names (--project-id) or the configuration does.
	CompleteBuildVersions Completion = "build-versions"
)

// Completes is where completion reads the argument's values: its Complete,
// or the stand's applications for an application's id, its projects for a
// project's.
func (a Argument) Completes() Completion {
	switch {
	case a.Complete != "":
		return a.Complete
	case a.KeyName() == "app-id":
		return CompleteApps
	case a.KeyName() == "project-id":
		return CompleteProjects
	}
	return ""
}

// Bound is the range a number argument may take (argvalue's table).
type Bound = argvalue.Bound

const (
	Unbounded   = argvalue.Unbounded
	NonNegative = argvalue.NonNegative
	Positive    = argvalue.Positive
)

// expectedKey names what an argument of this type and bound takes, for
// messages.
func expectedKey(b Bound, t Type) string {
	switch {
	case b == NonNegative && t == Int:
		return "cli.parse.expected-integer-non-negative"
	case b == NonNegative:
		return "cli.parse.expected-number-non-negative"
	case b == Positive && t == Int:
		return "cli.parse.expected-integer-positive"
	case b == Positive:
		return "cli.parse.expected-number-positive"
	}
	return expectedValueKey((&wordValue{arg: Argument{Type: t}}).Type())
}

// KeyName is the key a handler reads this argument by.
func (a Argument) KeyName() string {
	if a.Key != "" {
		return a.Key
	}
	return strings.ReplaceAll(a.Name, "_", "-")
}

// Handler runs a command. It returns its result – a JSON-able value
// (usually *jsonx.Object or []any), or a Result that renders itself per
// dialect – or an error.
type Handler func(ctx context.Context, cc *Context, in Values) (any, error)

// Dialect is the shape an answer takes.
type Dialect int

const (
	// CLIDialect is what elemctl prints: a listing is a JSON array, its
	// counters a line on stderr.
	CLIDialect Dialect = iota
	// ToolDialect is what tools answer – MCP tools, LSP commands, a
	// plugin's host calls: one object, counters inside.
	ToolDialect
)

// Answer is a result rendered for a dialect.
type Answer struct {
	// Value is the JSON answer.
	Value any
	// Notes are lines the CLI prints on stderr after the answer (a
	// listing's counters); tools leave them out.
	Notes []string
	// Verdict are lines for a person that the CLI prints on stderr after
	// the answer unless --quiet asks for the answer alone (--json changes
	// only what reaches stdout).
	Verdict []string
	// Failed makes the CLI exit with 1 unless the value names another
	// non-zero code.
	Failed bool
	// Headline is the one line that tells how the command ended, for a
	// face that shows one (an editor's notification), and Severity how
	// loud it is. A result that leaves it "" gets the plain one Invoke
	// makes from the value's "ok" and problems.
	Headline string
	Severity Severity
	// Diagnostics are the compile errors of the project the result speaks
	// of, for a face that shows them on the files; nil says nothing about
	// any project.
	Diagnostics *Diagnostics
}

// Severity is how loud a headline is.
type Severity int

const (
	// Information: the command did what it was asked.
	Information Severity = iota
	// Failure: the command ran and failed (a rolled back apply, a build
	// the compiler refused).
	Failure
)

// Diagnostics are the located compile errors of one project. Empty
// Errors clear what an earlier result showed for the project.
type Diagnostics struct {
	// ProjectDir is the project's directory; Vendor and Name name it in
	// the archive entries the errors point at.
	ProjectDir, Vendor, Name string
	Errors                   []platform.CompileError
}

// Result is a handler's result that renders itself per dialect.
type Result interface {
	Answer(d Dialect) Answer
}

// Render turns a handler's result into the answer of dialect d: a Result
// renders itself, any other value is its own answer.
func Render(result any, d Dialect) Answer {
	if r, ok := result.(Result); ok {
		return r.Answer(d)
	}
	return Answer{Value: result}
}

// ExitCode is the process exit code of the answer (see the function
// ExitCode).
func (a Answer) ExitCode() int {
	if code := ExitCode(a.Value); code != 0 || !a.Failed {
		return code
	}
	return 1
}

// Command is one operation of the catalog.
type Command struct {
	// Path is the CLI path, e.g. {"apps", "list"}; nil keeps it off the CLI.
	Path []string
	// Order is the command's place among the commands of its group (or
	// of the root) in help and in the lists of actions, from 1; 0 puts it
	// after the placed ones (a plugin's).
	Order int
	// Examples are command lines the help shows, the same in every
	// language.
	Examples []string
	// Face commands are the servers and tools of the command line itself
	// (mcp, lsp, dap, stand, self-update): the CLI renders them with
	// flags of their own and no face runs them as operations. Their names
	// are taken like every other.
	Face bool
	// Lens is the message key of the title of the code lens an editor
	// shows on a project descriptor to run the command there; "" shows
	// none. Lenses come in the commands' order.
	Lens string
	// PlainStderr keeps the CLI's own lines – the plugins that did not
	// load – off stderr before the command: editors read the output of
	// `apps get` with stderr mixed in, and `plugins` and `mcp` report the
	// failures themselves.
	PlainStderr bool
	// Tool is the MCP tool name; "" keeps it off MCP.
	Tool string
	// LSP is the LSP command id after the prefix ("deploy" → "elemctl.deploy");
	// "" keeps it off LSP.
	LSP string
	// Help is the message key of the one-line help (CLI) and, unless
	// ToolHelp is set, of the MCP description.
	Help     string
	ToolHelp string
	// Args are the CLI arguments, also used by MCP and LSP unless ToolArgs
	// is set.
	Args []Argument
	// ToolArgs are the MCP parameters when they differ from Args.
	ToolArgs []Argument
	// Local commands never talk to the platform: the CLI refuses connection
	// flags for them and MCP gives them no env_file.
	Local bool
	// Annotations for MCP clients (checked by CheckAnnotations).
	ReadOnly, Destructive, Idempotent bool
	// WritesFiles commands write files on the machine elemctl runs on (an
	// archive, an export): they are not read-only.
	WritesFiles bool
	// Slow operations take minutes; faces show progress for them, and a
	// tool's answer carries its log.
	Slow bool
	// OptionalToolArgs makes every tool parameter optional, null when it
	// declares no default (a plugin's tools).
	OptionalToolArgs bool
	// Source is "" for core commands, else the plugin that declared it.
	Source string
	// Features a plugin command requires of the core.
	Features []string
	Run      Handler

	// input is the type of the handler's typed input (Handle), whose tags
	// Catalog.Add checks.
	input reflect.Type
}

// Name is the CLI path joined with spaces, or the tool name.
func (c *Command) Name() string {
	if len(c.Path) > 0 {
		return strings.Join(c.Path, " ")
	}
	return c.Tool
}

// MCPArgs are the arguments as MCP sees them.
func (c *Command) MCPArgs() []Argument {
	if c.ToolArgs != nil {
		return c.ToolArgs
	}
	return c.Args
}

// Group is a CLI command group ("apps", "builds", ...).
type Group struct {
	Name string
	Help string // message key
	// Order is the group's place among the root's commands (Command.Order).
	Order int
	// Description is an optional longer text (message key).
	Description string
}

// Catalog holds commands and groups.
type Catalog struct {
	mu     sync.RWMutex
	cmds   []*Command
	groups []Group
	sorted []*Command // cmds by name, built on demand
}

// CheckAnnotations refuses annotations that do not tell the truth: a
// read-only command neither destroys nor writes files (MCP clients and
// read-scoped tokens trust readOnlyHint to mean "changes nothing").
func CheckAnnotations(c *Command) error {
	if c.ReadOnly && c.Destructive {
		return fmt.Errorf("command %q is declared read-only and destructive", c.Name())
	}
	if c.ReadOnly && c.WritesFiles {
		return fmt.Errorf("command %q is declared read-only but writes files", c.Name())
	}
	return nil
}

// Add registers commands; a duplicate CLI path or tool name, or
// annotations that contradict themselves, are programming errors. Typed
// inputs are checked by Check: the program's own are in its tests, not at
// every start (reflecting over a hundred inputs costs a start about
// 0.2 ms), and a plugin's command has none.
func (c *Catalog) Add(cmds ...*Command) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cmd := range cmds {
		if err := CheckAnnotations(cmd); err != nil {
			panic("command: " + err.Error())
		}
		for _, have := range c.cmds {
			if len(cmd.Path) > 0 && slices.Equal(have.Path, cmd.Path) {
				panic(fmt.Sprintf("command: CLI path %q declared twice", cmd.Name()))
			}
			if cmd.Tool != "" && have.Tool == cmd.Tool {
				panic(fmt.Sprintf("command: tool %q declared twice", cmd.Tool))
			}
		}
		c.cmds = append(c.cmds, cmd)
	}
	c.sorted = nil
}

// Check refuses the catalog when a command's typed input (Handle) reads
// an argument the command does not declare: a mistyped key would read as
// zero. The core catalog's test calls it; a plugin's command has no
// typed input.
func (c *Catalog) Check() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, cmd := range c.cmds {
		errs = append(errs, checkInput(cmd))
	}
	return errors.Join(errs...)
}

// AddGroup registers a CLI group.
func (c *Catalog) AddGroup(g Group) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.groups = append(c.groups, g)
}

// Commands lists the commands sorted by name.
func (c *Catalog) Commands() []*Command {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sorted == nil {
		names := make([]string, len(c.cmds))
		order := make([]int, len(c.cmds))
		for i, cmd := range c.cmds {
			names[i], order[i] = cmd.Name(), i
		}
		sort.SliceStable(order, func(i, j int) bool { return names[order[i]] < names[order[j]] })
		c.sorted = make([]*Command, len(order))
		for i, k := range order {
			c.sorted[i] = c.cmds[k]
		}
	}
	return append([]*Command(nil), c.sorted...)
}

// Groups lists the CLI groups.
func (c *Catalog) Groups() []Group {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]Group(nil), c.groups...)
}

// Tool finds a command by MCP tool name.
func (c *Catalog) Tool(name string) *Command {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, cmd := range c.cmds {
		if cmd.Tool == name {
			return cmd
		}
	}
	return nil
}

// LSPCommand finds a command by LSP id (without prefix).
func (c *Catalog) LSPCommand(id string) *Command {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, cmd := range c.cmds {
		if cmd.LSP == id {
			return cmd
		}
	}
	return nil
}

// Path finds a command by CLI path.
func (c *Catalog) Path(path ...string) *Command {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, cmd := range c.cmds {
		if len(cmd.Path) > 0 && slices.Equal(cmd.Path, path) {
			return cmd
		}
	}
	return nil
}

// Clone copies the catalog so a face can add plugin commands to its own.
func (c *Catalog) Clone() *Catalog {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return &Catalog{cmds: append([]*Command(nil), c.cmds...), groups: append([]Group(nil), c.groups...)}
}

// ExitCode derives a process exit code from an answer: an integer (not
// boolean) "exit-code" of 0–255 wins; else "ok": false means 1; else 0.
func ExitCode(answer any) int {
	o, ok := answer.(*jsonx.Object)
	if !ok {
		return 0
	}
	if n, ok := o.Int("exit-code"); ok {
		if _, isBool := o.Value("exit-code").(bool); !isBool && n >= 0 && n <= 255 {
			return int(n)
		}
	}
	if ok, isBool := o.Value("ok").(bool); isBool && !ok {
		return 1
	}
	return 0
}

// ErrorObject is the JSON shape of an error on every face.
func ErrorObject(err error) *jsonx.Object { return platform.ErrorObject(err) }
