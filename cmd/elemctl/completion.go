package main

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
)

// liveCompletionTimeout bounds a completion's reading of the stand: a
// shell waits for it at every Tab.
const liveCompletionTimeout = 3 * time.Second

// declareCompletion tells the shell what each argument of a catalog
// command takes: its choices and usual values, or what the stand holds
// (applications, projects, build versions). An option or positional with none of
// these keeps the shell's own completion of file names.
func (a *app) declareCompletion(cc *cobra.Command, c *command.Command) {
	var positionals []command.Argument
	for _, arg := range c.Args {
		if arg.Fixed || arg.Hidden {
			continue
		}
		if arg.Positional {
			positionals = append(positionals, arg)
		}
		complete, ok := a.argumentCompletion(arg)
		if !ok {
			continue
		}
		name := arg.Name
		if arg.Positional {
			if arg.CLIAlias == "" {
				continue
			}
			name = strings.TrimPrefix(arg.CLIAlias, "--")
		}
		if arg.Type != command.Bool && cc.Flags().Lookup(name) != nil {
			_ = cc.RegisterFlagCompletionFunc(name, complete)
		}
	}
	if len(positionals) == 0 {
		return
	}
	cc.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		arg, ok := positionalAt(positionals, len(args))
		if !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		complete, ok := a.argumentCompletion(arg)
		if !ok {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return complete(cmd, args, toComplete)
	}
}

// positionalAt is the positional the word at index n of the command's
// words stands for; the last one takes the rest when it takes several.
func positionalAt(positionals []command.Argument, n int) (command.Argument, bool) {
	switch {
	case n < len(positionals):
		return positionals[n], true
	case positionals[len(positionals)-1].Multiple:
		return positionals[len(positionals)-1], true
	}
	return command.Argument{}, false
}

type completeFunc = func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective)

// argumentCompletion is how one argument's values are completed; false
// when nothing is known of them.
func (a *app) argumentCompletion(arg command.Argument) (completeFunc, bool) {
	switch arg.Completes() {
	case command.CompleteApps:
		return a.completeAppNames, true
	case command.CompleteBuildVersions:
		return a.completeBuildVersions, true
	case command.CompleteProjects:
		return a.completeProjects, true
	}
	if words := append(slices.Clone(arg.Choices), arg.Suggest...); len(words) > 0 {
		return fixedCompletion(words), true
	}
	return nil, false
}

// fixedCompletion offers the words of a list that start as the word being
// completed does, case aside; never file names.
func fixedCompletion(words []string) completeFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, w := range words {
			if startsAs(w, toComplete) {
				out = append(out, w)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// startsAs tells a candidate that begins with what was typed, case aside.
func startsAs(candidate, typed string) bool {
	return strings.HasPrefix(strings.ToLower(candidate), strings.ToLower(typed))
}

// completeFlagValues registers the words an option of the command line's
// own (a face command's or a global one) takes.
func completeFlagValues(cmd *cobra.Command, flag string, words []string) {
	_ = cmd.RegisterFlagCompletionFunc(flag, fixedCompletion(words))
}

// optionWords are the words the line being completed gave an option of
// the command.
func optionWords(cmd *cobra.Command, name string) []string {
	f := cmd.Flags().Lookup(name)
	if f == nil || !f.Changed {
		return nil
	}
	if v, ok := f.Value.(interface{ Given() []string }); ok {
		return v.Given()
	}
	return []string{f.Value.String()}
}

// liveClient is the client a completion reads the stand with: quiet, and
// nil when the connection is not configured – completion never asks for
// anything.
func (a *app) liveClient(cmd *cobra.Command) *platform.Client {
	a.turnOn(options.Quiet)
	cl, err := a.platformClient(cmd.Context())
	if err != nil {
		return nil
	}
	return cl
}

// completeAppNames offers the live application names of the configured
// stand; it stays quiet and quick when the stand cannot be reached.
func (a *app) completeAppNames(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cl := a.liveClient(cmd)
	if cl == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), liveCompletionTimeout)
	defer cancel()
	// Only the live cards the word so far names are decoded of the list.
	apps, err := cl.ListAppsKeeping(ctx, func(app *jsonx.RawObject) bool {
		if platform.IsDeletedApp(app) {
			return false
		}
		name := platform.AppNameBytes(app)
		return len(name) > 0 && startsAs(string(name), toComplete)
	})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, app := range apps {
		out = append(out, cobra.CompletionWithDesc(platform.AppName(app), app.Str("status")))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeProjects offers the ids of the stand's projects – not groups,
// not deleted ones – with their names beside them.
func (a *app) completeProjects(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cl := a.liveClient(cmd)
	if cl == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), liveCompletionTimeout)
	defer cancel()
	projects, err := cl.ListProjects(ctx)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, p := range projects {
		id := p.Str("id")
		if id == "" || platform.IsDeletedProject(p) || strings.EqualFold(p.Str("project-kind"), "Group") || !startsAs(id, toComplete) {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(id, p.Str("name")))
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeBuildVersions offers the versions of the builds of the project
// the command line names with --project-id, else the configured one.
func (a *app) completeBuildVersions(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cl := a.liveClient(cmd)
	if cl == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	project := cl.Config().ProjectID
	if given := optionWords(cmd, "project-id"); len(given) > 0 {
		project = given[len(given)-1]
	}
	if project == "" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), liveCompletionTimeout)
	defer cancel()
	builds, err := cl.ListBuilds(ctx, project)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, b := range builds {
		v := b.Str("project-version")
		if v == "" {
			v = b.Str("assembly-version")
		}
		if v != "" && startsAs(v, toComplete) {
			out = append(out, cobra.CompletionWithDesc(v, b.Str("created")))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}
