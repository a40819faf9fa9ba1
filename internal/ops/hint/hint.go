// Package hint describes a command the user runs later – to check an
// outcome, to finish a cleanup, to do what an interrupted run did not – so
// that every face spells it its own way: a command line with the
// connection options the user gave, or a tool call with its parameters.
// Operations build hints; the face that runs them renders them (see
// Renderer), so a hint printed anywhere is built in one place.
package hint

import (
	"context"
	"strings"
)

// Command is a command to run later.
type Command struct {
	// Path is the command's path on the command line: {"verify-deploy"},
	// {"apps", "apply"}.
	Path []string
	// Args are its arguments by the catalog's keys, in the order they are
	// written.
	Args []Arg
	// Tool, when set, is the tool a tool face calls instead of the
	// command's own (probe --cleanup is the probe_cleanup tool).
	Tool string
	// Then is a second tool call that completes the first on a tool face
	// (apply_build starts an apply that verify_deploy checks); the command
	// line's command does both.
	Then *Command
}

// Arg is one argument of a hint: the catalog's key and its value (a
// string, true for a switch, or a list of strings for a repeated option).
type Arg struct {
	Key   string
	Value any
	// Positional tells Plain to write the value without its option; a
	// face renders by the command's declaration instead.
	Positional bool
}

// Pos is a positional argument.
func Pos(key string, value string) Arg { return Arg{Key: key, Value: value, Positional: true} }

// Opt is an option with a value; an empty value is left out.
func Opt(key string, value string) Arg { return Arg{Key: key, Value: value} }

// Switch is an option without a value.
func Switch(key string) Arg { return Arg{Key: key, Value: true} }

// Renderer spells a hint for the face that shows it, in the language of
// ctx.
type Renderer func(ctx context.Context, c Command) string

// Render spells c with r, or as Plain when r is nil.
func (r Renderer) Render(ctx context.Context, c Command) string {
	if r == nil {
		return Plain(c)
	}
	return r(ctx, c)
}

// Plain is a hint as a command line without connection options, for
// callers that render no face (tests of the operations).
func Plain(c Command) string {
	words := append([]string{"elemctl"}, c.Path...)
	for _, a := range c.Args {
		words = append(words, PlainArg(a.Key, a.Value, a.Positional)...)
	}
	return strings.Join(words, " ")
}

// PlainArg spells one argument on a command line: a positional's value,
// "--key value", "--key" for a switch, the option once per value of a list.
// An empty value is left out.
func PlainArg(name string, value any, positional bool) []string {
	switch v := value.(type) {
	case bool:
		if v && !positional {
			return []string{"--" + name}
		}
		return nil
	case []string:
		var out []string
		for _, s := range v {
			out = append(out, PlainArg(name, s, positional)...)
		}
		return out
	case string:
		if v == "" {
			return nil
		}
		if positional {
			return []string{Quote(v)}
		}
		return []string{"--" + name, Quote(v)}
	}
	return nil
}

// Quote makes a value one word of a shell's command line: as it is when it
// has only plain characters, else in double quotes (which POSIX shells,
// PowerShell and cmd.exe all read as one word), with the characters a
// POSIX shell expands inside them escaped. A Windows path keeps its
// backslashes: inside double quotes a POSIX shell keeps a backslash that
// escapes nothing.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,") == "" {
		return s
	}
	const special = "\"$`"
	runes := []rune(s)
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range runes {
		switch {
		case strings.ContainsRune(special, r):
			b.WriteByte('\\')
		case r == '\\' && (i == len(runes)-1 || strings.ContainsRune(special+"\\", runes[i+1])):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
