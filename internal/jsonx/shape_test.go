package jsonx

import (
	"fmt"
	"strings"
	"testing"
)

// Objects of one shape share their keys, yet a key added to or deleted
// from one leaves the others as they were.
func TestShapedObjectsAreIndependent(t *testing.T) {
	shape := NewShape("id", "name")
	var objs []*Object
	for i := range 5000 {
		objs = append(objs, shape.New(fmt.Sprint(i), "n"+fmt.Sprint(i)))
	}
	objs[1].Set("extra", true)
	objs[2].Delete("id")
	objs[3].Set("name", "renamed")
	for i, o := range objs {
		want := fmt.Sprintf(`{"id":"%d","name":"n%d"}`, i, i)
		switch i {
		case 1:
			want = `{"id":"1","name":"n1","extra":true}`
		case 2:
			want = `{"name":"n2"}`
		case 3:
			want = `{"id":"3","name":"renamed"}`
		}
		if got, _ := Compact(o); string(got) != want {
			t.Fatalf("object %d is %s, want %s", i, got, want)
		}
	}
}

// Strings kept in Texts stay what they were as blocks fill and new ones
// begin, and cost a few allocations for thousands.
func TestTextsKeepStringsAcrossBlocks(t *testing.T) {
	var texts Texts
	var kept []string
	for i := range 20000 {
		kept = append(kept, texts.Keep([]byte(fmt.Sprintf("card-%d-", i)), []byte(strings.Repeat("x", i%50))))
	}
	for i, s := range kept {
		if want := fmt.Sprintf("card-%d-", i) + strings.Repeat("x", i%50); s != want {
			t.Fatalf("string %d is %q, want %q", i, s, want)
		}
	}
	if texts.Keep() != "" || texts.Keep(nil, []byte{}) != "" {
		t.Error("nothing kept is not the empty string")
	}
	allocs := testing.AllocsPerRun(10, func() {
		var texts Texts
		for range 1000 {
			texts.Keep([]byte("01a23dad-68f3-780a-a28e-714866a760df"))
		}
	})
	if allocs > 3 {
		t.Errorf("1,000 strings kept in %.0f allocations", allocs)
	}
}
