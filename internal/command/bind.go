package command

import (
	"context"
	"sort"
	"strings"

	"github.com/elemctl/elemctl/internal/argvalue"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// BindError is a refused argument object or command line: its message
// names the arguments as the caller spells them. Each face wraps it in its
// own kind of error (an MCP tool error, an LSP InvalidParams, a host
// call's error, a usage error on the command line).
type BindError struct{ Message string }

func (e *BindError) Error() string { return e.Message }

func bindErrorf(ctx context.Context, key string, args ...any) *BindError {
	return &BindError{Message: i18n.T(ctx, key, args...)}
}

// JSONFace is what a face tells the JSON binder about its argument
// objects.
type JSONFace struct {
	// Naming spells the parameters.
	Naming Naming
	// Called is the command as the caller named it (the tool, the LSP
	// command id, the host call's method), for messages.
	Called string
	// Own are keys the face reads itself (env_file, cwd, …); the binder
	// leaves them alone.
	Own []string
	// Ignored are keys accepted and dropped when the command has no such
	// argument: an editor sends appId to every command.
	Ignored []string
	// ReadOwn reads the face's own keys before the rest is bound (the
	// call's stand, its directory); nil when there are none.
	ReadOwn func(ctx context.Context, given *jsonx.Object) error
	// Amend changes the bound values before the run (an editor's extra
	// command-line words); nil when nothing does.
	Amend func(ctx context.Context, given *jsonx.Object, in Values) error
}

// DecodeArguments reads a call's raw JSON arguments: an object, or
// nothing (empty or null).
func DecodeArguments(ctx context.Context, raw []byte, called string) (*jsonx.Object, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return jsonx.New(), nil
	}
	v, err := jsonx.Decode(raw)
	obj, ok := v.(*jsonx.Object)
	if err != nil || !ok {
		return nil, bindErrorf(ctx, "args.not-object", "command", called)
	}
	return obj, nil
}

