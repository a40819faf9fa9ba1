package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
)

// helpPaths are the command paths of the whole tree – catalog commands,
// groups, the command line's own faces, cobra's help and completion – as
// words after "elemctl"; the root is the empty path.
func helpPaths(t *testing.T) [][]string {
	t.Helper()
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot(i18n.WithLang(context.Background(), i18n.EN))
	var out [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Hidden {
			return
		}
		out = append(out, path)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(root, nil)
	for _, c := range a.catalog.Commands() {
		found := false
		for _, p := range out {
			found = found || strings.Join(p, " ") == strings.Join(c.Path, " ")
		}
		if !found {
			t.Errorf("%s is not in the tree walked", strings.Join(c.Path, " "))
		}
	}
	return out
}

// What the command-line libraries would print in English: their headings,
// placeholders, help texts and the kinds of values.
var libraryEnglish = regexp.MustCompile(`Usage:|Flags:|Available Commands|Additional help topics|Aliases:|Use "|\[flags\]|\[command\]|help for |\(default |Help provides|autocompletion|completion descriptions|You will need|--[a-z-]+(\[=)?[ =](string|int|float|float64|duration|bool|stringArray|strings)\b`)

// englishWords are words an English sentence can hardly do without; a line
// of Russian help holding one is English leaking in.
var englishWords = regexp.MustCompile(`(?i)\b(the|a|an|for|to|of|and|or|with|this|that|from|not|into|your|you|will|about|is|are|be|by|show|shows|help|command|commands|flags?|options?|usage|default|string|number)\b`)

// helpProse is the help without its examples and the words that are names
// whatever the language: options, commands (those of a list of commands
// too), environment variables, paths, a shell's commands.
func helpProse(help string) string {
	if i := strings.Index(help, "\nПримеры:\n"); i >= 0 {
		help = help[:i]
	}
	if i := strings.Index(help, "\nExamples:\n"); i >= 0 {
		help = help[:i]
	}
	names := regexp.MustCompile("`[^`]*`|\"[^\"]*\"|--?[a-z][a-z0-9-]*|\\belemctl( [a-z][a-z-]*)*|\\$\\S+|\\S*[/.]\\S+|[A-Z_]{2,}|\\b[a-z]+_[a-z_]+\\b|\\b[A-Za-z]+-[A-Za-z-]+\\b|(?m)^  elemctl .*$|(?m)^  [a-z][a-z-]+ ")
	return names.ReplaceAllString(help, "")
}

// Every command's help, in Russian and in English: in Russian no English
// sentence, heading or placeholder of a library shows; in English no
// Russian. Help exits 0 and prints on stdout only.
func TestHelpOfEveryCommandInBothLanguages(t *testing.T) {
	t.Parallel()
	paths := helpPaths(t)
	if len(paths) < 60 {
		t.Fatalf("only %d commands walked", len(paths))
	}
	cyrillic := regexp.MustCompile(`\p{Cyrillic}+`)
	for _, lang := range []string{"ru", "en"} {
		for _, path := range paths {
			name := strings.TrimSpace("elemctl " + strings.Join(path, " "))
			var stdout, stderr bytes.Buffer
			a := newApp(strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
			args := append(append([]string{"--lang", lang}, path...), "--help")
			if code := a.run(args); code != 0 || stderr.Len() > 0 {
				t.Errorf("%s: %s --help: exit %d, stderr %q", lang, name, code, stderr.String())
				continue
			}
			help := stdout.String()
			switch lang {
			case "ru":
				if !strings.Contains(help, "Использование:") {
					t.Errorf("ru: %s --help has no usage heading:\n%s", name, help)
				}
				if m := libraryEnglish.FindString(help); m != "" {
					t.Errorf("ru: %s --help shows the library's %q:\n%s", name, m, help)
				}
				for _, line := range strings.Split(helpProse(help), "\n") {
					if m := englishWords.FindString(line); m != "" {
						t.Errorf("ru: %s --help: English %q in %q", name, m, line)
					}
				}
			case "en":
				if !strings.Contains(help, "Usage:") {
					t.Errorf("en: %s --help has no usage heading:\n%s", name, help)
				}
				if m := cyrillic.FindString(helpProse(help)); m != "" {
					t.Errorf("en: %s --help: Russian %q:\n%s", name, m, help)
				}
			}
		}
	}
}

// A command's options are declared when the command is reached, so each
// way of reaching it must give the same help: "X --help", "help X", and
// a tree where every command has its options (what completion walks).
// Options a way missed, or a help flag added in English by cobra, show as
// a difference.
func TestHelpIsTheSameHoweverTheCommandIsReached(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	whole := newApp(strings.NewReader(""), io.Discard, io.Discard, noEnv)
	root := whole.buildRoot(ctx)
	whole.readyAll()
	withOptions := 0
	for _, path := range helpPaths(t) {
		name := strings.TrimSpace("elemctl " + strings.Join(path, " "))
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The root and the groups are whole from the start (and cobra
		// moves its help command last in the root when it runs): their
		// two ways are compared with each other.
		want := ""
		if !cmd.HasSubCommands() {
			var help bytes.Buffer
			cmd.SetOut(&help)
			if err := cmd.Help(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want = help.String()
			cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" && strings.Contains(want, "--"+f.Name) {
					withOptions++
				}
			})
		}
		for _, words := range [][]string{append(append([]string(nil), path...), "--help"), append([]string{"help"}, path...)} {
			var stdout, stderr bytes.Buffer
			a := newApp(strings.NewReader(""), &stdout, &stderr, noEnv)
			if code := a.run(append([]string{"--lang", "ru"}, words...)); code != 0 || stderr.Len() > 0 {
				t.Errorf("elemctl %s: exit %d, stderr %q", strings.Join(words, " "), code, stderr.String())
				continue
			}
			if want == "" {
				want = stdout.String()
			}
			if stdout.String() != want {
				t.Errorf("elemctl %s differs:\n%s\nwant:\n%s", strings.Join(words, " "), stdout.String(), want)
			}
		}
	}
	if withOptions < 100 {
		t.Fatalf("the help of the whole tree shows only %d options of commands", withOptions)
	}
}

// The shell's completion offers a command's options, which no other
// command of the line has reached.
func TestCompletionOffersTheOptionsOfTheCommand(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	a := newApp(strings.NewReader(""), &stdout, &stderr, noEnv)
	if code := a.run([]string{"__complete", "apps", "list", "--"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, option := range []string{"--brief", "--include-deleted", "--status"} {
		if !strings.Contains(stdout.String(), option+"\t") && !strings.Contains(stdout.String(), option+"\n") {
			t.Errorf("completion of apps list offers no %s:\n%s", option, stdout.String())
		}
	}
}

// A start declares the options of the one command it runs: until a
// command is reached, catalog and face commands alike (the stand, the
// servers) have none of their own, and reaching one declares its options.
func TestOnlyTheCommandReachedHasItsOptionsDeclared(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	a := newApp(strings.NewReader(""), io.Discard, io.Discard, noEnv)
	root := a.buildRoot(ctx)
	declared := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.HasSubCommands() || c.Name() == "mcp" {
			declared[c.CommandPath()] = c.LocalNonPersistentFlags().HasFlags()
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, path := range []string{"elemctl stand", "elemctl mcp", "elemctl mcp install", "elemctl lsp", "elemctl dap", "elemctl self-update", "elemctl apps list", "elemctl deploy"} {
		has, ok := declared[path]
		if !ok {
			t.Fatalf("%s is not in the tree", path)
		}
		if has {
			t.Errorf("%s has its options before it is reached", path)
		}
	}
	for _, reach := range [][]string{{"stand"}, {"mcp"}, {"mcp", "install"}, {"dap"}, {"apps", "list"}} {
		cmd, _, err := root.Find(reach)
		if err != nil {
			t.Fatal(err)
		}
		a.ready(cmd)
		if cmd.LocalNonPersistentFlags().NFlag() != 0 || !cmd.LocalNonPersistentFlags().HasFlags() || cmd.Flags().Lookup("help") == nil {
			t.Errorf("%v reached has no options of its own", reach)
		}
	}
	stand, _, _ := root.Find([]string{"stand"})
	if stand.Flags().Lookup("seed") == nil {
		t.Error("the stand reached has no --seed")
	}
}
