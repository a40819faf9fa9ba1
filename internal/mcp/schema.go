package mcp

import (
	"strings"
	"unicode"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// envFileParam is the parameter every platform tool gets from the core.
const envFileParam = "env_file"

// paramName is an argument's MCP parameter name: the name without leading
// dashes, inner dashes turned into underscores (the reference's "dest").
func paramName(a command.Argument) string {
	return strings.ReplaceAll(strings.TrimLeft(a.Name, "-"), "-", "_")
}

// jsonType is the JSON Schema type of an argument type.
func jsonType(t command.Type) string {
	switch t {
	case command.Int:
		return "integer"
	case command.Float:
		return "number"
	case command.Bool:
		return "boolean"
	}
	return "string"
}

// title is the pydantic-style title of a parameter: "app_id" → "App Id".
func title(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		for j := 1; j < len(r); j++ {
			r[j] = unicode.ToLower(r[j])
		}
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// isPlugin tells whether a command came from a plugin: its parameters all
// carry defaults and none is listed as required (spec §1.7).
func isPlugin(c *command.Command) bool { return c.Source != "" }

// required tells whether the schema lists the argument as required.
func required(c *command.Command, a command.Argument) bool { return a.Required && !isPlugin(c) }

// defaultValue is the default a parameter shows in the schema and the
// handler receives when the caller leaves it out; ok is false when the
// parameter has no default at all.
func defaultValue(c *command.Command, a command.Argument) (any, bool) {
	if required(c, a) {
		return nil, false
	}
	if a.Default != nil {
		if a.Multiple {
			return listValue(a.Default), true
		}
		return a.Default, true
	}
	switch {
	case a.Type == command.Bool && !a.Nullable:
		return false, true
	case a.Multiple:
		return []any{}, true
	case a.Nullable || isPlugin(c):
		return nil, true
	case a.Type == command.String:
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
	case []int:
		out := make([]any, len(x))
		for i, n := range x {
			out[i] = n
		}
		return out
	case []float64:
		out := make([]any, len(x))
		for i, f := range x {
			out[i] = f
		}
		return out
	}
	return []any{v}
}

// typeSchema is the type part of a parameter's schema: a scalar, an array
// for Multiple, a scalar-or-array for OrList, plus null for Nullable.
func typeSchema(a command.Argument) *jsonx.Object {
	scalar := func() *jsonx.Object { return jsonx.New("type", jsonType(a.Type)) }
	array := func() *jsonx.Object { return jsonx.New("type", "array", "items", scalar()) }
	var variants []any
	switch {
	case a.OrList:
		variants = append(variants, scalar(), array())
	case a.Multiple:
		variants = append(variants, array())
	default:
		variants = append(variants, scalar())
	}
	if a.Nullable {
		variants = append(variants, jsonx.New("type", "null"))
	}
	if len(variants) == 1 {
		return variants[0].(*jsonx.Object)
	}
	return jsonx.New("anyOf", variants)
}

// propertySchema is one parameter's schema: type, default, title and the
// localized help.
func propertySchema(c *command.Command, a command.Argument) *jsonx.Object {
	p := typeSchema(a)
	if def, ok := defaultValue(c, a); ok {
		p.Set("default", def)
	}
	p.Set("title", title(paramName(a)))
	if a.Help != "" {
		p.Set("description", i18n.T(a.Help))
	}
	return p
}

// hasEnvFile tells whether a tool takes env_file: every tool that may talk
// to the platform does, local ones do not.
func hasEnvFile(c *command.Command) bool { return !c.Local }

// envFileSchema is the env_file parameter the core appends.
func envFileSchema() *jsonx.Object {
	return jsonx.New("type", "string", "default", "", "title", title(envFileParam), "description", i18n.T("mcp.server.arg-env-file"))
}

// InputSchema is the JSON Schema of a command's MCP parameters, in
// declaration order, with env_file last for platform tools.
func InputSchema(c *command.Command) *jsonx.Object {
	props := jsonx.New()
	var req []any
	for _, a := range c.MCPArgs() {
		name := paramName(a)
		props.Set(name, propertySchema(c, a))
		if required(c, a) {
			req = append(req, name)
		}
	}
	if hasEnvFile(c) && !props.Has(envFileParam) {
		props.Set(envFileParam, envFileSchema())
	}
	schema := jsonx.New("type", "object", "properties", props)
	if len(req) > 0 {
		schema.Set("required", req)
	}
	return schema
}

// Description is a tool's localized description.
func Description(c *command.Command) string {
	key := c.ToolHelp
	if key == "" {
		key = c.Help
	}
	return i18n.T(key)
}
