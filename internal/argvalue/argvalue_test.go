package argvalue

import (
	"encoding/json"
	"math"
	"testing"
)

func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		typ string
		in  any
		out any
		ok  bool
	}{
		{Int, json.Number("3"), int64(3), true},
		{Int, json.Number("3.0"), int64(3), true},
		{Int, json.Number("3e0"), int64(3), true},
		{Int, json.Number("3.5"), nil, false},
		{Int, json.Number("3000000000"), int64(3000000000), true},
		{Int, " 03 ", int64(3), true},
		{Int, "+3", int64(3), true},
		{Int, "1_000", int64(1000), true},
		{Int, "5.0", nil, false},
		{Int, "x", nil, false},
		{Int, true, nil, false},
		{Int, 7, int64(7), true},
		{Float, "2.5", 2.5, true},
		{Float, "inf", nil, false},
		{Float, "NaN", nil, false},
		{Float, json.Number("1"), 1.0, true},
		{Float, "0x10", nil, false},
		{String, "a", "a", true},
		{String, json.Number("42"), "42", true},
		{String, 3, "3", true},
		{String, true, nil, false},
		{String, []any{"a"}, nil, false},
		{Bool, true, true, true},
		{Bool, "true", true, true},
		{Bool, " Yes ", true, true},
		{Bool, "off", false, true},
		{Bool, "0", false, true},
		{Bool, json.Number("1"), true, true},
		{Bool, json.Number("2"), nil, false},
		{Bool, "maybe", nil, false},
		{Bool, nil, nil, false},
	} {
		got, ok := Convert(tc.typ, tc.in)
		if ok != tc.ok || got != tc.out {
			t.Errorf("Convert(%s, %#v) = %#v, %v; want %#v, %v", tc.typ, tc.in, got, ok, tc.out, tc.ok)
		}
	}
}

func TestIntegerText(t *testing.T) {
	for s, want := range map[string]bool{"1": true, "-12": true, "+1_000": true, "1__0": false, "_1": false, "1_": false, "": false, "+": false, "1.5": false, "0x1": false} {
		if got := isIntText(s); got != want {
			t.Errorf("isIntText(%q) = %v", s, got)
		}
	}
}

func TestBoundsRefuseWhatIsNoNumber(t *testing.T) {
	for _, c := range []struct {
		b    Bound
		v    any
		want bool
	}{
		{Positive, 0.5, true}, {Positive, 0.0, false}, {Positive, -1.0, false},
		{Positive, math.NaN(), false}, {Positive, math.Inf(1), false},
		{NonNegative, 0.0, true}, {NonNegative, int64(-1), false}, {NonNegative, math.Inf(1), false},
		{Unbounded, -5.0, true}, {Unbounded, math.NaN(), false},
		{Positive, "text", true}, // not a number: not the bound's business
	} {
		if got := c.b.Holds(c.v); got != c.want {
			t.Errorf("%v.Holds(%v) = %v, want %v", c.b, c.v, got, c.want)
		}
	}
	for _, word := range []string{"nan", "NaN", "inf", "+Inf", "-Infinity", "1e400"} {
		if v, ok := Convert(Float, word); ok {
			t.Errorf("Convert(float, %q) = %v: no number of seconds", word, v)
		}
	}
}