// BindJSON binds an argument object of a call of c – the one binder of
// MCP tool calls, LSP commands and plugins' host calls. Values are
// converted by the one table of package argvalue; null is "not given".
func BindJSON(ctx context.Context, c *Command, face JSONFace, given *jsonx.Object) (Values, error) {
	out := NewValues()
	if given == nil {
		given = jsonx.New()
	}
	args := face.Naming.Args(c)
	byName := map[string]Argument{}
	for _, a := range args {
		for _, name := range face.Naming.Names(a) {
			if _, taken := byName[name]; !taken {
				byName[name] = a
			}
		}
	}
	var unknown []string
	present := map[string]any{} // by key
	for _, name := range given.Keys() {
		if containsString(face.Own, name) {
			continue
		}
		a, ok := byName[name]
		if !ok {
			if !containsString(face.Ignored, name) {
				unknown = append(unknown, name)
			}
			continue
		}
		if v := given.Value(name); v != nil {
			present[a.KeyName()] = v
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := make([]string, 0, len(args)+len(face.Own))
		for _, a := range args {
			known = append(known, face.Naming.Names(a)[0])
		}
		known = append(known, face.Own...)
		return out, bindErrorf(ctx, "args.unknown", "command", face.Called, "names", strings.Join(unknown, ", "), "known", strings.Join(known, ", "))
	}
	for _, a := range args {
		name := face.Naming.Names(a)[0]
		v, ok := present[a.KeyName()]
		if !ok {
			if face.Naming.Required(c, a) {
				return out, bindErrorf(ctx, "args.missing", "command", face.Called, "name", name)
			}
			if def, ok := face.Naming.Default(c, a); ok {
				setDefault(out, a, def)
			}
			continue
		}
		conv, err := convertJSON(ctx, a, v, face.Called, name)
		if err != nil {
			return out, err
		}
		out.Set(a.KeyName(), conv)
	}
	setFixed(out, c, face.Naming)
	return out, nil
}

// setDefault stores an argument's default, converted to its type when it
// fits (a plugin's list default, a number default).
func setDefault(out Values, a Argument, def any) {
	if def == nil {
		return
	}
	// A default that does not convert is kept as it is: no message is made.
	if conv, err := convertJSON(context.Background(), a, def, "", ""); err == nil {
		out.Default(a.KeyName(), conv)
		return
	}
	out.Default(a.KeyName(), def)
}

// setFixed stores the defaults of the arguments nobody gives.
func setFixed(out Values, c *Command, n Naming) {
	all := c.Args
	if n == ToolNames {
		all = c.MCPArgs()
	}
	for _, a := range all {
		if a.Fixed {
			out.Default(a.KeyName(), a.Default)
		}
	}
}

// convertJSON converts one JSON value to what the handler reads: string,
// int64, float64, bool; []string for string lists, []any of typed values
// for other lists. A single value stands for a one-element list; an OrList
// argument keeps a single value single.
func convertJSON(ctx context.Context, a Argument, v any, called, name string) (any, error) {
	list, isList := v.([]any)
	switch {
	case isList && !a.Multiple && !a.OrList:
		return nil, wrongType(ctx, a, v, called, name)
	case !isList && (a.OrList || !a.Multiple):
		s, ok := convert(a.Type, v)
		if !ok {
			return nil, wrongType(ctx, a, v, called, name)
		}
		if !a.Bound.Holds(s) {
			return nil, outOfRange(ctx, a, s, called, name)
		}
		return s, checkChoices(ctx, a, s, called, name)
	case !isList:
		list = []any{v}
	}
	typed := make([]any, 0, len(list))
	for _, e := range list {
		s, ok := convert(a.Type, e)
		if !ok {
			return nil, wrongType(ctx, a, v, called, name)
		}
		if !a.Bound.Holds(s) {
			return nil, outOfRange(ctx, a, s, called, name)
		}
		if err := checkChoices(ctx, a, s, called, name); err != nil {
			return nil, err
		}
		typed = append(typed, s)
	}
	return listOf(a, typed), nil
}

// convert converts one value by the table of argvalue into what handlers
// read: an integer is an int.
func convert(t Type, v any) (any, bool) {
	out, ok := argvalue.Convert(string(t), v)
	if n, isInt := out.(int64); isInt {
		return int(n), ok
	}
	return out, ok
}

// listOf is a typed list as handlers read it: []string for strings.
func listOf(a Argument, typed []any) any {
	if a.Type != String && a.Type != "" {
		return typed
	}
	out := make([]string, len(typed))
	for i, s := range typed {
		out[i], _ = s.(string)
	}
	return out
}

// outOfRange refuses a number outside the argument's bound.
func outOfRange(ctx context.Context, a Argument, v any, called, name string) error {
	return bindErrorf(ctx, "args.out-of-range", "command", called, "name", name, "want", i18n.T(ctx, expectedKey(a.Bound, a.Type)), "value", choiceText(v))
}

func wrongType(ctx context.Context, a Argument, got any, called, name string) error {
	want := i18n.T(ctx, typeKey(a.Type))
	switch {
	case a.OrList:
		want = i18n.T(ctx, "args.type-or-list", "one", want)
	case a.Multiple:
		want = i18n.T(ctx, "args.type-list-of", "one", want)
	}
	return bindErrorf(ctx, "args.wrong-type", "command", called, "name", name, "want", want, "got", i18n.T(ctx, gotKey(got)))
}

func typeKey(t Type) string {
	switch t {
	case Int:
		return "args.type-integer"
	case Float:
		return "args.type-number"
	case Bool:
		return "args.type-boolean"
	}
	return "args.type-string"
}

// gotKey describes what the caller sent, without echoing the value.
func gotKey(v any) string {
	switch v.(type) {
	case nil:
		return "args.got-null"
	case *jsonx.Object:
		return "args.got-object"
	case []any:
		return "args.got-array"
	case string:
		return "args.got-string"
	case bool:
		return "args.got-boolean"
	}
	return "args.got-number"
}

// checkChoices refuses a value outside the argument's choices; numbers
// compare as numbers ("02" is the choice 2).
func checkChoices(ctx context.Context, a Argument, v any, called, name string) error {
	if inChoices(a, v) {
		return nil
	}
	return bindErrorf(ctx, "args.choice", "command", called, "name", name, "value", choiceText(v), "choices", strings.Join(a.Choices, ", "))
}

func inChoices(a Argument, v any) bool {
	if len(a.Choices) == 0 {
		return true
	}
	for _, c := range a.Choices {
		if cv, ok := convert(a.Type, c); ok && cv == v {
			return true
		}
	}
	return false
}

// choiceText shows a value as the choices list it.
func choiceText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	raw, _ := jsonx.Compact(v)
	return string(raw)
}

// OwnString reads a string parameter a face takes itself (env_file, cwd)
// by the binder's rules: null or absent is "", anything but a string is
// refused.
func OwnString(ctx context.Context, given *jsonx.Object, name, called string) (string, error) {
	switch v := given.Value(name).(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(v), nil
	default:
		return "", bindErrorf(ctx, "args.wrong-type", "command", called, "name", name, "want", i18n.T(ctx, "args.type-string"), "got", i18n.T(ctx, gotKey(v)))
	}
}
