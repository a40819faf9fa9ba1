package command

import "strings"

// Naming is how a face spells a command's arguments.
type Naming int

const (
	// CLINames: the command line's options (--project-id) and positionals
	// (their METAVAR).
	CLINames Naming = iota
	// ToolNames: tool parameters in snake_case (project_id), over the
	// command's tool arguments: MCP and a plugin's host calls.
	ToolNames
	// CamelNames: the command-line arguments' keys in camelCase
	// (projectId): LSP commands.
	CamelNames
)

// Args are the arguments a caller of this naming may give: the tool
// arguments for ToolNames, the command-line ones otherwise; fixed
// arguments are nobody's to give.
func (n Naming) Args(c *Command) []Argument {
	all := c.Args
	if n == ToolNames {
		all = c.MCPArgs()
	}
	out := make([]Argument, 0, len(all))
	for _, a := range all {
		if !a.Fixed {
			out = append(out, a)
		}
	}
	return out
}

// Names are the names a caller of this naming may give an argument by,
// the usual one first.
func (n Naming) Names(a Argument) []string {
	switch n {
	case ToolNames:
		return []string{ParamName(a)}
	case CamelNames:
		out := []string{Camel(a.KeyName())}
		for _, alt := range []string{a.KeyName(), Camel(a.Name)} {
			if alt != "" && !containsString(out, alt) {
				out = append(out, alt)
			}
		}
		return out
	}
	if a.Positional {
		return []string{Metavar(a)}
	}
	return []string{"--" + a.Name}
}

// ArgName spells the argument stored under key; usage adds the value's
// placeholder of a command-line option.
func (n Naming) ArgName(c *Command, key string, usage bool) string {
	for _, a := range n.Args(c) {
		if a.KeyName() != key {
			continue
		}
		name := n.Names(a)[0]
		if usage && n == CLINames && !a.Positional && a.Type != Bool {
			name += " " + Metavar(a)
		}
		return name
	}
	return key
}

// Giving spells giving the argument stored under key: its name, and for
// a switch outside the command line "=true" after it; ok is false when
// this naming has no such argument.
func (n Naming) Giving(c *Command, key string) (string, bool) {
	for _, a := range n.Args(c) {
		if a.KeyName() != key {
			continue
		}
		name := n.Names(a)[0]
		if a.Type == Bool && n != CLINames {
			name += "=true"
		}
		return name, true
	}
	return "", false
}

// Required tells whether a caller must give the argument. No tool
// parameter is when the command makes them all optional.
func (n Naming) Required(c *Command, a Argument) bool {
	return a.Required && (n != ToolNames || !c.OptionalToolArgs)
}

// Default is what the handler gets for an argument the caller left out,
// and what a tool's schema shows; ok is false when it gets nothing. A tool
// parameter that is not required always has a default, as the reference
// server's schema gives one: false, an empty list, "" or null.
func (n Naming) Default(c *Command, a Argument) (any, bool) {
	if n.Required(c, a) {
		return nil, false
	}
	if a.Default != nil {
		if a.Multiple {
			return listValue(a.Default), true
		}
		return a.Default, true
	}
	if n != ToolNames {
		return nil, false
	}
	switch {
	case a.Type == Bool && !a.Nullable:
		return false, true
	case a.Multiple:
		return []any{}, true
	case a.Nullable || c.OptionalToolArgs:
		return nil, true
	case a.Type == String:
		return "", true
	}
	return nil, false
}

// listValue copies a declared list default into a fresh JSON array.
func listValue(v any) []any {
	switch x := v.(type) {
	case []any:
		return append([]any{}, x...)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	}
	return []any{v}
}

// ParamName is an argument's tool parameter name: the name without
// leading dashes, inner dashes turned into underscores (the reference's
// "dest").
func ParamName(a Argument) string {
	return strings.ReplaceAll(strings.TrimLeft(a.Name, "-"), "-", "_")
}

// Camel turns "server-start-timeout" (or "dry_run") into
// "serverStartTimeout".
func Camel(key string) string {
	parts := strings.FieldsFunc(key, func(r rune) bool { return r == '-' || r == '_' })
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// Metavar names an argument's value on the command line: its Metavar, or
// its key in capitals ("APP_ID").
func Metavar(a Argument) string {
	if a.Metavar != "" {
		return a.Metavar
	}
	return strings.ToUpper(strings.ReplaceAll(a.KeyName(), "-", "_"))
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// Defaults are the values a caller of this naming gets for c when it gives
// nothing: every default, fixed arguments included. Callers that build
// values by hand (tests) start from them.
func (n Naming) Defaults(c *Command) Values {
	out := NewValues()
	for _, a := range n.Args(c) {
		if def, ok := n.Default(c, a); ok {
			setDefault(out, a, def)
		}
	}
	setFixed(out, c, n)
	return out
}
