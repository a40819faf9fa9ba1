package spelling

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	commands := []string{"token", "apps", "spaces", "projects", "builds", "build", "inspect", "deploy", "stand", "mcp"}
	for _, c := range []struct {
		word  string
		known []string
		want  []string
	}{
		{"apss", commands, []string{"apps"}}, // two letters swapped
		{"aps", commands, []string{"apps"}},  // one missing
		{"deplyo", commands, []string{"deploy"}},
		{"biuld", commands, []string{"build"}}, // "builds" is two slips away
		{"buil", commands, []string{"build"}},
		{"stauts", []string{"status", "name", "brief"}, []string{"status"}},
		{"runing", []string{"Running", "Stopped", "Error"}, []string{"Running"}}, // case aside
		{"cursr", []string{"claude", "cursor", "vscode", "windsurf", "zed"}, []string{"cursor"}},
		{"rus", []string{"ru", "en"}, []string{"ru"}},
		{"de", []string{"ru", "en"}, nil},                       // two slips in a short word: no guess
		{"xyzzy", commands, nil},                                // nothing close
		{"apps", commands, nil},                                 // the word itself is no suggestion
		{"mxp", []string{"mcp", "map"}, []string{"mcp", "map"}}, // ties keep the known order
		{"задчи", []string{"задачи", "заявки"}, []string{"задачи"}},
		{"", commands, nil},
	} {
		if got := Nearest(c.word, c.known); !slices.Equal(got, c.want) {
			t.Errorf("Nearest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"abc", "acb", 1}, {"status", "stauts", 1}, {"ca", "abc", 3},
	} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := distance(c.b, c.a); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}
