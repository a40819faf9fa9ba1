package assembly

import (
	"slices"
	"testing"
)

func TestCounterAndBase(t *testing.T) {
	cases := []struct {
		v       string
		counter int
		base    string
	}{
		{"1.0-1", 1, "1.0"},
		{"1.0-10", 10, "1.0"},
		{"1.0.0-502", 502, "1.0.0"},
		{"1.0", 0, "1.0"},
		{"1.0-probe-ab12cd34", 0, "1.0-probe"},
		{"1.0-i1", 0, "1.0"},
		{"1.0-", 0, "1.0"},
		{"1.0--5", 5, "1.0-"},
		{"1.0-99999999999999999999999", 0, "1.0"},
		{"1.0-+5", 0, "1.0"},
	}
	for _, c := range cases {
		if got := Counter(c.v); got != c.counter {
			t.Errorf("Counter(%q) = %d, want %d", c.v, got, c.counter)
		}
		if got := Base(c.v); got != c.base {
			t.Errorf("Base(%q) = %q, want %q", c.v, got, c.base)
		}
	}
	versions := []string{"1.0-9", "1.0-10", "1.0-2", "1.0-probe-x"}
	slices.SortFunc(versions, func(a, b string) int { return Counter(a) - Counter(b) })
	if want := []string{"1.0-probe-x", "1.0-2", "1.0-9", "1.0-10"}; !slices.Equal(versions, want) {
		t.Errorf("numeric order: %v", versions)
	}
}

func TestKeepsNumbering(t *testing.T) {
	cases := []struct {
		v, base string
		want    bool
	}{
		{"1.0-3", "1.0", true},
		{"1.0", "1.0", false},
		{"1.1-3", "1.0", false},
		{"1.0-3a", "1.0", false},
		{"1.0-٣", "1.0", false}, // not an ASCII digit
	}
	for _, c := range cases {
		if got := KeepsNumbering(c.v, c.base); got != c.want {
			t.Errorf("KeepsNumbering(%q, %q) = %v", c.v, c.base, got)
		}
	}
}

func TestResolveVersion(t *testing.T) {
	ci := map[string]string{"CI_PIPELINE_IID": " 41 ", "GITHUB_RUN_NUMBER": "7", "BUILD_NUMBER": "3"}
	cases := []struct {
		name                  string
		base, flag, last      string
		env                   map[string]string
		wantVersion, wantFrom string
	}{
		{"flag wins over everything", "1.0", " 5.5-x ", "1.0-3", ci, "5.5-x", "flag"},
		{"blank flag is no flag", "1.0", "  ", "", nil, "1.0-1", "default"},
		{"next after last build", "1.0", "", "1.0-9", ci, "1.0-10", "last-build"},
		{"last build of another base", "2.0", "", "1.0-9", nil, "2.0-1", "last-build"},
		{"last build without a number", "1.0", "", "1.0-probe-ab", nil, "1.0-1", "last-build"},
		{"last build is the base alone", "1.0", "", "1.0", nil, "1.0-1", "last-build"},
		{"gitlab first", "1.0", "", "", ci, "1.0-41", "CI_PIPELINE_IID"},
		{"github next", "1.0", "", "", map[string]string{"CI_PIPELINE_IID": "abc", "GITHUB_RUN_NUMBER": "7", "BUILD_NUMBER": "3"}, "1.0-7", "GITHUB_RUN_NUMBER"},
		{"jenkins last", "1.0", "", "", map[string]string{"GITHUB_RUN_NUMBER": "", "BUILD_NUMBER": "3"}, "1.0-3", "BUILD_NUMBER"},
		{"non-digit CI values ignored", "1.0", "", "", map[string]string{"BUILD_NUMBER": "-3"}, "1.0-1", "default"},
		{"default", "3.2.1", "", "", nil, "3.2.1-1", "default"},
		{"empty base", "", "", "", nil, "1.0-1", "default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, from := ResolveVersion(c.base, c.flag, c.last, envOf(c.env))
			if v != c.wantVersion || from != c.wantFrom {
				t.Errorf("got %q %q, want %q %q", v, from, c.wantVersion, c.wantFrom)
			}
		})
	}
	if v, from := ResolveVersion("1.0", "", "", nil); v != "1.0-1" || from != "default" {
		t.Errorf("nil environment: %q %q", v, from)
	}
}
