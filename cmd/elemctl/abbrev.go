package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
)

// expandAbbreviations spells out long options given by a unique prefix
// ("--lan en", "--lim=3"), as the reference's parser accepts them: each
// option is matched against the flags of the command the words before it
// name, global ones included. A prefix of several is refused, naming them;
// an option matching none is left for the parser to refuse. Nothing after
// a bare "--" is touched.
func (a *app) expandAbbreviations(ctx context.Context, root *cobra.Command, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	cmd := root
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			return append(out, args[i:]...), nil
		}
		if !strings.HasPrefix(arg, "--") {
			if !strings.HasPrefix(arg, "-") {
				if sub := subcommand(cmd, arg); sub != nil {
					cmd = sub
					a.ready(cmd)
				}
			}
			out = append(out, arg)
			continue
		}
		name, value, hasValue := strings.Cut(arg[2:], "=")
		flag, err := findFlag(ctx, cmd, name)
		if err != nil {
			return nil, err
		}
		if flag == nil {
			out = append(out, arg)
			continue
		}
		if hasValue {
			out = append(out, "--"+flag.Name+"="+value)
			continue
		}
		out = append(out, "--"+flag.Name)
		if flag.NoOptDefVal == "" && i+1 < len(args) {
			// The option's value, whatever it looks like.
			i++
			out = append(out, args[i])
		}
	}
	return out, nil
}

// subcommand is cmd's subcommand called name, or nil.
func subcommand(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

// findFlag is the flag of cmd (its own or inherited) called name, or the
// only one whose name starts with it; nil when there is none.
func findFlag(ctx context.Context, cmd *cobra.Command, name string) (*pflag.Flag, error) {
	if name == "" {
		return nil, nil
	}
	var matches []*pflag.Flag
	seen := map[string]bool{}
	exact := (*pflag.Flag)(nil)
	visit := func(f *pflag.Flag) {
		if seen[f.Name] {
			return
		}
		seen[f.Name] = true
		if f.Name == name {
			exact = f
		} else if strings.HasPrefix(f.Name, name) {
			matches = append(matches, f)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.PersistentFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	switch {
	case exact != nil:
		return exact, nil
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) == 0:
		return nil, nil
	}
	names := make([]string, len(matches))
	for i, f := range matches {
		names[i] = "--" + f.Name
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%s", i18n.T(ctx, "cli.ambiguous-option", "option", "--"+name, "matches", strings.Join(names, ", ")))
}
