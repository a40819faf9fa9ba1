// Package i18n is elemctl's one message catalog. Messages are keyed
// "<area>.<name>" and come in Russian and English; placeholders are named
// fields such as {app} that are identical in both languages.
package i18n

import (
	"context"
	"fmt"
	"os"
	"slices"
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
	mu sync.RWMutex
	// The entries of the registered tables themselves, not copies: a
	// table is the program's own and never changes once registered.
	order   []*Message          // in registration order
	catalog map[string]*Message // by key
)

// Register adds message tables to the catalog. Nothing registers itself:
// the program registers every table once at start (cmd/elemctl), and a
// test the tables of what it runs. Registering an entry again with the
// same text is harmless; a key given two different texts is a programming
// error and panics.
func Register(tables ...[]Message) {
	mu.Lock()
	defer mu.Unlock()
	// Sized once: the program registers its thousands of messages at
	// every start.
	n := 0
	for _, table := range tables {
		n += len(table)
	}
	if catalog == nil {
		catalog = make(map[string]*Message, n)
	}
	order = slices.Grow(order, n)
	for _, table := range tables {
		for i := range table {
			m := &table[i]
			if prev, dup := catalog[m.Key]; dup {
				if *prev != *m {
					panic("i18n: message registered twice: " + m.Key)
				}
				continue
			}
			catalog[m.Key] = m
			order = append(order, m)
		}
	}
}

func lookup(key string) (Message, bool) {
	mu.RLock()
	defer mu.RUnlock()
	m, ok := catalog[key]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// Messages lists every message registered so far, in registration order.
func Messages() []Message {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Message, len(order))
	for i, m := range order {
		out[i] = *m
	}
	return out
}

// Has tells whether the catalog knows key.
func Has(key string) bool {
	_, ok := lookup(key)
	return ok
}

type langKey struct{}

// WithLang is ctx carrying the language of the call's messages.
func WithLang(ctx context.Context, l Lang) context.Context {
	if l != EN {
		l = RU
	}
	return context.WithValue(ctx, langKey{}, l)
}

// LangOf is the language ctx carries: Russian when it carries none.
func LangOf(ctx context.Context) Lang {
	if ctx != nil {
		if l, ok := ctx.Value(langKey{}).(Lang); ok {
			return l
		}
	}
	return RU
}

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

// T renders key in the language ctx carries. args are name/value pairs:
// T(ctx, "client.apps-summary", "live", 3, "total", 10).
func T(ctx context.Context, key string, args ...any) string { return TL(LangOf(ctx), key, args...) }

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
	out, gaps := format(text, args)
	if len(gaps) > 0 {
		if hook := emptyValueHook.Load(); hook != nil {
			for _, name := range gaps {
				(*hook)(key, name)
			}
		}
	}
	return out
}

var emptyValueHook atomic.Pointer[func(key, name string)]

// SetEmptyValueHook makes TL report every placeholder that was given an
// empty value where a word was expected (between spaces, or before the end
// or a punctuation mark). The message itself never shows the gap as a
// double space; the hook lets tests find the caller that had nothing to
// say. nil removes it.
func SetEmptyValueHook(hook func(key, name string)) {
	if hook == nil {
		emptyValueHook.Store(nil)
		return
	}
	emptyValueHook.Store(&hook)
}

// Format fills {name} fields from name/value pairs; "{{" and "}}" are
// literal braces. Unknown fields are left as they are. An empty value
// where a word stood takes its space with it: "a {x} b" with x empty is
// "a b", never "a  b".
func Format(text string, args ...any) string {
	out, _ := format(text, args)
	return out
}

// format is Format that also names the fields whose empty value closed a
// gap between words.
func format(text string, args []any) (string, []string) {
	if !strings.ContainsAny(text, "{}") {
		return text, nil
	}
	vals := make(map[string]string, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		name, _ := args[i].(string)
		vals[name] = fmt.Sprint(args[i+1])
	}
	var b strings.Builder
	var gaps []string
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
				return b.String(), gaps
			}
			name := text[i+1 : i+end]
			v, ok := vals[name]
			if !ok {
				b.WriteString(text[i : i+end+1])
			} else if v != "" {
				b.WriteString(v)
			} else if afterWord(b.String()) {
				rest := text[i+end+1:]
				switch {
				case strings.HasPrefix(rest, " "):
					i++ // the next space goes: one space between the words
					gaps = append(gaps, name)
				case rest == "" || strings.ContainsAny(rest[:1], ".,;:!?)"):
					trimmed := strings.TrimSuffix(b.String(), " ")
					b.Reset()
					b.WriteString(trimmed)
					gaps = append(gaps, name)
				}
			}
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), gaps
}

// afterWord tells whether text ends with one space after a word: the space
// an empty value would leave doubled (indentation is not such a space).
func afterWord(text string) bool {
	n := len(text)
	return n >= 2 && text[n-1] == ' ' && !strings.ContainsAny(text[n-2:n-1], " \n\t")
}
