package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

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
