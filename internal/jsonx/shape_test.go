package jsonx

import (
	"fmt"
	"strings"
	"testing"
)

// shapeCards are cards whose values test every way a value is written:
// plain and escaped strings, strings str would change (separators,
// invalid UTF-8), Cyrillic, numbers, literals, nested and empty objects
// and arrays, and a missing key.
var shapeCards = []string{
	`{"id":"a1","name":"plain","n":1,"nested":{"k":[1,"x",{}],"e":[]}}`,
	`{"id":"a\"2\\","name":"Массовые \u0001 приложения","n":-1.5e3,"nested":null}`,
	`{"id":"sep` + "\u2028" + `x` + "\u2029" + `","name":"` + "bad\xffutf8" + `","n":true,"nested":{}}`,
	`{"id":"","name":"tab\there","nested":[[],[{"a":"b, c: {d}"}]]}`,
	`{"name":"only a name","id":"{\"not\": [an object]}","n":false}`,
}

// A card written by a Shape prints exactly as the Object of the same
// members does – indented or not, alone or in a list, from a card read
// raw or decoded – and reads back as that Object.
func TestShapedTextPrintsAsTheObject(t *testing.T) {
	keys := []string{"id", "name", "n", "nested", "absent"}
	shape := NewShape(keys...)
	var encoded, objects []any
	for _, text := range shapeCards {
		decoded, err := Decode([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		card := decoded.(*Object)
		want := New()
		for _, k := range keys {
			want.Set(k, card.Value(k))
		}
		var raw *RawObject
		if err := EachElement(strings.NewReader("["+text+"]"), nil, func(_ string, r *RawObject) error {
			for _, k := range keys {
				shape.Member(r, k)
			}
			raw = r
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		fromRaw := shape.End()
		for _, k := range keys {
			shape.Member(card, k)
		}
		fromObject := shape.End()
		wantCompact, _ := Compact(want)
		if string(fromRaw) != string(wantCompact) || string(fromObject) != string(wantCompact) {
			t.Fatalf("card %s\nwritten from its text:   %s\nwritten from its object: %s\nwant %s", raw.Text(), fromRaw, fromObject, wantCompact)
		}
		for _, v := range []any{fromRaw, []any{fromRaw}, New("x", []any{fromRaw, []any{}})} {
			got, _ := Marshal(v)
			wantText, _ := Marshal(replaceEncoded(v, want))
			if string(got) != string(wantText) {
				t.Fatalf("indented, got\n%s\nwant\n%s", got, wantText)
			}
		}
		// Read back as the text decoded: a string with invalid UTF-8
		// was written with U+FFFD, so it does not come back as it was.
		readBack, _ := Decode(wantCompact)
		wantBack, _ := Compact(readBack)
		if back := Objects([]any{fromRaw}); len(back) != 1 {
			t.Fatalf("%s does not read back as an object", fromRaw)
		} else if got, _ := Compact(back[0]); string(got) != string(wantBack) {
			t.Fatalf("%s reads back as %s, want %s", fromRaw, got, wantBack)
		}
		encoded, objects = append(encoded, fromRaw), append(objects, want)
	}
	got, _ := Marshal(encoded)
	want, _ := Marshal(objects)
	if string(got) != string(want) {
		t.Fatalf("the list prints\n%s\nwant\n%s", got, want)
	}
}

// replaceEncoded is v with every Encoded in it replaced by obj.
func replaceEncoded(v any, obj *Object) any {
	switch x := v.(type) {
	case Encoded:
		return obj
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = replaceEncoded(e, obj)
		}
		return out
	case *Object:
		out := New()
		for _, k := range x.keys {
			out.Set(k, replaceEncoded(x.Value(k), obj))
		}
		return out
	}
	return v
}

// Thousands of shaped cards cost a few allocations: their texts share
// blocks.
func TestShapedCardsShareTheirMemory(t *testing.T) {
	shape := NewShape("id", "name")
	card := New("id", "01a23dad-68f3-780a-a28e-714866a760df", "name", "bulk-00001")
	allocs := testing.AllocsPerRun(10, func() {
		for range 1000 {
			shape.Member(card, "id")
			shape.Text([]byte("bulk-00001"))
			shape.End()
		}
	})
	if allocs > 5 {
		t.Errorf("1,000 cards in %.0f allocations", allocs)
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
