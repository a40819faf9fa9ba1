package main

import (
	"io"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/dap"
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
	var names []string
	for _, c := range a.buildRootFor("apps").Commands() {
		if c.Name() != "help" { // cobra's own, added to any tree with commands
			names = append(names, c.Name())
		}
	}
	if len(names) != 1 || names[0] != "apps" {
		t.Errorf("apps: top-level commands %q", names)
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

// cliOrder places every command of the tree: a command added later must be
// given its place in help and in the action lists on purpose.
func TestCLIOrderNamesEveryCommand(t *testing.T) {
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot()
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
	a := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := a.buildRoot()
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
		got, err := expandAbbreviations(root, strings.Fields(c.in))
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("expandAbbreviations(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := expandAbbreviations(root, strings.Fields("apps list --c x")); err == nil || !strings.Contains(err.Error(), "--client-id, --client-secret") {
		t.Errorf("an ambiguous prefix: %v", err)
	}
}

// earlystart knows a debug adapter's launch by the adapter's main class.
func TestEarlyStartKnowsTheAdapterMainClass(t *testing.T) {
	if earlystart.AdapterMainClass != dap.AdapterMainClass {
		t.Errorf("earlystart.AdapterMainClass %q, dap.AdapterMainClass %q", earlystart.AdapterMainClass, dap.AdapterMainClass)
	}
}
