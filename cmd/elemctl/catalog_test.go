package main

import (
	"io"
	"testing"

	"github.com/elemctl/elemctl/internal/earlystart"
	"github.com/elemctl/elemctl/internal/i18n"
)

// The whole program's message tables, indexed: a key declared twice
// anywhere panics there.
func TestMessageKeysAreUnique(t *testing.T) {
	i18n.Index()
	if !i18n.Has("cli.help.root") {
		t.Fatal("the CLI's own messages are not in the catalog")
	}
}

func TestCommandWord(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"apps", "list"}, "apps"},
		{[]string{"--env-file", "a.env", "--json", "deploy"}, "deploy"},
		{[]string{"--lang=en", "builds"}, "builds"},
		{[]string{"--help"}, ""},
		{[]string{"help", "apps"}, ""},
		{[]string{"__complete", "apps", ""}, ""},
		{[]string{"--", "apps"}, ""},
		{nil, ""},
	} {
		if got := commandWord(c.args); got != c.want {
			t.Errorf("commandWord(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// A command line builds only its own command, and an unknown word the
// whole tree (so cobra can suggest and plugins' failures can be listed).
func TestTreeIsBuiltForTheCommandLine(t *testing.T) {
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	if cmds := a.buildRootFor("apps").Commands(); len(cmds) != 1 || cmds[0].Name() != "apps" {
		t.Errorf("apps: %d top-level commands", len(cmds))
	}
	a = newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	if n := len(a.buildRootFor("no-such-command").Commands()); n < 20 {
		t.Errorf("an unknown word must build the whole tree: %d commands", n)
	}
}

// earlystart's command lists name real commands: the servers among the
// faces, and catalog commands that pack sources.
func TestEarlyStartListsNameCommands(t *testing.T) {
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot()
	for _, name := range append(append([]string(nil), earlystart.LongRunning...), earlystart.Packing...) {
		found := false
		for _, c := range root.Commands() {
			if c.Name() == name {
				found = true
			}
		}
		if !found {
			t.Errorf("earlystart names %q, which is no elemctl command", name)
		}
	}
	for _, name := range earlystart.Packing {
		if a.catalog.Path(name) == nil {
			t.Errorf("%q: no catalog command of that name", name)
		}
	}
}
