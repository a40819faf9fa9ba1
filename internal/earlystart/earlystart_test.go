package earlystart

import "testing"

func TestShortLived(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"apps", "list"}, true},
		{[]string{"deploy", "--app", "mcp"}, true},
		{[]string{"echo", "a"}, true}, // a plugin command
		{nil, true},
		{[]string{"mcp"}, false},
		{[]string{"--env-file", "x.env", "lsp"}, false},
		{[]string{"--json", "dap"}, false},
		{[]string{"stand", "--port", "0"}, false},
		{[]string{"-Dfile.encoding=UTF-8", "-cp", "/a/repo/*", "com.e1c.g5rt.debugger.adapter.App"}, false},
	} {
		if got := ShortLived(c.args); got != c.want {
			t.Errorf("ShortLived(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestOneProcessor(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"apps", "list"}, true},
		{[]string{"echo", "a"}, true}, // a plugin command
		{[]string{"--json", "builds", "list"}, true},
		{nil, true},
		{[]string{"deploy", "--app", "x"}, false},
		{[]string{"--env-file", "a.env", "build"}, false},
		{[]string{"probe"}, false},
		{[]string{"mcp"}, false},
		{[]string{"lsp"}, false},
		{[]string{"-Dfile.encoding=UTF-8", "com.e1c.g5rt.debugger.adapter.App"}, false},
	} {
		if got := OneProcessor(c.args); got != c.want {
			t.Errorf("OneProcessor(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
