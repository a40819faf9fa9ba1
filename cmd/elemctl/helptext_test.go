package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// repeatWords say, in each language, that a key may be given more than
// once; plugin options get the same words (args.help-repeatable).
var repeatWords = map[i18n.Lang]string{i18n.RU: "ключ можно повторить", i18n.EN: "the key may be repeated"}

// The help of every repeatable key of the core commands (an option taking
// several values, or the option alias of a positional that does) says it
// may be repeated, in both languages.
func TestHelpOfRepeatableKeysSaysSo(t *testing.T) {
	t.Parallel()
	for lang, words := range repeatWords {
		if !strings.Contains(i18n.TL(lang, "args.help-repeatable"), words) {
			t.Errorf("%s: the plugin suffix does not say %q", lang, words)
		}
		ctx := i18n.WithLang(context.Background(), lang)
		a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
		root := a.buildRoot(ctx)
		a.readyAll()
		found := 0
		for _, c := range a.catalog.Commands() {
			for _, arg := range c.Args {
				if !arg.Multiple {
					continue
				}
				name := arg.Name
				if arg.Positional {
					if arg.CLIAlias == "" {
						continue
					}
					name = strings.TrimPrefix(arg.CLIAlias, "--")
				}
				cmd, _, err := root.Find(c.Path)
				if err != nil {
					t.Fatalf("%v: %v", c.Path, err)
				}
				f := cmd.Flags().Lookup(name)
				if f == nil {
					t.Errorf("%s: --%s is not on the command line", strings.Join(c.Path, " "), name)
					continue
				}
				found++
				if !strings.Contains(f.Usage, words) {
					t.Errorf("%s: the help of %s --%s does not say it may be repeated: %q", lang, strings.Join(c.Path, " "), name, f.Usage)
				}
			}
		}
		if found < 3 {
			t.Errorf("%s: only %d repeatable keys found (apps list --status, apps token-access --user, probe --cleanup at least)", lang, found)
		}
	}
}
