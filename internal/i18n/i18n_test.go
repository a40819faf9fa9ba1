package i18n

import (
	"context"
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
	if l := DetectWith("", get, POSIXLocale); l != EN {
		t.Fatalf("LANG=en_US: got %s", l)
	}
	if l := DetectWith("ru", get, POSIXLocale); l != RU {
		t.Fatalf("flag ru: got %s", l)
	}
	env["ELEMCTL_LANG"] = "ru"
	if l := DetectWith("", get, POSIXLocale); l != RU {
		t.Fatalf("ELEMCTL_LANG=ru: got %s", l)
	}
	if l := DetectWith("", func(string) string { return "" }, POSIXLocale); l != RU {
		t.Fatalf("nothing set: got %s", l)
	}
}

// The locale follows POSIX: the first non-empty of LC_ALL, LC_MESSAGES and
// LANG decides, Russian for ru*, English for anything else that is set
// (C and POSIX included), Russian when nothing is set. --lang and
// ELEMCTL_LANG come first when they name a language.
func TestDetectFollowsTheLocale(t *testing.T) {
	for _, c := range []struct {
		flag, elemctl, lcAll, lcMessages, lang string
		want                                   Lang
	}{
		{want: RU},
		{lang: "ru_RU.UTF-8", want: RU},
		{lang: "en_GB.UTF-8", want: EN},
		{lang: "de_DE.UTF-8", want: EN},
		{lang: "C.UTF-8", want: EN},
		{lang: "POSIX", want: EN},
		{lang: "C", want: EN},
		{lcAll: "C", lang: "ru_RU.UTF-8", want: EN},
		{lcAll: "ru_RU.UTF-8", lang: "en_US.UTF-8", want: RU},
		{lcMessages: "de_DE", lang: "ru_RU", want: EN},
		{lcMessages: "ru_RU.KOI8-R", lang: "en_US", want: RU},
		{lcAll: "  ", lang: "en_US", want: EN},
		{elemctl: "ru", lang: "en_US", want: RU},
		{elemctl: "en", lcAll: "ru_RU", want: EN},
		{elemctl: "de", lang: "ru_RU", want: RU}, // not a language of ours: the locale decides
		{flag: "en", elemctl: "ru", lang: "ru_RU", want: EN},
	} {
		env := map[string]string{"ELEMCTL_LANG": c.elemctl, "LC_ALL": c.lcAll, "LC_MESSAGES": c.lcMessages, "LANG": c.lang}
		if got := DetectWith(c.flag, func(k string) string { return env[k] }, POSIXLocale); got != c.want {
			t.Errorf("%+v: got %s", c, got)
		}
	}
}

// Windows: the user's interface language decides, whatever LANG says.
func TestDetectWithTheWindowsLanguage(t *testing.T) {
	env := map[string]string{"LANG": "ru_RU.UTF-8"}
	get := func(k string) string { return env[k] }
	for id, want := range map[uint16]Lang{0x0419: RU, 0x0819: RU, 0x0409: EN, 0x0809: EN, 0x0407: EN, 0x0422: EN, 0x0000: RU} {
		ui := func(func(string) string) string { return LangIDLocale(id) }
		if got := DetectWith("", get, ui); got != want {
			t.Errorf("LANGID %#04x: got %s, want %s", id, got, want)
		}
	}
	if got := LangIDLocale(0x0407); got != "langid-0407" {
		t.Errorf("LangIDLocale(0x0407) = %q", got)
	}
}

func TestFromLocale(t *testing.T) {
	for name, want := range map[string]Lang{"ru": RU, "RU": RU, "ru-RU": RU, "ru_UA.UTF-8": RU, "en": EN, "en-US": EN, "zh-cn": EN, "C": EN} {
		if got, ok := FromLocale(name); !ok || got != want {
			t.Errorf("FromLocale(%q) = %s, %v", name, got, ok)
		}
	}
	if _, ok := FromLocale(" "); ok {
		t.Error("an empty locale counts as set")
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
	// The same entry again (two callers registering one table) is harmless.
	Register([]Message{{Key: "test.one", RU: "раз {n}", EN: "one {n}"}})
	defer func() {
		if recover() == nil {
			t.Fatal("a key registered twice with another text went unnoticed")
		}
		if got := TL(EN, "test.one", "n", 1); got != "one 1" {
			t.Fatalf("the refused table changed the message: %q", got)
		}
	}()
	Register([]Message{{Key: "test.one", RU: "x", EN: "x"}})
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

// The language travels with the context: two calls in two languages at
// once each get their own; a context without one speaks Russian.
func TestTheLanguageTravelsWithTheContext(t *testing.T) {
	t.Parallel()
	Register([]Message{{Key: "test.ctx", RU: "привет, {who}", EN: "hello, {who}"}})
	en, ru := WithLang(context.Background(), EN), WithLang(context.Background(), RU)
	if got := T(en, "test.ctx", "who", "x"); got != "hello, x" {
		t.Errorf("en: %q", got)
	}
	if got := T(ru, "test.ctx", "who", "x"); got != "привет, x" {
		t.Errorf("ru: %q", got)
	}
	if got := T(context.Background(), "test.ctx", "who", "x"); got != "привет, x" {
		t.Errorf("no language: %q", got)
	}
	if got := LangOf(WithLang(en, "de")); got != RU {
		t.Errorf("a language of no table counts as Russian: %s", got)
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
