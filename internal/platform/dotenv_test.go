package platform

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestParseDotEnv(t *testing.T) {
	cases := []struct {
		name string
		text string
		want map[string]string
		keys []string
	}{
		{"plain", "A=1\nB=two", map[string]string{"A": "1", "B": "two"}, []string{"A", "B"}},
		{"bom", "\xef\xbb\xbfA=1", map[string]string{"A": "1"}, []string{"A"}},
		{"crlf", "A=1\r\nB=2\r\n", map[string]string{"A": "1", "B": "2"}, []string{"A", "B"}},
		{"export", "export A=1\n  export   B = 2 ", map[string]string{"A": "1", "B": "2"}, []string{"A", "B"}},
		{"comments and blanks", "# c\n\n   # indented\nA=1", map[string]string{"A": "1"}, []string{"A"}},
		{"hash inside value kept", "A=abc#def", map[string]string{"A": "abc#def"}, []string{"A"}},
		{"double quotes", `A="x y"`, map[string]string{"A": "x y"}, []string{"A"}},
		{"single quotes", `A='x "y"'`, map[string]string{"A": `x "y"`}, []string{"A"}},
		{"no escapes", `A="a\nb"`, map[string]string{"A": `a\nb`}, []string{"A"}},
		{"mismatched quotes kept", `A="x'`, map[string]string{"A": `"x'`}, []string{"A"}},
		{"single quote char kept", `A="`, map[string]string{"A": `"`}, []string{"A"}},
		{"first equals splits", "A=b=c", map[string]string{"A": "b=c"}, []string{"A"}},
		{"no equals skipped", "NOEQUALS\nA=1", map[string]string{"A": "1"}, []string{"A"}},
		{"duplicate later wins", "A=1\nB=2\nA=3", map[string]string{"A": "3", "B": "2"}, []string{"A", "B"}},
		{"empty value kept", "A=\nB=''", map[string]string{"A": "", "B": ""}, []string{"A", "B"}},
		{"empty key skipped", "=x\nA=1", map[string]string{"A": "1"}, []string{"A"}},
		{"cyrillic", "ELEMENT_APP_ID=Задачи", map[string]string{"ELEMENT_APP_ID": "Задачи"}, []string{"ELEMENT_APP_ID"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseDotEnv([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Values, c.want) {
				t.Errorf("values = %v, want %v", got.Values, c.want)
			}
			if !reflect.DeepEqual(got.Keys, c.keys) {
				t.Errorf("keys = %v, want %v", got.Keys, c.keys)
			}
		})
	}
}

func TestDotEnvEmptyValueIsNotSet(t *testing.T) {
	env, err := ParseDotEnv([]byte("A=\nB=1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := env.Get("A"); ok {
		t.Fatal("an empty value counts as set")
	}
	if v, ok := env.Get("B"); !ok || v != "1" {
		t.Fatalf("B = %q, %v", v, ok)
	}
}

// encodeUTF16 writes text as UTF-16 in the given order, with Notepad's
// byte-order mark when bom is set.
func encodeUTF16(text string, order binary.ByteOrder, bom bool) []byte {
	var b bytes.Buffer
	if bom {
		_ = binary.Write(&b, order, uint16(0xFEFF))
	}
	for _, u := range utf16.Encode([]rune(text)) {
		_ = binary.Write(&b, order, u)
	}
	return b.Bytes()
}

// notepadEnv is a .env as a Windows user writes it: CRLF, Cyrillic, a comment.
const notepadEnv = "# стенд\r\nELEMENT_BASE_URL=https://stand.example\r\nELEMENT_CLIENT_ID=ci\r\nELEMENT_CLIENT_SECRET=\"s e c r e t\"\r\nELEMENT_APP_ID=Задачи\r\n"

func TestParseDotEnvReadsWindowsEncodings(t *testing.T) {
	want := map[string]string{"ELEMENT_BASE_URL": "https://stand.example", "ELEMENT_CLIENT_ID": "ci",
		"ELEMENT_CLIENT_SECRET": "s e c r e t", "ELEMENT_APP_ID": "Задачи"}
	cases := []struct {
		name, encoding string
		data           []byte
	}{
		{"utf-8", EncodingUTF8, []byte(notepadEnv)},
		{"utf-8 with bom", EncodingUTF8BOM, append([]byte("\xef\xbb\xbf"), notepadEnv...)},
		{"utf-16 le with bom (Notepad Unicode)", EncodingUTF16LE, encodeUTF16(notepadEnv, binary.LittleEndian, true)},
		{"utf-16 be with bom", EncodingUTF16BE, encodeUTF16(notepadEnv, binary.BigEndian, true)},
		{"utf-16 le without bom", EncodingUTF16LE, encodeUTF16(notepadEnv, binary.LittleEndian, false)},
		{"utf-16 be without bom", EncodingUTF16BE, encodeUTF16(notepadEnv, binary.BigEndian, false)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, err := ParseDotEnv(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(env.Values, want) {
				t.Errorf("values = %q", env.Values)
			}
			if env.Encoding != c.encoding {
				t.Errorf("encoding %q, want %q", env.Encoding, c.encoding)
			}
		})
	}
}

func TestParseDotEnvRefusesNamingTheEncoding(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"utf-32 le", append([]byte{0xFF, 0xFE, 0, 0}, "A\x00\x00\x00"...), "UTF-32 LE"},
		{"utf-32 be", append([]byte{0, 0, 0xFE, 0xFF}, "\x00\x00\x00A"...), "UTF-32 BE"},
		{"odd utf-16", append(encodeUTF16("A=1", binary.LittleEndian, true), 'x'), "damaged UTF-16 LE"},
		{"binary", []byte("\x00\x00\x01\x02"), "binary"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseDotEnv(c.data)
			var enc *DotEnvEncodingError
			if !errors.As(err, &enc) || !strings.Contains(enc.Encoding, c.want) {
				t.Fatalf("want an encoding error naming %q, got %v", c.want, err)
			}
		})
	}
}

