package platform

import (
	"reflect"
	"testing"
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
			got := ParseDotEnv([]byte(c.text))
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
	env := ParseDotEnv([]byte("A=\nB=1"))
	if _, ok := env.Get("A"); ok {
		t.Fatal("an empty value counts as set")
	}
	if v, ok := env.Get("B"); !ok || v != "1" {
		t.Fatalf("B = %q, %v", v, ok)
	}
}
