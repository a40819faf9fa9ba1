// Package argvalue is the one table of what an argument of each type
// accepts. Every face binds through it – a tool call's JSON (MCP, LSP, a
// plugin's host call), a command line's words – and plugin manifests check
// their defaults and choices with it, so the same input gets the same
// answer wherever it comes from.
package argvalue

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// The types an argument may have.
const (
	String = "str"
	Int    = "int"
	Float  = "float"
	Bool   = "bool"
)

// Convert turns a value into typ: a string (a command-line word or a JSON
// string), a JSON number (json.Number), a bool, or a Go number. It gives
// string, int64, float64 or bool, and false when v does not fit.
//
//   - str: a string; a number stands for its text (a build number 42).
//   - int: an integral number within int64 (5, 5.0, 5e0); a string holding
//     an integer (" 05 ", "+5", "1_000"), not "5.0".
//   - float: a finite number; a string holding one.
//   - bool: true/false; the strings true/false, yes/no, on/off, t/f, y/n,
//     1/0 in any case; the numbers 1 and 0.
func Convert(typ string, v any) (any, bool) {
	switch x := v.(type) {
	case int:
		v = json.Number(strconv.Itoa(x))
	case int64:
		v = json.Number(strconv.FormatInt(x, 10))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		v = json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	}
	switch typ {
	case String, "":
		switch x := v.(type) {
		case string:
			return x, true
		case json.Number:
			return x.String(), true
		}
	case Int:
		switch x := v.(type) {
		case json.Number:
			if n, err := x.Int64(); err == nil {
				return n, true
			}
			if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
				return int64(f), true
			}
		case string:
			if n, ok := ParseInt(x); ok {
				return n, true
			}
		}
	case Float:
		switch x := v.(type) {
		case json.Number:
			if f, err := x.Float64(); err == nil && !math.IsInf(f, 0) {
				return f, true
			}
		case string:
			if f, ok := ParseFloat(x); ok {
				return f, true
			}
		}
	case Bool:
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			if b, ok := ParseBool(x); ok {
				return b, true
			}
		case json.Number:
			if f, err := x.Float64(); err == nil && (f == 0 || f == 1) {
				return f == 1, true
			}
		}
	}
	return nil, false
}

// ParseInt reads an integer the way the reference CLI does: surrounding
// spaces, a sign, leading zeros and digit-separating underscores are fine.
func ParseInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if !isIntText(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	return n, err == nil
}

// isIntText tells whether s is [+-]digits with single underscores between
// digits.
func isIntText(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '_' && s[i-1] != '_':
		default:
			return false
		}
	}
	return true
}

// ParseFloat reads a number in decimal or exponent notation. Infinities
// and NaN are refused: JSON has no way to carry them.
func ParseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "xXpP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// ParseBool reads the words a boolean may be written with.
func ParseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "on", "1":
		return true, true
	case "false", "f", "no", "n", "off", "0":
		return false, true
	}
	return false, false
}

// Bound is the range a number may take.
type Bound int

const (
	// Unbounded: any number.
	Unbounded Bound = iota
	// NonNegative: 0 or more (a count, a limit).
	NonNegative
	// Positive: more than 0 (a timeout).
	Positive
)

// Holds tells whether a converted value is within the bound. A number
// that is no number (NaN) or infinite is within none: Convert never gives
// one, and a caller holding a float64 from elsewhere is refused it too.
func (b Bound) Holds(v any) bool {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
		f = x
	default:
		return true
	}
	switch b {
	case NonNegative:
		return f >= 0
	case Positive:
		return f > 0
	}
	return true
}
