package main

import (
	"context"
	"fmt"
	"strings"
	"text/template"
	"time"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
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
	usage := template.Must(template.New("usage").Funcs(template.FuncMap{
		"T":                       func(key string) string { return i18n.T(ctx, key) },
		"useLine":                 func(c *cobra.Command) string { return useLine(ctx, c) },
		"localFlagUsages":         func(c *cobra.Command) string { return flagUsages(ctx, c.LocalFlags()) },
		"globalFlagUsages":        func(c *cobra.Command) string { return flagUsages(ctx, globalFlags(c)) },
		"hasGlobalFlags":          func(c *cobra.Command) bool { return globalFlags(c).HasAvailableFlags() },
		"rpad":                    func(s string, width int) string { return fmt.Sprintf("%-*s", width, s) },
		"trimTrailingWhitespaces": func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) },
	}).Parse(usageTemplate))
	root.SetUsageFunc(func(c *cobra.Command) error { return usage.Execute(c.OutOrStderr(), c) })
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

// flagUsages is a flag set's usage lines with the flag library's
// "(default …)" in the user's language.
func flagUsages(ctx context.Context, fs *pflag.FlagSet) string {
	return strings.ReplaceAll(fs.FlagUsages(), " (default ", " ("+i18n.T(ctx, "cli.help.default")+" ")
}

// useLine is a command's usage line with cobra's "[flags]" in the user's
// language.
func useLine(ctx context.Context, c *cobra.Command) string {
	return strings.Replace(c.UseLine(), "[flags]", i18n.T(ctx, "cli.help.flags-placeholder"), 1)
}

// localizeScaffolding gives every command of a built tree a localized
// -h/--help, and cobra's completion command localized descriptions; cobra
// would add both in English while it runs.
func localizeScaffolding(ctx context.Context, root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("help") == nil {
			c.Flags().BoolP("help", "h", false, i18n.T(ctx, "cli.flag.help"))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			c.Short = i18n.T(ctx, "cli.help.help")
		}
		if c.Name() != "completion" {
			continue
		}
		c.Short = i18n.T(ctx, "cli.help.completion")
		c.Long = c.Short
		for _, shell := range c.Commands() {
			shell.Short = i18n.T(ctx, "cli.help.completion-shell", "shell", shell.Name())
		}
	}
}

// wantsAppCompletion tells whether a command's first positional is an
// application.
func wantsAppCompletion(c *command.Command) bool {
	for _, arg := range c.Args {
		if arg.Positional {
			return arg.KeyName() == "app-id"
		}
	}
	return false
}

// completeAppNames offers the live application names of the configured
// stand; it stays quiet and quick when the stand cannot be reached.
func (a *app) completeAppNames(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	a.turnOn(options.Quiet)
	cl, err := a.platformClient(cmd.Context())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), 3*time.Second)
	defer cancel()
	apps, err := cl.ListApps(ctx)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, app := range apps {
		if platform.IsDeletedApp(app) {
			continue
		}
		name := platform.AppName(app)
		if name == "" {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(name, app.Str("status")))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
