package i18n

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	cases := []struct {
		text string
		args []any
		want string
	}{
		{"{live} live of {total}", []any{"live", 3, "total", 10}, "3 live of 10"},
		{"braces {{x}} stay", nil, "braces {x} stay"},
		{"unknown {field} kept", nil, "unknown {field} kept"},
		{"no fields", []any{"a", 1}, "no fields"},
		{"unclosed {x", []any{"x", 1}, "unclosed {x"},
		// an empty value takes its space with it, never leaving "  "
		{"instead of {archive} from the archive", []any{"archive", ""}, "instead of from the archive"},
		{"the archive's {archive}", []any{"archive", ""}, "the archive's"},
		{"named {a} {b}.", []any{"a", "", "b", ""}, "named."},
		{"project \"{name}\" ({id})", []any{"name", "", "id", ""}, "project \"\" ()"},
		{"{x} leads", []any{"x", ""}, " leads"},
		{"  {file}:{line}", []any{"file", "", "line", ""}, "  :"},
	}
	for _, c := range cases {
		if got := Format(c.text, c.args...); got != c.want {
			t.Errorf("Format(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestDetect(t *testing.T) {
	env := map[string]string{"ELEMCTL_LANG": "", "LC_ALL": "", "LANG": "en_US.UTF-8"}
	get := func(k string) string { return env[k] }
	if l := Detect("", get); l != EN {
		t.Fatalf("LANG=en_US: got %s", l)
	}
	if l := Detect("ru", get); l != RU {
		t.Fatalf("flag ru: got %s", l)
	}
	env["ELEMCTL_LANG"] = "ru"
	if l := Detect("", get); l != RU {
		t.Fatalf("ELEMCTL_LANG=ru: got %s", l)
	}
	if l := Detect("", func(string) string { return "" }); l != RU {
		t.Fatalf("nothing set: got %s", l)
	}
}

func TestUnknownKeyIsReturned(t *testing.T) {
	if got := TL(EN, "no.such-key"); got != "no.such-key" {
		t.Fatalf("got %q", got)
	}
}

func TestRegisteredTablesAreFoundAndDuplicatesCaught(t *testing.T) {
	Register([]Message{{Key: "test.one", RU: "раз {n}", EN: "one {n}"}})
	if got := TL(EN, "test.one", "n", 1); got != "one 1" {
		t.Fatalf("got %q", got)
	}
	if got := TL(RU, "test.one", "n", 1); got != "раз 1" {
		t.Fatalf("got %q", got)
	}
	Register([]Message{{Key: "test.one", RU: "x", EN: "x"}})
	defer func() {
		if recover() == nil {
			t.Fatal("a key registered twice went unnoticed")
		}
		// Leave the catalog usable for other tests.
		mu.Lock()
		tables = tables[:len(tables)-1]
		indexed = len(tables)
		mu.Unlock()
	}()
	Index()
}

// A table registered after the first lookup is found too.
func TestTablesRegisteredAfterALookup(t *testing.T) {
	Register([]Message{{Key: "test.late-a", RU: "а", EN: "a"}})
	if got := TL(EN, "test.late-a"); got != "a" {
		t.Fatalf("lookup: %q", got)
	}
	if Has("test.late-missing") {
		t.Fatal("found a key never registered")
	}
	Register([]Message{{Key: "test.late-b", RU: "б", EN: "b"}})
	if got := TL(RU, "test.late-b"); got != "б" {
		t.Fatalf("a table registered after the index: %q", got)
	}
}

func TestEmptyValueHookNamesTheGap(t *testing.T) {
	Register([]Message{{Key: "test.gap", RU: "сборка {version} вместо {archive} из архива", EN: "build {version} instead of {archive}"}})
	var got []string
	SetEmptyValueHook(func(key, name string) { got = append(got, key+"/"+name) })
	defer SetEmptyValueHook(nil)
	if s := TL(RU, "test.gap", "version", "1.0-5", "archive", ""); s != "сборка 1.0-5 вместо из архива" {
		t.Errorf("rendered %q", s)
	}
	if s := TL(EN, "test.gap", "version", "1.0-5", "archive", ""); s != "build 1.0-5 instead of" {
		t.Errorf("rendered %q", s)
	}
	TL(EN, "test.gap", "version", "1.0-5", "archive", "1.0-1")
	if strings.Join(got, " ") != "test.gap/archive test.gap/archive" {
		t.Errorf("hook saw %v", got)
	}
}
