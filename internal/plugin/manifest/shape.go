package manifest

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// level is where in the manifest an object sits, and how its refusals
// name it.
type level struct {
	source, command, argument string
	// index of a command or an argument, from 1.
	index int
}

// checkShape checks the decoded manifest against the types of
// plugin/protocol: every field is one the types declare, every value of the
// kind its field takes (null stands for absent); commands and arguments
// are objects with a name; timeouts are positive numbers. What the types
// say is the one description of the file: a field added there is read
// here.
func checkShape(ctx context.Context, source string, top *jsonx.Object) error {
	lv := level{source: source}
	if err := checkFields(ctx, lv, top, reflect.TypeFor[protocol.Manifest]()); err != nil {
		return err
	}
	commands, ok := listOf(top.Value("commands"))
	if !ok {
		return pluginErr(ctx, source, "plugins.not-commands", "index", 0)
	}
	for i, raw := range commands {
		c, ok := raw.(*jsonx.Object)
		if !ok {
			return pluginErr(ctx, source, "plugins.not-commands", "index", i+1)
		}
		name, ok := c.Value("name").(string)
		if !ok || strings.TrimSpace(name) == "" {
			return pluginErr(ctx, source, "plugins.command-name", "index", i+1)
		}
		clv := level{source: source, command: name, index: i + 1}
		if err := checkFields(ctx, clv, c, reflect.TypeFor[protocol.CommandSpec]()); err != nil {
			return err
		}
		args, ok := listOf(c.Value("arguments"))
		if !ok {
			return commandErr(ctx, source, name, "plugins.not-argument", "index", 0)
		}
		for j, raw := range args {
			a, ok := raw.(*jsonx.Object)
			if !ok {
				return commandErr(ctx, source, name, "plugins.not-argument", "index", j+1)
			}
			argName, ok := a.Value("name").(string)
			if !ok || strings.TrimSpace(argName) == "" {
				return commandErr(ctx, source, name, "plugins.argument-name", "index", j+1)
			}
			alv := level{source: source, command: name, argument: argName, index: j + 1}
			if err := checkFields(ctx, alv, a, reflect.TypeFor[protocol.ArgumentSpec]()); err != nil {
				return err
			}
		}
	}
	return nil
}

// listOf is a JSON array, or nothing for null.
func listOf(v any) ([]any, bool) {
	if v == nil {
		return nil, true
	}
	list, ok := v.([]any)
	return list, ok
}

// checkFields checks one object against the struct type t: the unknown
// field first, then each value's kind.
func checkFields(ctx context.Context, lv level, o *jsonx.Object, t reflect.Type) error {
	fields := jsonFields(t)
	for _, k := range o.Keys() {
		if _, ok := fields[k]; !ok {
			return lv.refuse(ctx, "field-unknown", "field", k)
		}
	}
	for _, k := range o.Keys() {
		v, f := o.Value(k), fields[k]
		if v == nil || f.Type == rawType || k == "commands" || k == "arguments" {
			continue // null is absent; raw fields and lists of objects are read by their own rules
		}
		if k == "timeout" || k == "startup_timeout" {
			if n, ok := v.(json.Number); !ok || !positive(n) {
				return lv.refuseTimeout(ctx, k)
			}
			continue
		}
		if !fits(v, f.Type) {
			if lv.argument != "" && k == "type" {
				return lv.refuse(ctx, "argument-type", "type", compact(v), "types", strings.Join(Types, ", "))
			}
			return lv.refuse(ctx, "field-type", "field", k, "want", want(f.Type))
		}
	}
	return nil
}

var rawType = reflect.TypeFor[json.RawMessage]()

// manifestFields are the JSON fields of the manifest's three types, read
// from their tags when the first manifest is read.
var manifestFields = sync.OnceValue(func() map[reflect.Type]map[string]reflect.StructField {
	out := map[reflect.Type]map[string]reflect.StructField{}
	for _, t := range []reflect.Type{reflect.TypeFor[protocol.Manifest](), reflect.TypeFor[protocol.CommandSpec](), reflect.TypeFor[protocol.ArgumentSpec]()} {
		fields := map[string]reflect.StructField{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				fields[name] = f
			}
		}
		out[t] = fields
	}
	return out
})

// jsonFields are the fields of t, one of the manifest's types, by their
// JSON names.
func jsonFields(t reflect.Type) map[string]reflect.StructField { return manifestFields()[t] }

// assign sets dst from a decoded JSON value whose shape checkShape
// accepted: the manifest's types are filled from the one decoded document.
// A value of any type keeps its decoded form (json.Number, *jsonx.Object),
// as the argument values' conversion reads it; a raw field gets the value
// written back.
func assign(dst reflect.Value, v any) {
	if v == nil {
		return
	}
	switch {
	case dst.Type() == rawType:
		raw, _ := jsonx.Compact(v)
		dst.SetBytes(raw)
		return
	case dst.Kind() == reflect.Interface:
		dst.Set(reflect.ValueOf(v))
		return
	}
	switch dst.Kind() {
	case reflect.Struct:
		o := v.(*jsonx.Object)
		fields := jsonFields(dst.Type())
		for _, k := range o.Keys() {
			assign(dst.FieldByIndex(fields[k].Index), o.Value(k))
		}
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		assign(p.Elem(), v)
		dst.Set(p)
	case reflect.Slice:
		list := v.([]any)
		s := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, e := range list {
			assign(s.Index(i), e)
		}
		dst.Set(s)
	case reflect.String:
		dst.SetString(v.(string))
	case reflect.Bool:
		dst.SetBool(v.(bool))
	case reflect.Float64:
		f, _ := v.(json.Number).Float64()
		dst.SetFloat(f)
	}
}

// fits tells whether a decoded JSON value has the kind of a field of type
// t.
func fits(v any, t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Float64:
		_, ok := v.(json.Number)
		return ok
	case reflect.Interface:
		return true
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			if e == nil && t.Elem().Kind() != reflect.Interface || e != nil && !fits(e, t.Elem()) {
				return false
			}
		}
		return true
	}
	return false
}

// want names the kind a field takes, for a refusal.
func want(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Interface {
			return "[…]"
		}
		return "[" + want(t.Elem()) + "]"
	}
	return "string"
}

func positive(n json.Number) bool {
	x, err := n.Float64()
	return err == nil && x > 0 && !math.IsInf(x, 0)
}

// refuse is a refusal at the level: the plugin's, a command's or an
// argument's message of the same kind.
func (lv level) refuse(ctx context.Context, kind string, args ...any) error {
	switch {
	case lv.argument != "":
		return commandErr(ctx, lv.source, lv.command, argumentKeys[kind], append([]any{"argument", lv.argument}, args...)...)
	case lv.command != "":
		return commandErr(ctx, lv.source, lv.command, "plugins."+kind, args...)
	}
	return pluginErr(ctx, lv.source, "plugins."+kind, args...)
}

// argumentKeys are the messages of an argument's refusals.
var argumentKeys = map[string]string{
	"field-unknown": "plugins.argument-field-unknown",
	"field-type":    "plugins.argument-field-type",
	"argument-type": "plugins.argument-type",
}

func (lv level) refuseTimeout(ctx context.Context, field string) error {
	return lv.refuse(ctx, "timeout-invalid", "field", field)
}
