package versionflag

import "testing"

func TestAsked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--version"}, true},
		{[]string{"--json", "--quiet", "--version"}, true},
		{[]string{"--env-file", "stand.env", "--version"}, true},
		{[]string{"--lang=en", "--timeout", "5", "--version"}, true},
		{[]string{"--env-file", "--version"}, false}, // the file is named "--version"
		{[]string{"self-update", "--version", "1.2"}, false},
		{[]string{"apps", "--version"}, false},
		{[]string{"--", "--version"}, false},
		{[]string{"-test.v", "--version"}, false},
		{nil, false},
	} {
		if got := Asked(c.args); got != c.want {
			t.Errorf("Asked(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line(); got != "elemctl "+Version+"\n" {
		t.Fatalf("Line() = %q", got)
	}
}

func TestFirstWord(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"apps", "list"}, "apps"},
		{[]string{"--json", "--quiet", "mcp"}, "mcp"},
		{[]string{"--env-file", "mcp", "apps"}, "apps"}, // "mcp" is the file
		{[]string{"--lang=ru", "--timeout", "5", "lsp"}, "lsp"},
		{[]string{"--base-url"}, ""},
		{[]string{"-h", "apps"}, ""},
		{[]string{"--", "apps"}, ""},
		{[]string{"--version"}, ""},
		{nil, ""},
	} {
		if got := FirstWord(c.args); got != c.want {
			t.Errorf("FirstWord(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}
