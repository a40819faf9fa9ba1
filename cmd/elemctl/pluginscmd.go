package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/mcp"
	"github.com/elemctl/elemctl/internal/plugin"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

func init() {
	catalogHooks = append(catalogHooks, loadPlugins)
	faceBuilders = append(faceBuilders, (*app).debugAdapterCommand)
}

// pluginAnnotation marks the cobra commands rendered by pluginLeaf.
const pluginAnnotation = "elemctl-plugin"

// loadPlugins adds the plugins' commands to the catalog before the command
// tree is built. Discovery reads manifests only; no plugin process starts
// here.
func loadPlugins(a *app) {
	plugin.Install(a.catalog, plugin.Options{Getenv: a.getenv, Version: versionText(), Stderr: pluginStderr(a)})
}

// pluginStderr is where a plugin's stderr goes. On a terminal the live
// status line may be drawn, so the plugin's output passes through the lock
// that clears it first. Anywhere else nothing is drawn over, and the plugin
// writes to elemctl's stderr itself: whole lines from either side stay
// whole, and no pipe and copy sit between.
func pluginStderr(a *app) io.Writer {
	if f, ok := a.stderr.(*os.File); ok && !isTerminal(f) {
		return f
	}
	return stderrLines{a}
}

// stderrLines passes a plugin's stderr through the app's stderr lock, so
// its lines do not cut into progress lines or the live status line.
type stderrLines struct{ a *app }

func (w stderrLines) Write(p []byte) (int, error) {
	w.a.errMu.Lock()
	defer w.a.errMu.Unlock()
	if w.a.status != nil {
		w.a.status.clearLocked()
	}
	return w.a.stderr.Write(p)
}

// reportPluginFailures prints a line per plugin that did not load before a
// command runs, through the progress channel (silenced by --quiet). Not for
// `plugins`, which answers with the failures, nor for `mcp`, which reports
// them its own way, nor for `apps get`, whose output editors read with
// stderr mixed in; nor for the root (`--version`, an unknown command) and
// shell completion requests.
func (a *app) reportPluginFailures(cmd *cobra.Command) {
	if cmd == nil || !cmd.HasParent() {
		return
	}
	switch strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") {
	case "plugins", "mcp", "apps get", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return
	}
	for _, f := range plugin.Failures(a.catalog) {
		if !f.MCPOnly {
			a.progress(plugin.FailureLine(f, command.CLI))
		}
	}
}

