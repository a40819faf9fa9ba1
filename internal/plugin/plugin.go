// Package plugin turns plugins into catalog commands. A plugin is a
// directory with an elemctl-plugin.json manifest (package plugin/manifest);
// its commands run as an external process speaking JSON-RPC 2.0 over stdio
// (package plugin/protocol), and the commands become ordinary
// command.Command values, so the CLI, MCP and LSP render them with no code
// of their own. Plugin authors use package plugin/sdk.
package plugin

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/elemctl/elemctl/internal/argvalue"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

// Options configure loading.
type Options struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// GOOS is the operating system whose rules apply; "" = the running one.
	GOOS string
	// Version is elemctl's version.
	Version string
	// Stderr receives the plugin processes' stderr; nil means os.Stderr.
	Stderr io.Writer
}

// Loaded is what Install did to a catalog.
type Loaded struct {
	manifest.Resolution
	Set *manifest.Set
}

// Install discovers plugins and adds their commands to cat; the caller
// keeps what it returns (what loaded, what failed). Discovery reads files
// only; a plugin process starts when one of its commands runs. A core name
// always wins, and a plugin with any invalid command adds nothing. ctx
// carries the language of the failures and of the commands' help.
func Install(ctx context.Context, cat *command.Catalog, opts Options) *Loaded {
	set := manifest.Discover(ctx, manifest.Options{Getenv: opts.Getenv, GOOS: opts.GOOS, Version: opts.Version})
	// The names the core holds are gathered only for plugins to be
	// placed beside them: most starts find none.
	var taken manifest.Taken
	if len(set.Plugins) > 0 {
		taken = command.PluginTaken(cat)
	}
	l := &Loaded{Resolution: set.Resolve(ctx, taken), Set: set}
	hosts := map[*manifest.Plugin]*host{}
	for _, r := range l.Commands {
		h := hosts[r.Plugin]
		if h == nil {
			h = &host{p: r.Plugin, catalog: cat, stderr: opts.Stderr, version: opts.Version}
			hosts[r.Plugin] = h
		}
		cat.Add(h.command(ctx, r))
	}
	return l
}

// command renders a plugin command as a catalog command.
func (h *host) command(ctx context.Context, r manifest.Resolved) *command.Command {
	c := r.Command
	cmd := &command.Command{
		Path: []string{c.Name}, Tool: r.Tool,
		Help: c.Help, ToolHelp: c.Help,
		Args: cliArgs(ctx, c), ToolArgs: toolArgs(c),
		Source: h.p.Name, Features: h.p.Requires,
		// A plugin may take minutes, and its tools' parameters are all
		// optional (spec mcp-plugins-editors §1.7).
		Slow: true, OptionalToolArgs: true,
	}
	if r.LSP != "" {
		cmd.LSP = "plugin." + r.LSP
	}
	cmd.Run = func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
		args, err := Arguments(ctx, c, in)
		if err != nil {
			return nil, err
		}
		return h.run(ctx, cc, c, args)
	}
	return cmd
}

func goDefault(v any) any {
	switch x := v.(type) {
	case int64:
		return int(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = goDefault(e)
		}
		return out
	}
	return v
}

// cliArgs are the command's arguments as the CLI renders them.
func cliArgs(ctx context.Context, c *manifest.Command) []command.Argument {
	out := make([]command.Argument, 0, len(c.Args))
	for _, a := range c.Args {
		arg := command.Argument{
			Key: a.Dest, Help: a.Help, Type: command.Type(a.Type), Default: goDefault(a.Default),
			Required: a.Required, Multiple: a.Multiple, CLIAlias: a.Alias, AliasExclusive: a.Alias != "",
		}
		for _, ch := range a.Choices {
			arg.Choices = append(arg.Choices, choiceText(ch))
		}
		if a.Option {
			arg.Name = a.Flag()
			if a.Multiple {
				arg.Help = withSuffix(a.Help, i18n.T(ctx, "args.help-repeatable"))
			}
		} else {
			arg.Name = a.Name
			arg.Positional = true
			arg.Metavar = a.Name
			if a.Multiple {
				arg.Help = withSuffix(a.Help, i18n.T(ctx, "plugins.help-multiple-positional"))
			}
		}
		if a.Type == "bool" {
			b, _ := a.Default.(bool)
			arg.Default = b
		}
		out = append(out, arg)
	}
	return out
}

func withSuffix(help, suffix string) string {
	if strings.TrimSpace(help) == "" {
		return suffix
	}
	return help + " " + suffix
}

func choiceText(v any) string {
	s, _ := jsonx.Compact(v)
	if str, ok := v.(string); ok {
		return str
	}
	return string(s)
}

// toolArgs are the MCP parameters: one per argument, named by its dest,
// none required, each with its value default.
func toolArgs(c *manifest.Command) []command.Argument {
	out := make([]command.Argument, 0, len(c.Args))
	for _, a := range c.Args {
		out = append(out, command.Argument{
			Name: a.Dest, Key: a.Dest, Help: a.Help, Type: command.Type(a.Type),
			Default: goDefault(valueDefault(a)), Multiple: a.Multiple,
		})
	}
	return out
}

// valueDefault is what a command gets for an argument nobody gave: a
// fresh list for a multiple argument, false for a flag, else the declared
// default (possibly null).
func valueDefault(a *manifest.Arg) any {
	switch {
	case a.Multiple:
		out := []any{}
		if list, ok := a.Default.([]any); ok {
			out = append(out, list...)
		}
		return out
	case a.Type == "bool":
		b, _ := a.Default.(bool)
		return b
	}
	return a.Default
}

// Arguments builds the "arguments" object of a run: every declared
// argument by its dest, in declared order, typed, defaults applied.
func Arguments(ctx context.Context, c *manifest.Command, in command.Values) (*jsonx.Object, error) {
	out := &jsonx.Object{}
	for _, a := range c.Args {
		raw, ok := in.Raw(a.Dest)
		if !ok || raw == nil {
			out.Set(a.Dest, valueDefault(a))
			continue
		}
		if a.Multiple {
			list := listOf(raw)
			typed := make([]any, 0, len(list))
			for _, e := range list {
				v, ok := argvalue.Convert(a.Type, e)
				if !ok || v == nil {
					return nil, badValue(ctx, a, e)
				}
				typed = append(typed, v)
			}
			out.Set(a.Dest, typed)
			continue
		}
		v, ok := argvalue.Convert(a.Type, raw)
		if !ok {
			return nil, badValue(ctx, a, raw)
		}
		out.Set(a.Dest, v)
	}
	return out, nil
}

func badValue(ctx context.Context, a *manifest.Arg, v any) error {
	s, _ := jsonx.Compact(v)
	return platform.ConfigErrorf(ctx, "plugins.bad-value", "name", a.Name, "type", a.Type, "value", string(s))
}

// listOf reads the list forms faces produce.
func listOf(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case []int:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case []int64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case []float64:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case []bool:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return []any{v}
}

// LocateAdapter is the directory of the platform's debug adapter for the
// environment getenv describes (ELEMCTL_DEBUG_ADAPTER, then plugins in name
// order, then the adapter `debug-adapter extract` put into elemctl's data
// directory), or "" when none is installed. nil getenv means os.Getenv.
func LocateAdapter(ctx context.Context, getenv func(string) string) (dir string, err error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	return adapter.Locate(ctx, getenv)
}
