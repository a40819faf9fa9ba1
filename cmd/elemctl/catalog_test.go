package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/lsp"
	"github.com/elemctl/elemctl/internal/mcp"
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

// Every command and group of the core declares its place among its
// siblings, and no two share one: a command added later is given its place
// in help and in the action lists on purpose.
func TestEveryCommandDeclaresItsPlace(t *testing.T) {
	cat := catalog.Core()
	places := map[string]map[int]string{}
	place := func(path []string, order int) {
		parent, name := strings.Join(path[:len(path)-1], " "), strings.Join(path, " ")
		if order <= 0 {
			t.Errorf("%s declares no place (Order)", name)
			return
		}
		if places[parent] == nil {
			places[parent] = map[int]string{}
		}
		if other := places[parent][order]; other != "" {
			t.Errorf("%s and %s both take place %d", other, name, order)
		}
		places[parent][order] = name
	}
	for _, g := range cat.Groups() {
		place([]string{g.Name}, g.Order)
	}
	for _, c := range cat.Commands() {
		if len(c.Path) > 0 {
			place(c.Path, c.Order)
		}
	}
}

// A command added to the catalog shows on every face with what it
// declares: in the CLI's help at its place and with its examples, among
// the MCP tools and among the LSP commands.
func TestACommandOfTheCatalogShowsOnEveryFace(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	cat := catalog.Core()
	cat.Add(&command.Command{
		Path: []string{"apps", "rename"}, Order: 15, Tool: "rename_app", LSP: "apps.rename",
		Help: "cli.help.apps-list", Examples: []string{"elemctl apps rename crm-test crm-prod"},
		Args: []command.Argument{{Name: "to", Type: command.String, Positional: true, Required: true}},
		Run: func(context.Context, *command.Context, command.Values) (any, error) {
			return jsonx.New("ok", true), nil
		},
	})

	var out bytes.Buffer
	a := newApp(strings.NewReader(""), &out, io.Discard, func(string) string { return "" })
	a.catalog = cat
	root := a.buildRoot(ctx)
	apps, _, err := root.Find([]string{"apps"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(actionNames(apps), " "); !strings.HasSuffix(got, " export-extension rename") {
		t.Errorf("apps' actions: %s", got)
	}
	rename, _, err := root.Find([]string{"apps", "rename"})
	if err != nil || !strings.Contains(rename.Example, "elemctl apps rename crm-test crm-prod") {
		t.Errorf("apps rename: %v, examples %q", err, rename.Example)
	}
	if code := a.run([]string{"apps", "rename", "--help"}); code != exitOK || !strings.Contains(out.String(), "elemctl apps rename crm-test crm-prod") {
		t.Errorf("help of apps rename: exit %d\n%s", code, out.String())
	}

	mcpServer := mcp.New(ctx, mcp.Options{Catalog: cat, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: t.TempDir()})
	defer mcpServer.Close()
	if !slices.Contains(mcpServer.Tools(), "rename_app") {
		t.Errorf("MCP tools: %v", mcpServer.Tools())
	}
	lspServer := lsp.New(ctx, lsp.Options{Catalog: cat, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: t.TempDir()})
	if !slices.Contains(lspServer.Commands(), "elemctl.apps.rename") {
		t.Errorf("LSP commands: %v", lspServer.Commands())
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
		got, err := a.expandAbbreviations(ctx, root, strings.Fields(c.in))
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("expandAbbreviations(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := a.expandAbbreviations(ctx, root, strings.Fields("apps list --c x")); err == nil || !strings.Contains(err.Error(), "--client-id, --client-secret") {
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
