package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// skipsWhole tells whether SkipValue reads all of data as one value.
func skipsWhole(data []byte) bool {
	l := NewLexer(data)
	if l.SkipValue() != nil {
		return false
	}
	l.SkipSpace()
	return l.Rest() == 0
}

// The Lexer reads what encoding/json reads. Escapes are checked only when
// a string is decoded, so text with a backslash may pass SkipValue where
// encoding/json refuses it.
func FuzzLexerAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `""`, `0`, `-0.5e+7`, `1E-2`, `true`, `null`, `false`,
		` {"a" : [1, "x", {"b": null}], "c": "\u00e9\"\\"} `,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, `01`, `1.`, `.5`, `-`, `1e`, `tru`, `nul`,
		`"a` + "\t" + `b"`, `"unterminated`, `"\q"`, `"` + strings.Repeat("long ", 30) + `\"x"`,
		`"` + strings.Repeat("x", 100) + "\x01" + `"`, `"\\\\"`, `"\\\"`, `[[[[[]]]]]`, `{"a":{"b":{"c":[]}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ours, std := skipsWhole(data), json.Valid(data)
		if std && !ours {
			t.Fatalf("encoding/json reads %q, the Lexer refuses it", data)
		}
		if ours && !std && !bytes.Contains(data, []byte(`\`)) {
			t.Fatalf("the Lexer reads %q, encoding/json refuses it", data)
		}
	})
}

func TestStringFindsTheEndAndTheEscapes(t *testing.T) {
	long := strings.Repeat("Значение ", 20)
	for _, c := range []struct {
		in, raw string
		escaped bool
	}{
		{`""`, ``, false},
		{`"plain"`, `plain`, false},
		{`"a\"b"`, `a\"b`, true},
		{`"a\\"`, `a\\`, true},
		{`"a\\\"b"`, `a\\\"b`, true},
		{`"` + long + `"`, long, false},
		{`"` + long + `\"` + long + `\\"`, long + `\"` + long + `\\`, true},
	} {
		l := NewLexer([]byte(c.in + `,`))
		raw, escaped, err := l.String()
		if err != nil || string(raw) != c.raw || escaped != c.escaped || l.Peek() != ',' {
			t.Errorf("String(%s) = %q %v %v, at %d", c.in, raw, escaped, err, l.Pos())
		}
	}
	// A control character is refused where it stands, in a short string
	// and in a long one, in any byte of an eight-byte word.
	for _, prefix := range []int{0, 3, 7, 8, 47, 48, 49, 100, 131} {
		in := `"` + strings.Repeat("x", prefix) + "\x1f" + `tail"`
		l := NewLexer([]byte(in))
		_, _, err := l.String()
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != 1+prefix || !strings.Contains(se.What, "control") {
			t.Errorf("a control character after %d bytes: %v", prefix, err)
		}
	}
	for _, bad := range []string{`"open`, `"ends with a backslash\"`, `no quote`} {
		l := NewLexer([]byte(bad))
		if _, _, err := l.String(); err == nil {
			t.Errorf("String(%s) read it", bad)
		}
	}
}

func TestUnquoteDecodesAsEncodingJSON(t *testing.T) {
	for _, in := range []string{`plain`, `a\"b\\c\/d\n\t`, `\u00e9\u0444`, `\ud83d\ude00`, `\ud83d`, "bad\xffutf8", "ok\u2028"} {
		got, ok := Unquote([]byte(in))
		var want string
		if err := json.Unmarshal([]byte(`"`+in+`"`), &want); err != nil || !ok || got != want {
			t.Errorf("Unquote(%q) = %q %v, encoding/json %q %v", in, got, ok, want, err)
		}
	}
	if _, ok := Unquote([]byte(`\q`)); ok {
		t.Error(`Unquote read \q`)
	}
}

func TestMembersWalksTheTopLevel(t *testing.T) {
	type member struct{ key, value string }
	var got []member
	err := Members([]byte(` { "a" : [1, {"x": "}"}] , "b\u0063":"s" ,"n":-1.5e3, "z" : null } `), func(key string, value []byte) error {
		got = append(got, member{key, string(value)})
		return nil
	})
	want := []member{{"a", `[1, {"x": "}"}]`}, {"bc", `"s"`}, {"n", `-1.5e3`}, {"z", `null`}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v %v", got, err)
	}
	stop := errors.New("stop")
	if err := Members([]byte(`{"a":1,"b":2}`), func(string, []byte) error { return stop }); err != stop {
		t.Errorf("fn's error: %v", err)
	}
	for _, bad := range []string{``, `[]`, `{"a":1`, `{"a":1} x`, `{"a":}`, `{a:1}`, `{"a":1,}`} {
		var se *SyntaxError
		if err := Members([]byte(bad), func(string, []byte) error { return nil }); !errors.As(err, &se) {
			t.Errorf("Members(%s): %v", bad, err)
		}
	}
}

func TestSkipSpaceAndComments(t *testing.T) {
	l := NewLexer([]byte(" // one\n /* two\n */\t1"))
	if err := l.SkipSpaceAndComments(); err != nil || l.Peek() != '1' {
		t.Errorf("at %d: %v", l.Pos(), err)
	}
	l = NewLexer([]byte("/ 1"))
	if err := l.SkipSpaceAndComments(); err != nil || l.Peek() != '/' {
		t.Errorf("a lone slash is not a comment: at %d, %v", l.Pos(), err)
	}
	l = NewLexer([]byte("  /* open"))
	var se *SyntaxError
	if err := l.SkipSpaceAndComments(); !errors.As(err, &se) || se.Offset != 2 {
		t.Errorf("an unterminated comment: %v", err)
	}
}

func TestSkipValueRefusesDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	if skipsWhole([]byte(deep)) {
		t.Error("skipped nesting deeper than MaxDepth")
	}
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if !skipsWhole([]byte(ok)) {
		t.Error("refused nesting of 100")
	}
}

func TestSyntaxErrorNamesLineAndColumn(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\"a\": 1,\n  \"b\": }", "invalid JSON at line 2, column 8: unexpected character"},
		{"[1, 2", "invalid JSON at line 1, column 6: unterminated array"},
		{"{}\n{}", "invalid JSON at line 2, column 1: data after the JSON value"},
	} {
		_, err := Decode([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("Decode(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}
