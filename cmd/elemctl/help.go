package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"text/template"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/options"
)

// usageTemplate is cobra's usage text with the catalog's words.
const usageTemplate = `{{T "cli.help.usage"}}:{{if .Runnable}}
  {{useLine .}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} {{T "cli.help.command-placeholder"}}{{end}}{{if gt (len .Aliases) 0}}

{{T "cli.help.aliases"}}:
  {{.NameAndAliases}}{{end}}{{if .HasAvailableSubCommands}}

{{T "cli.help.commands"}}:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

{{T "cli.help.options"}}:
{{localFlagUsages . | trimTrailingWhitespaces}}{{end}}{{if hasGlobalFlags .}}

{{T "cli.help.global-options"}}:
{{globalFlagUsages . | trimTrailingWhitespaces}}{{end}}{{if .HasExample}}

{{T "cli.help.examples"}}:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

{{T "cli.help.more"}} "{{.CommandPath}} {{T "cli.help.command-placeholder"}} --help"{{end}}
`

// localizeHelp replaces cobra's English help scaffolding with the
// catalog's, in the language of ctx. The template's functions belong to
// this tree: cobra's own are process-wide, and two trees in two languages
// would share them.
func localizeHelp(ctx context.Context, root *cobra.Command) {
	// Parsed when help is first shown: most runs show none.
	usage := sync.OnceValue(func() *template.Template {
		return template.Must(template.New("usage").Funcs(template.FuncMap{
			"T":                       func(key string) string { return i18n.T(ctx, key) },
			"useLine":                 func(c *cobra.Command) string { return useLine(ctx, c) },
			"localFlagUsages":         func(c *cobra.Command) string { return flagUsages(ctx, c.LocalFlags()) },
			"globalFlagUsages":        func(c *cobra.Command) string { return flagUsages(ctx, globalFlags(c)) },
			"hasGlobalFlags":          func(c *cobra.Command) bool { return globalFlags(c).HasAvailableFlags() },
			"rpad":                    func(s string, width int) string { return fmt.Sprintf("%-*s", width, s) },
			"trimTrailingWhitespaces": func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) },
		}).Parse(usageTemplate))
	})
	root.SetUsageFunc(func(c *cobra.Command) error { return usage().Execute(c.OutOrStderr(), c) })
}

// localAnnotation marks the commands that never talk to the platform: their
// help leaves the connection options out.
const localAnnotation = "elemctl-local"

// globalFlags are the global options a command's help lists: all of them,
// but the connection options on a command that makes no connection.
func globalFlags(c *cobra.Command) *pflag.FlagSet {
	inherited := c.InheritedFlags()
	if c.Annotations[localAnnotation] == "" {
		return inherited
	}
	out := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	inherited.VisitAll(func(f *pflag.Flag) {
		if o, global := options.Named("--" + f.Name); !global || !o.Connection {
			out.AddFlag(f)
		}
	})
	return out
}

// flagUsages is a flag set's usage lines, drawn here rather than by the
// flag library so that nothing in them is the library's English: the
// value's kind in the user's language, a repeatable key marked, the
// default in the user's words – and only when the help text does not name
// one itself.
func flagUsages(ctx context.Context, fs *pflag.FlagSet) string {
	type line struct{ left, usage string }
	var lines []line
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left := "      --" + f.Name
		if f.Shorthand != "" {
			left = "  -" + f.Shorthand + ", --" + f.Name
		}
		if kind := valueKind(ctx, f); kind != "" {
			if f.NoOptDefVal != "" {
				left += "[=" + kind + "]"
			} else {
				left += " " + kind
			}
		}
		usage := f.Usage
		if shown := shownDefault(f); shown != "" && !namesDefault(ctx, usage) {
			usage += " (" + i18n.T(ctx, "cli.help.default") + " " + shown + ")"
		}
		lines = append(lines, line{left, usage})
		width = max(width, len([]rune(left)))
	})
	var b strings.Builder
	for _, l := range lines {
		pad := strings.Repeat(" ", width-len([]rune(l.left))+3)
		usage := strings.ReplaceAll(l.usage, "\n", "\n"+strings.Repeat(" ", width+3))
		b.WriteString(l.left + pad + usage + "\n")
	}
	return b.String()
}

