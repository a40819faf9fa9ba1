package uuidtext

import (
	"regexp"
	"testing"
)

var pattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func TestValid(t *testing.T) {
	cases := map[string]bool{
		"0f8fad5b-d9cb-469f-a165-70867728950e":  true,
		"0F8FAD5B-D9CB-469F-A165-70867728950E":  true,
		"0f8fad5b-d9cb-469f-a165-70867728950":   false,
		"0f8fad5b-d9cb-469f-a165-70867728950e0": false,
		"0f8fad5bd-9cb-469f-a165-70867728950e":  false,
		"0f8fad5b-d9cb-469f-a165-70867728950g":  false,
		"my-app":                                false,
		"":                                      false,
		"0f8fad5b-d9cb-469f-a165_70867728950e":  false,
		"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz":  false,
	}
	for s, want := range cases {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzValid holds the hand-written check to the regular expression it
// replaces.
func FuzzValid(f *testing.F) {
	f.Add("0f8fad5b-d9cb-469f-a165-70867728950e")
	f.Add("0f8fad5b-d9cb-469f-a165-70867728950ё")
	f.Add("----------------------------------- ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Valid(s), pattern.MatchString(s); got != want {
			t.Fatalf("Valid(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
