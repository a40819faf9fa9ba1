package mcp

import (
	"context"
	"strings"
	"unicode"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// envFileParam is the parameter every platform tool gets from the core.
const envFileParam = "env_file"

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

// required tells whether the schema lists the argument as required.
func required(c *command.Command, a command.Argument) bool { return command.ToolNames.Required(c, a) }

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
func propertySchema(ctx context.Context, c *command.Command, a command.Argument) *jsonx.Object {
	p := typeSchema(a)
	// A null default is shown only where the type admits null: a plugin's
	// string without a default is simply optional (its handler still gets
	// null when it is left out).
	if def, ok := command.ToolNames.Default(c, a); ok && (def != nil || a.Nullable) {
		p.Set("default", def)
	}
	p.Set("title", title(command.ParamName(a)))
	if a.Help != "" {
		p.Set("description", i18n.T(ctx, a.Help))
	}
	return p
}

// hasEnvFile tells whether a tool takes env_file: every tool that may talk
// to the platform does, local ones do not.
func hasEnvFile(c *command.Command) bool { return !c.Local }

// envFileSchema is the env_file parameter the core appends.
func envFileSchema(ctx context.Context) *jsonx.Object {
	return jsonx.New("type", "string", "default", "", "title", title(envFileParam), "description", i18n.T(ctx, "mcp.server.arg-env-file"))
}

// InputSchema is the JSON Schema of a command's MCP parameters, in
// declaration order, with env_file last for platform tools.
func InputSchema(ctx context.Context, c *command.Command) *jsonx.Object {
	props := jsonx.New()
	var req []any
	for _, a := range command.ToolNames.Args(c) {
		name := command.ParamName(a)
		props.Set(name, propertySchema(ctx, c, a))
		if required(c, a) {
			req = append(req, name)
		}
	}
	if hasEnvFile(c) && !props.Has(envFileParam) {
		props.Set(envFileParam, envFileSchema(ctx))
	}
	schema := jsonx.New("type", "object", "properties", props)
	if len(req) > 0 {
		schema.Set("required", req)
	}
	return schema
}

// Description is a tool's localized description.
func Description(ctx context.Context, c *command.Command) string {
	key := c.ToolHelp
	if key == "" {
		key = c.Help
	}
	return i18n.T(ctx, key)
}
