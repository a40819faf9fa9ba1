package command

import (
	"fmt"
	"strconv"
	"strings"
)

// Values are a command's inputs keyed by Argument.KeyName. Faces fill them
// with string, int, float64, bool and []string values; a key is present
// only when the caller gave it or it has a default.
type Values struct {
	vals  map[string]any
	given map[string]bool
}

// NewValues builds an empty set.
func NewValues() Values { return Values{vals: map[string]any{}, given: map[string]bool{}} }

// Set stores a value the caller gave.
func (v Values) Set(key string, val any) {
	v.vals[key] = val
	v.given[key] = true
}

// Default stores a value nobody gave.
func (v Values) Default(key string, val any) {
	if _, ok := v.vals[key]; !ok {
		v.vals[key] = val
	}
}

// Given tells whether the caller gave key (a default does not count).
func (v Values) Given(key string) bool { return v.given[key] }

// Raw is the stored value.
func (v Values) Raw(key string) (any, bool) {
	val, ok := v.vals[key]
	return val, ok
}

// Keys lists the stored keys.
func (v Values) Keys() []string {
	out := make([]string, 0, len(v.vals))
	for k := range v.vals {
		out = append(out, k)
	}
	return out
}

// Str reads a string ("" when absent).
func (v Values) Str(key string) string {
	switch x := v.vals[key].(type) {
	case string:
		return x
	case nil:
		return ""
	case []string:
		if len(x) > 0 {
			return x[0]
		}
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// Bool reads a boolean (false when absent).
func (v Values) Bool(key string) bool {
	switch x := v.vals[key].(type) {
	case bool:
		return x
	case string:
		b, _ := strconv.ParseBool(x)
		return b
	}
	return false
}

// OptBool reads a tri-state switch: nil when not given.
func (v Values) OptBool(key string) *bool {
	x, ok := v.vals[key].(bool)
	if !ok {
		return nil
	}
	return &x
}

// Int reads an integer (0 when absent).
func (v Values) Int(key string) int {
	switch x := v.vals[key].(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case string:
		n, _ := strconv.Atoi(strings.TrimSpace(x))
		return n
	}
	return 0
}

// Float reads a number (0 when absent).
func (v Values) Float(key string) float64 {
	switch x := v.vals[key].(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	}
	return 0
}

// Strings reads a list (a single string becomes a one-element list).
func (v Values) Strings(key string) []string {
	switch x := v.vals[key].(type) {
	case []string:
		return x
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
		return out
	}
	return nil
}
