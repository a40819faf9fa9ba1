package main

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/spf13/cobra"
)

// The whole program's message tables, registered the way main registers
// them: a key declared twice with two texts anywhere panics there.
func TestMessageKeysAreUnique(t *testing.T) {
	registerMessages()
	if !i18n.Has("cli.help.root") {
		t.Fatal("the CLI's own messages are not in the catalog")
	}
}

// cliOrder places every command of the tree: a command added later must be
// given its place in help and in the action lists on purpose.
func TestCLIOrderNamesEveryCommand(t *testing.T) {
	ctx := context.Background()
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot(ctx)
	ranked := func(group, name string) bool {
		for _, n := range cliOrder[group] {
			if n == name {
				return true
			}
		}
		return false
	}
	for _, c := range root.Commands() {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if !ranked("", c.Name()) {
			t.Errorf("cliOrder lacks the command %q", c.Name())
		}
		if !c.HasSubCommands() {
			continue
		}
		for _, sub := range c.Commands() {
			if !ranked(c.Name(), sub.Name()) {
				t.Errorf("cliOrder lacks the action %q of %q", sub.Name(), c.Name())
			}
		}
	}
}

func TestExpandAbbreviations(t *testing.T) {
	ctx := context.Background()
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot(ctx)
	for _, c := range []struct{ in, want string }{
		{"--lan en apps list --bri", "--lang en apps list --brief"},
		{"apps list --stat=Running --inc", "apps list --status=Running --include-deleted"},
		// a value is never read as an option, whatever it looks like
		{"builds list --project --lim 3", "builds list --project-id --lim 3"},
		// exact names, short options, unknown options and words stay
		{"--json apps get -h --no-such x", "--json apps get -h --no-such x"},
		// nothing after --
		{"apps find -- --inc", "apps find -- --inc"},
		// the flags of the command named so far: --bri is no root option
		{"--bri apps list", "--bri apps list"},
	} {
		got, err := expandAbbreviations(ctx, root, strings.Fields(c.in))
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("expandAbbreviations(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := expandAbbreviations(ctx, root, strings.Fields("apps list --c x")); err == nil || !strings.Contains(err.Error(), "--client-id, --client-secret") {
		t.Errorf("an ambiguous prefix: %v", err)
	}
}

// Every command of elemctl's own shows examples in its help.
func TestEveryCommandHasExamples(t *testing.T) {
	ctx := context.Background()
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot(ctx)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			switch {
			case sub.Name() == "help" || sub.Name() == "completion" || sub.Annotations[pluginAnnotation] != "":
				continue // cobra's own (which carry their own help) and plugins'
			case sub.Runnable() && !sub.HasSubCommands() && sub.Example == "":
				t.Errorf("%s has no examples", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(root)
}

// Every message of the program, in both languages, rendered with every
// placeholder empty: no double space and no space before a punctuation
// mark may come out, whatever a caller had to say.
func TestNoMessageShowsAnEmptyValueAsAGap(t *testing.T) {
	placeholder := regexp.MustCompile(`\{([A-Za-z0-9_-]+)\}`)
	// A gap is two spaces after a word (leading indentation is layout) or a
	// space before a punctuation mark.
	doubleSpace, spaceBeforeMark := regexp.MustCompile(`\S {2,}`), regexp.MustCompile(`\S [.,;:!?)]`)
	checked := 0
	for _, m := range i18n.Messages() {
		for lang, text := range map[i18n.Lang]string{i18n.RU: m.RU, i18n.EN: m.EN} {
			if doubleSpace.MatchString(text) {
				t.Errorf("%s (%s) has a double space of its own: %q", m.Key, lang, text)
				continue
			}
			var args []any
			for _, f := range placeholder.FindAllStringSubmatch(text, -1) {
				args = append(args, f[1], "")
			}
			if args == nil {
				continue
			}
			checked++
			got := i18n.TL(lang, m.Key, args...)
			if doubleSpace.MatchString(got) || spaceBeforeMark.MatchString(got) && !spaceBeforeMark.MatchString(text) {
				t.Errorf("%s (%s) shows an empty value as a gap: %q", m.Key, lang, got)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d messages with placeholders were checked; the catalog is not all here", checked)
	}
}