// FuzzParseDotEnv: any bytes give values or an encoding refusal, never a
// panic; a file's UTF-16 form (with a BOM) reads exactly as its UTF-8 form;
// keys and values come out trimmed and free of line breaks.
func FuzzParseDotEnv(f *testing.F) {
	for _, seed := range []string{"", "A=1", notepadEnv, "export A = '1'\n#c\nB=\"x\"", "\xef\xbb\xbfA=1", "=\n==\n'\"", "A=\xff\xfe"} {
		f.Add([]byte(seed))
	}
	f.Add(encodeUTF16(notepadEnv, binary.LittleEndian, true))
	f.Add(encodeUTF16(notepadEnv, binary.BigEndian, false))
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := ParseDotEnv(data)
		if err != nil {
			var enc *DotEnvEncodingError
			if !errors.As(err, &enc) || enc.Encoding == "" {
				t.Fatalf("a refusal that names no encoding: %v", err)
			}
			return
		}
		if len(env.Keys) != len(env.Values) {
			t.Fatalf("keys %q and values %q disagree", env.Keys, env.Values)
		}
		for _, k := range env.Keys {
			if k == "" || k != strings.TrimSpace(k) || strings.ContainsAny(k, "\n") {
				t.Fatalf("key %q is not trimmed", k)
			}
			if strings.Contains(env.Values[k], "\n") {
				t.Fatalf("value of %q spans lines", k)
			}
		}
		text, _, err := DecodeDotEnv(data)
		if err != nil || !utf8ValidNoNUL(text) {
			return
		}
		again, err := ParseDotEnv(encodeUTF16(text, binary.LittleEndian, true))
		if err != nil {
			t.Fatalf("the UTF-16 form of readable text is refused: %v", err)
		}
		if !reflect.DeepEqual(again.Values, env.Values) || !reflect.DeepEqual(again.Keys, env.Keys) {
			t.Fatalf("UTF-16 reads %q, UTF-8 %q", again.Values, env.Values)
		}
	})
}

// utf8ValidNoNUL tells whether text survives a round trip through UTF-16.
func utf8ValidNoNUL(text string) bool {
	return strings.ToValidUTF8(text, "\uFFFD") == text && !strings.ContainsRune(text, 0)
}

func TestParseDotEnvNotesOddLines(t *testing.T) {
	env, err := ParseDotEnv([]byte("# head\nA=1 # c\nB=x#y\nC=\"q # q\"\nD=v\t# tab\r\nA=2\nA=3\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []DotEnvNote{
		{Kind: InlineComment, Key: "A", Line: 2},
		{Kind: InlineComment, Key: "D", Line: 5},
		{Kind: Duplicate, Key: "A", Line: 6, Earlier: 2},
		{Kind: Duplicate, Key: "A", Line: 7, Earlier: 6},
	}
	if !reflect.DeepEqual(env.Notes, want) {
		t.Errorf("notes %+v, want %+v", env.Notes, want)
	}
	if env.Values["A"] != "3" || env.Values["D"] != "v\t# tab" {
		t.Errorf("values %q", env.Values)
	}
}
