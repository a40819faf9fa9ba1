package command

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// A typed input is a struct whose fields carry `arg:"key"` tags: Fill sets
// each from the value bound under the argument's key (Argument.KeyName).
// The field's type says how the value is read:
//
//	string, bool, int, float64, []string  the value (zero when absent)
//	*bool, *string                         nil when the caller gave nothing
//	                                       (a tri-state switch, a flag that
//	                                       overrides even when empty)
//
// A bool tagged `arg:"key,given"` tells whether the caller gave the
// argument (a default or a fixed value is not given). An embedded struct
// brings its own tagged fields (the shared arguments of two commands).
const argTag = "arg"

// Handle makes run the handler of c over its typed input T. Catalog.Check
// refuses a command whose input names an argument it does not declare.
func Handle[T any](c *Command, run func(ctx context.Context, cc *Context, in T) (any, error)) *Command {
	c.input = reflect.TypeFor[T]()
	c.Run = func(ctx context.Context, cc *Context, in Values) (any, error) {
		var typed T
		Fill(&typed, in)
		return run(ctx, cc, typed)
	}
	return c
}

// Fill sets the tagged fields of the struct dst points to from in.
func Fill(dst any, in Values) { fill(reflect.ValueOf(dst).Elem(), in) }

func fill(v reflect.Value, in Values) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf, f := t.Field(i), v.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			fill(f, in)
			continue
		}
		tag, ok := sf.Tag.Lookup(argTag)
		if !ok {
			continue
		}
		key, mode, _ := strings.Cut(tag, ",")
		switch x := f.Interface().(type) {
		case bool:
			if mode == "given" {
				f.SetBool(in.Given(key))
			} else {
				f.SetBool(in.Bool(key))
			}
		case string:
			f.SetString(in.Str(key))
		case int:
			f.SetInt(int64(in.Int(key)))
		case float64:
			f.SetFloat(in.Float(key))
		case []string:
			f.Set(reflect.ValueOf(in.Strings(key)))
		case *bool:
			f.Set(reflect.ValueOf(in.OptBool(key)))
		case *string:
			if in.Given(key) {
				s := in.Str(key)
				f.Set(reflect.ValueOf(&s))
			}
		default:
			panic(fmt.Sprintf("command: input field %s.%s has a type no argument fills: %T", t.Name(), sf.Name, x))
		}
	}
}

// inputKeys are the argument keys an input type reads, embedded structs'
// included.
func inputKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			out = append(out, inputKeys(sf.Type)...)
			continue
		}
		if tag, ok := sf.Tag.Lookup(argTag); ok {
			key, _, _ := strings.Cut(tag, ",")
			out = append(out, key)
		}
	}
	return out
}

// checkInput refuses an input type whose tags name no argument of c.
func checkInput(c *Command) error {
	if c.input == nil {
		return nil
	}
	declared := map[string]bool{}
	for _, args := range [][]Argument{c.Args, c.ToolArgs} {
		for _, a := range args {
			declared[a.KeyName()] = true
		}
	}
	var unknown []string
	for _, key := range inputKeys(c.input) {
		if !declared[key] {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("command: %s reads arguments it does not declare: %s", c.Name(), strings.Join(unknown, ", "))
	}
	Fill(reflect.New(c.input).Interface(), NewValues()) // every field's type can be filled (or panics)
	return nil
}