// refuseUnknownWithFailures answers a command that does not exist while
// some plugins failed to load: the command may be theirs, so the answer is
// exit 1 with {"error", "plugin-failures"} on stderr instead of a usage
// error. nil when every plugin loaded.
func (a *app) refuseUnknownWithFailures(name string) error {
	var failed []manifest.Failure
	for _, f := range plugin.Failures(a.catalog) {
		if !f.MCPOnly {
			failed = append(failed, f)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	var sources []string
	list := []any{}
	seen := map[string]bool{}
	for _, f := range failed {
		if !seen[f.Source] {
			seen[f.Source] = true
			sources = append(sources, f.Source)
		}
		list = append(list, jsonx.New("source", f.Source, "error", f.Error))
	}
	sort.Strings(sources)
	out, _ := jsonx.Marshal(jsonx.New(
		"error", i18n.T("plugins.unknown-command", "name", name, "sources", strings.Join(sources, ", ")),
		"plugin-failures", list,
	))
	a.errMu.Lock()
	a.stderr.Write(out)
	a.errMu.Unlock()
	return &exitError{code: exitFailure}
}

// mcpPluginFailures are the failures the MCP server reports at start.
func mcpPluginFailures(a *app) []mcp.PluginFailure {
	var out []mcp.PluginFailure
	for _, f := range plugin.Failures(a.catalog) {
		out = append(out, mcp.PluginFailure{Source: f.Source, Err: errors.New(f.Error)})
	}
	return out
}

// debugAdapterCommand is `debug-adapter` (the catalog's debug_adapter) with
// `extract` beneath it.
func (a *app) debugAdapterCommand() *cobra.Command {
	locate := *a.catalog.Tool("debug_adapter")
	locate.Path = []string{"debug-adapter"}
	cmd := a.leafCommand(&locate)
	cmd.AddCommand(a.leafCommand(command.DebugAdapterExtract))
	return cmd
}

// pluginUsageError is a refused plugin command line: exit 2 with the
// message as it is (pflag would wrap it).
type pluginUsageError struct{ msg string }

func (e *pluginUsageError) Error() string { return e.msg }

func usagef(key string, args ...any) error { return &pluginUsageError{i18n.T(key, args...)} }

// pluginValue is a typed option (or a positional's alias): the value is
// converted and checked against the choices when given; a single-value key
// repeated with a different value is refused, a multiple one collects
// every occurrence in order.
type pluginValue struct {
	arg    command.Argument
	option string
	given  bool
	raw    []string
	vals   []any
}

func (v *pluginValue) String() string {
	if v.given || v.arg.Default == nil || v.arg.Multiple {
		return ""
	}
	return choiceText(v.arg.Default)
}

func (v *pluginValue) Type() string {
	switch v.arg.Type {
	case command.Int:
		return "int"
	case command.Float:
		return "float"
	}
	return "string"
}

func (v *pluginValue) Set(s string) error {
	tv, err := pluginConvert(v.arg, v.option, s)
	if err != nil {
		return err
	}
	if v.arg.Multiple {
		v.vals = append(v.vals, tv)
		v.raw = append(v.raw, s)
		v.given = true
		return nil
	}
	if v.given {
		if !sameValue(v.vals[0], tv) {
			return usagef("plugins.repeated-different", "option", v.option, "a", v.raw[0], "b", s)
		}
		return nil
	}
	v.vals, v.raw, v.given = []any{tv}, []string{s}, true
	return nil
}

func (v *pluginValue) value() any {
	if v.arg.Multiple {
		return append([]any{}, v.vals...)
	}
	return v.vals[0]
}

func sameValue(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func choiceText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	raw, _ := jsonx.Compact(v)
	return string(raw)
}

// pluginConvert converts one command-line word to the argument's type and
// checks it against the choices.
func pluginConvert(arg command.Argument, name, s string) (any, error) {
	var v any = s
	ok := true
	switch arg.Type {
	case command.Int:
		v, ok = manifest.ParseInt(s)
	case command.Float:
		v, ok = manifest.ParseFloat(s)
	}
	if !ok {
		return nil, usagef("plugins.bad-value", "name", name, "type", string(arg.Type), "value", "'"+s+"'")
	}
	if len(arg.Choices) > 0 {
		text := choiceText(v)
		for _, c := range arg.Choices {
			if c == text || (arg.Type != command.String && sameNumber(arg.Type, c, v)) {
				return v, nil
			}
		}
		return nil, usagef("cli.bad-choice", "name", name, "value", s, "choices", strings.Join(arg.Choices, ", "))
	}
	return v, nil
}

func sameNumber(t command.Type, choice string, v any) bool {
	var c any
	var ok bool
	if t == command.Int {
		c, ok = manifest.ParseInt(choice)
	} else {
		c, ok = manifest.ParseFloat(choice)
	}
	return ok && sameValue(c, v)
}

func pluginMetavar(arg command.Argument) string {
	name := arg.Metavar
	if name == "" {
		name = arg.Name
	}
	required := arg.Required && arg.CLIAlias == ""
	switch {
	case arg.Multiple && required:
		return name + " [" + name + " ...]"
	case arg.Multiple:
		return "[" + name + " ...]"
	case required:
		return name
	}
	return "[" + name + "]"
}

// pluginLeaf renders a plugin command on the CLI by the rules of its
// manifest (spec §2.7): typed options with choices, store-true flags,
// optional positionals, multiple options and positionals, a positional's
// alias as its mutually exclusive twin, and a single-value key refused
// when repeated with another value.
func (a *app) pluginLeaf(c *command.Command) *cobra.Command {
	use := c.Path[len(c.Path)-1]
	var positionals []command.Argument
	var posHelp []string
	for _, arg := range c.Args {
		if arg.Positional {
			positionals = append(positionals, arg)
			use += " " + pluginMetavar(arg)
			if arg.Help != "" {
				posHelp = append(posHelp, fmt.Sprintf("  %-14s %s", arg.Name, arg.Help))
			}
		}
	}
	help := i18n.T(c.Help)
	long := help
	if len(posHelp) > 0 {
		long += "\n\n" + i18n.T("plugins.help-positionals") + ":\n" + strings.Join(posHelp, "\n")
	}
	cc := &cobra.Command{
		Use: use, Short: help, Long: long,
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{pluginAnnotation: c.Source},
	}
	flags := cc.Flags()
	options := map[string]*pluginValue{}
	aliases := map[string]*pluginValue{}
	for _, arg := range c.Args {
		switch {
		case !arg.Positional && arg.Type == command.Bool:
			def, _ := arg.Default.(bool)
			flags.Bool(arg.Name, def, arg.Help)
		case !arg.Positional:
			v := &pluginValue{arg: arg, option: "--" + arg.Name}
			flags.Var(v, arg.Name, arg.Help)
			options[arg.KeyName()] = v
		case arg.CLIAlias != "":
			v := &pluginValue{arg: arg, option: arg.CLIAlias}
			flags.Var(v, strings.TrimPrefix(arg.CLIAlias, "--"), i18n.T("plugins.alias-help", "name", arg.Name))
			aliases[arg.KeyName()] = v
		}
	}
	cc.RunE = func(cmd *cobra.Command, args []string) error {
		in, err := pluginValues(c, cmd.Flags(), options, aliases, positionals, args)
		if err != nil {
			return err
		}
		return a.execute(cmd.Context(), c, in)
	}
	return cc
}

func pluginValues(c *command.Command, flags *pflag.FlagSet, options, aliases map[string]*pluginValue, positionals []command.Argument, args []string) (command.Values, error) {
	in := command.NewValues()
	for _, arg := range c.Args {
		if arg.Positional {
			continue
		}
		key := arg.KeyName()
		if arg.Type == command.Bool {
			if flags.Changed(arg.Name) {
				b, _ := flags.GetBool(arg.Name)
				in.Set(key, b)
			} else {
				in.Default(key, arg.Default)
			}
			continue
		}
		v := options[key]
		switch {
		case v.given:
			in.Set(key, v.value())
		case arg.Required:
			return in, usagef("cli.missing-flag", "name", "--"+arg.Name)
		case arg.Default != nil:
			in.Default(key, arg.Default)
		}
	}
	alloc, rest := allocatePositionals(positionals, args)
	if len(rest) > 0 {
		return in, usagef("cli.too-many-args", "args", strings.Join(rest, " "))
	}
	for i, arg := range positionals {
		key := arg.KeyName()
		words := alloc[i]
		alias := aliases[key]
		if len(words) > 0 && alias != nil && alias.given {
			return in, usagef("plugins.alias-exclusive", "alias", arg.CLIAlias, "name", arg.Name)
		}
		switch {
		case len(words) > 0:
			vals := make([]any, 0, len(words))
			for _, w := range words {
				v, err := pluginConvert(arg, arg.Name, w)
				if err != nil {
					return in, err
				}
				vals = append(vals, v)
			}
			if arg.Multiple {
				in.Set(key, vals)
			} else {
				in.Set(key, vals[0])
			}
		case alias != nil && alias.given:
			in.Set(key, alias.value())
		case arg.Required:
			if arg.CLIAlias != "" {
				return in, usagef("cli.missing-positional", "name", arg.Name+" ("+arg.CLIAlias+")")
			}
			return in, usagef("cli.missing-positional", "name", arg.Name)
		case arg.Default != nil:
			in.Default(key, arg.Default)
		}
	}
	return in, nil
}

// allocatePositionals shares the words among the positionals the way
// argparse does: each takes what it may while leaving enough for the
// required ones after it. A positional with an alias may be left empty.
func allocatePositionals(pos []command.Argument, words []string) ([][]string, []string) {
	minOf := func(a command.Argument) int {
		if a.Required && a.CLIAlias == "" {
			return 1
		}
		return 0
	}
	out := make([][]string, len(pos))
	next := 0
	for i, p := range pos {
		need := 0
		for _, later := range pos[i+1:] {
			need += minOf(later)
		}
		avail := len(words) - next - need
		if avail <= 0 {
			continue
		}
		take := 1
		if p.Multiple {
			take = avail
		}
		out[i] = words[next : next+take]
		next += take
	}
	return out, words[next:]
}
