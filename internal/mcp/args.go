package mcp

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// callArguments are a tool call's decoded inputs.
type callArguments struct {
	values command.Values
	// envFile is the call's own env_file ("" = the server's stand).
	envFile string
}

// decodeArguments parses the raw JSON arguments of a call (nil or empty
// means none) and turns them into the handler's values, keyed by
// Argument.KeyName. Values are checked and converted the lenient way
// pydantic does it: "5" is an integer, "true" a boolean, a single value
// stands for a one-element list.
func decodeArguments(c *command.Command, tool string, raw []byte) (callArguments, error) {
	out := callArguments{values: command.NewValues()}
	given := jsonx.New()
	if s := strings.TrimSpace(string(raw)); s != "" && s != "null" {
		v, err := jsonx.Decode(raw)
		if err != nil {
			return out, platform.ConfigErrorf("mcp.server.bad-arguments", "tool", tool)
		}
		obj, ok := v.(*jsonx.Object)
		if !ok {
			return out, platform.ConfigErrorf("mcp.server.bad-arguments", "tool", tool)
		}
		given = obj
	}
	args := c.MCPArgs()
	byName := make(map[string]command.Argument, len(args))
	for _, a := range args {
		byName[paramName(a)] = a
	}
	for _, name := range given.Keys() {
		if _, ok := byName[name]; ok {
			continue
		}
		if name == envFileParam && hasEnvFile(c) {
			v := given.Value(name)
			if v == nil {
				continue
			}
			s, ok := v.(string)
			if !ok {
				return out, wrongType(tool, name, "mcp.server.type-string", v)
			}
			out.envFile = strings.TrimSpace(s)
			continue
		}
		return out, platform.ConfigErrorf("mcp.server.unknown-parameter", "tool", tool, "name", name, "known", strings.Join(knownParams(c), ", "))
	}
	for _, a := range args {
		name := paramName(a)
		key := a.KeyName()
		v, present := given.Get(name)
		if !present || v == nil {
			if required(c, a) {
				return out, platform.ConfigErrorf("mcp.server.missing-parameter", "tool", tool, "name", name)
			}
			if def, ok := defaultValue(c, a); ok && def != nil {
				conv, err := convert(a, def, tool, name)
				if err == nil {
					out.values.Default(key, conv)
				}
			}
			continue
		}
		conv, err := convert(a, v, tool, name)
		if err != nil {
			return out, err
		}
		out.values.Set(key, conv)
	}
	return out, nil
}

// knownParams lists a tool's parameter names for the unknown-parameter
// error, in schema order.
func knownParams(c *command.Command) []string {
	var out []string
	for _, a := range c.MCPArgs() {
		out = append(out, paramName(a))
	}
	if hasEnvFile(c) {
		out = append(out, envFileParam)
	}
	return out
}

// convert turns one JSON value into what the handler reads: string, int,
// float64, bool; []string for string lists, []any of typed values for
// other lists; an OrList parameter keeps a single value single.
func convert(a command.Argument, v any, tool, name string) (any, error) {
	if a.Multiple || a.OrList {
		list, isList := v.([]any)
		if !isList {
			if a.OrList {
				return scalar(a, v, tool, name)
			}
			list = []any{v}
		}
		return convertList(a, list, tool, name)
	}
	if _, isList := v.([]any); isList {
		return nil, wrongType(tool, name, typeKey(a.Type), v)
	}
	return scalar(a, v, tool, name)
}

func convertList(a command.Argument, list []any, tool, name string) (any, error) {
	if a.Type == command.String {
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, err := scalar(a, e, tool, name)
			if err != nil {
				return nil, err
			}
			out = append(out, s.(string))
		}
		return out, nil
	}
	out := make([]any, 0, len(list))
	for _, e := range list {
		s, err := scalar(a, e, tool, name)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// scalar converts a single value to the argument's type.
func scalar(a command.Argument, v any, tool, name string) (any, error) {
	if n, ok := v.(int64); ok {
		v = int(n)
	}
	want := typeKey(a.Type)
	if a.OrList {
		want = "mcp.server.or-list"
	}
	fail := func() (any, error) {
		if a.OrList {
			return nil, &platform.Error{Kind: platform.KindConfig, Message: i18n.T("mcp.server.wrong-type",
				"tool", tool, "name", name, "want", i18n.T(want, "one", i18n.T(typeKey(a.Type))), "got", gotName(v))}
		}
		return nil, wrongType(tool, name, want, v)
	}
	switch a.Type {
	case command.Int:
		switch x := v.(type) {
		case json.Number:
			if n, err := x.Int64(); err == nil {
				return int(n), nil
			}
			if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return int(f), nil
			}
		case string:
			if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
				return n, nil
			}
		case int:
			return x, nil
		case float64:
			if x == math.Trunc(x) {
				return int(x), nil
			}
		}
		return fail()
	case command.Float:
		switch x := v.(type) {
		case json.Number:
			if f, err := x.Float64(); err == nil {
				return f, nil
			}
		case string:
			if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return f, nil
			}
		case int:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return fail()
	case command.Bool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "1", "yes", "on":
				return true, nil
			case "false", "0", "no", "off":
				return false, nil
			}
		case json.Number:
			switch x.String() {
			case "1":
				return true, nil
			case "0":
				return false, nil
			}
		}
		return fail()
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		// A version such as 42 sent as a number means the text "42".
		return x.String(), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return fail()
}

func typeKey(t command.Type) string {
	return "mcp.server.type-" + jsonType(t)
}

func wrongType(tool, name, wantKey string, got any) error {
	return platform.ConfigErrorf("mcp.server.wrong-type", "tool", tool, "name", name, "want", i18n.T(wantKey), "got", gotName(got))
}

// gotName describes what the caller sent, without echoing the value.
func gotName(v any) string {
	switch v.(type) {
	case nil:
		return i18n.T("mcp.server.got-null")
	case *jsonx.Object:
		return i18n.T("mcp.server.got-object")
	case []any:
		return i18n.T("mcp.server.got-array")
	case string:
		return i18n.T("mcp.server.got-string")
	case bool:
		return i18n.T("mcp.server.got-boolean")
	}
	return i18n.T("mcp.server.got-number")
}
