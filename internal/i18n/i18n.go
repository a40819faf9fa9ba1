// Package i18n is elemctl's one message catalog. Messages are keyed
// "<area>.<name>" and come in Russian and English; placeholders are named
// fields such as {app} that are identical in both languages.
package i18n

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// Lang is a message language.
type Lang string

const (
	RU Lang = "ru"
	EN Lang = "en"
)

// Message is one catalog entry.
type Message struct{ Key, RU, EN string }

var (
	mu      sync.Mutex
	tables  [][]Message
	indexed int // how many of tables are in catalog
	total   int // messages in tables
	catalog map[string]Message
	current atomic.Value // Lang
)

func init() { current.Store(RU) }

// Register adds a table of messages to the catalog. Areas declare their
// tables as package-level slices and register them from init; the catalog
// indexes them on first use. A key registered twice is a programming
// error.
func Register(msgs []Message) {
	mu.Lock()
	defer mu.Unlock()
	tables = append(tables, msgs)
	total += len(msgs)
}

// lookup finds a message through the index, extended with the tables
// registered since the last lookup.
func lookup(key string) (Message, bool) {
	mu.Lock()
	defer mu.Unlock()
	indexLocked()
	m, ok := catalog[key]
	return m, ok
}

// Index indexes every table registered so far, panicking on a key
// registered twice.
func Index() {
	mu.Lock()
	defer mu.Unlock()
	indexLocked()
}

func indexLocked() {
	if catalog == nil {
		catalog = make(map[string]Message, total)
	}
	for ; indexed < len(tables); indexed++ {
		for _, m := range tables[indexed] {
			if _, dup := catalog[m.Key]; dup {
				panic("i18n: message registered twice: " + m.Key)
			}
			catalog[m.Key] = m
		}
	}
}

// Has tells whether the catalog knows key.
func Has(key string) bool {
	_, ok := lookup(key)
	return ok
}

// SetLang sets the process-wide language.
func SetLang(l Lang) {
	if l != EN {
		l = RU
	}
	current.Store(l)
}

// Current is the process-wide language.
func Current() Lang { return current.Load().(Lang) }

// Parse turns "ru"/"en" (any case, with a locale tail such as "en_US.UTF-8")
// into a language; ok is false for anything else.
func Parse(s string) (Lang, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasPrefix(s, "ru"):
		return RU, true
	case strings.HasPrefix(s, "en"):
		return EN, true
	}
	return "", false
}

// Detect applies the precedence flag > ELEMCTL_LANG > the user's locale >
// Russian. A flag or ELEMCTL_LANG counts only when it names ru or en; the
// locale is the operating system's (UserLocale).
func Detect(flag string, getenv func(string) string) Lang {
	return DetectWith(flag, getenv, UserLocale)
}

// DetectWith is Detect with the locale read by locale instead of the
// operating system, so the choice can be tested for any system.
func DetectWith(flag string, getenv func(string) string, locale func(getenv func(string) string) string) Lang {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, v := range []string{flag, getenv("ELEMCTL_LANG")} {
		if l, ok := Parse(v); ok {
			return l
		}
	}
	if locale != nil {
		if l, ok := FromLocale(locale(getenv)); ok {
			return l
		}
	}
	return RU
}

// FromLocale is the message language of a locale name as an operating
// system or an editor gives it ("ru_RU.UTF-8", "ru-RU", "en", "de_DE",
// "C"): Russian for ru*, English for anything else. ok is false when the
// name is empty, that is when no locale is set. "C" and "POSIX" are the
// locale of untranslated messages, which are English.
func FromLocale(name string) (l Lang, ok bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", false
	}
	if strings.HasPrefix(strings.ToLower(name), "ru") {
		return RU, true
	}
	return EN, true
}

// POSIXLocale is the locale of messages as POSIX resolves it: the first
// non-empty of LC_ALL, LC_MESSAGES and LANG.
func POSIXLocale(getenv func(string) string) string {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
	}
	return ""
}

// T renders key in the current language. args are name/value pairs:
// T("client.apps-summary", "live", 3, "total", 10).
func T(key string, args ...any) string { return TL(Current(), key, args...) }

// TL renders key in language l. An unknown key is returned as is, so a
// missing message shows its key instead of nothing.
func TL(l Lang, key string, args ...any) string {
	m, ok := lookup(key)
	text := key
	if ok {
		text = m.RU
		if l == EN {
			text = m.EN
		}
	}
	return Format(text, args...)
}

// Format fills {name} fields from name/value pairs; "{{" and "}}" are
// literal braces. Unknown fields are left as they are.
func Format(text string, args ...any) string {
	if !strings.ContainsAny(text, "{}") {
		return text
	}
	vals := make(map[string]string, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		vals[name] = fmt.Sprint(args[i+1])
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '{' && i+1 < len(text) && text[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(text) && text[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				b.WriteString(text[i:])
				return b.String()
			}
			name := text[i+1 : i+end]
			if v, ok := vals[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(text[i : i+end+1])
			}
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