// valueKind names what an option takes, in the user's language: "" for a
// switch; a repeatable key's kind ends in "...".
func valueKind(ctx context.Context, f *pflag.Flag) string {
	if f.NoOptDefVal != "" && f.Value.Type() == "bool" {
		return ""
	}
	key := "cli.help.kind-text"
	switch f.Value.Type() {
	case "int", "int64", "int32", "uint", "uint64":
		key = "cli.help.kind-integer"
	case "float64", "float32":
		key = "cli.help.kind-number"
	case "duration":
		key = "cli.help.kind-duration"
	case "bool":
		key = "cli.help.kind-bool"
	}
	kind := i18n.T(ctx, key)
	if r, ok := f.Value.(interface{ Repeatable() bool }); ok && r.Repeatable() {
		kind += "..."
	}
	return kind
}

// shownDefault is the default help shows: none for a zero value.
func shownDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
		return ""
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}

// namesDefault tells a help text that says its default itself ("default:
// the previous address, else a free port"): the flag's own would
// contradict it.
func namesDefault(ctx context.Context, usage string) bool {
	return strings.Contains(strings.ToLower(usage), strings.ToLower(i18n.T(ctx, "cli.help.default")))
}

// useLine is a command's usage line with cobra's "[flags]" in the user's
// language.
func useLine(ctx context.Context, c *cobra.Command) string {
	return strings.Replace(c.UseLine(), "[flags]", i18n.T(ctx, "cli.help.flags-placeholder"), 1)
}

// localizeScaffolding gives every command of a built tree a localized
// -h/--help (a catalog command gets it when it is reached, with its other
// options), and cobra's completion command localized descriptions; cobra
// would add both in English while it runs.
func (a *app) localizeScaffolding(ctx context.Context, root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if _, later := a.unready[c]; !later {
			addHelpFlag(ctx, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			// They reach no stand: their help lists no connection options.
			markLocal(c)
		}
		if c.Name() == "help" {
			c.Use = "help " + i18n.T(ctx, "cli.help.command-placeholder")
			c.Short = i18n.T(ctx, "cli.help.help")
			c.Long = i18n.T(ctx, "cli.help.help-long")
			c.Run, c.RunE = nil, func(_ *cobra.Command, args []string) error { return a.helpOf(ctx, root, args) }
		}
		if c.Name() != "completion" {
			continue
		}
		c.Short = i18n.T(ctx, "cli.help.completion")
		c.Long = c.Short
		for _, shell := range c.Commands() {
			shell.Short = i18n.T(ctx, "cli.help.completion-shell", "shell", shell.Name())
			shell.Long = shell.Short + "\n\n" + i18n.T(ctx, "cli.help.completion-"+shell.Name())
			shell.Args = noArgs(ctx)
			if f := shell.Flags().Lookup("no-descriptions"); f != nil {
				f.Usage = i18n.T(ctx, "cli.flag.no-descriptions")
			}
		}
	}
}

// addHelpFlag gives c its -h/--help in the user's language, which cobra
// would otherwise add in English when c runs.
func addHelpFlag(ctx context.Context, c *cobra.Command) {
	if c.Flags().Lookup("help") == nil {
		c.Flags().BoolP("help", "h", false, i18n.T(ctx, "cli.flag.help"))
	}
}

// helpOf is "elemctl help WORDS": the help of the command they name, or
// the refusal of the word no command has, with the nearest one.
func (a *app) helpOf(ctx context.Context, root *cobra.Command, words []string) error {
	target, rest, err := root.Find(words)
	if err != nil {
		return err
	}
	a.ready(target)
	switch {
	case len(rest) == 0:
		target.InitDefaultHelpFlag()
		return target.Help()
	case target == root:
		return unknownCommand(ctx, root, rest[0])
	case target.HasSubCommands():
		return unknownAction(ctx, target, rest[0])
	}
	return noArgs(ctx)(target, rest)
}

// noArgs refuses any word after a command that takes none, in the user's
// language.
func noArgs(ctx context.Context) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("%s", i18n.T(ctx, "cli.too-many-args", "args", strings.Join(args, " ")))
		}
		return nil
	}
}

// markLocal marks a command and those under it as reaching no stand.
func markLocal(c *cobra.Command) {
	annotate(c, localAnnotation, "true")
	for _, sub := range c.Commands() {
		markLocal(sub)
	}
}
