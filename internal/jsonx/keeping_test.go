package jsonx

import (
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// keepFiltered is what DecodeKeeping must give: Decode, then the
// list filtered.
func keepFiltered(t testing.TB, data []byte, keep func(any) bool, keys ...string) any {
	v, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	filter := func(list []any) []any {
		out := []any{}
		for _, e := range list {
			if keep(e) {
				out = append(out, e)
			}
		}
		return out
	}
	switch x := v.(type) {
	case []any:
		return filter(x)
	case *Object:
		for _, k := range keys {
			if list, ok := x.Value(k).([]any); ok {
				x.Set(k, filter(list))
			}
		}
	}
	return v
}

// keepByText keeps an element by a hash of its text, so the choice does
// not depend on where the decoder put it.
func keepByText(v any) bool {
	text, _ := Compact(v)
	h := 0
	for _, c := range string(text) {
		h = h*31 + int(c)
	}
	return h%3 == 0
}

func cardsDocument(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id":"app-%d","name":"n%d","status":%q,"size":%d,"source":{"project-version":"1.%d","tags":["a%d","b"]},"deleted":%v,"extra":%s}`,
			i, r.Intn(1000), []string{"Running", "Stopped", "Deleted"}[r.Intn(3)], r.Intn(1e6), r.Intn(50), r.Intn(9), r.Intn(2) == 0,
			[]string{`null`, `{}`, `[]`, `{"k":[1,2,{"z":"ё"}]}`, `"\u00e9\n"`}[r.Intn(5)])
	}
	sb.WriteString("]")
	return sb.String()
}

// Kept elements come out exactly as Decode reads them, however many
// dropped ones were read into the same memory between them.
func TestDecodeKeepingKeepsWhatKeepAccepts(t *testing.T) {
	for _, doc := range []string{
		cardsDocument(3000, 1),
		`{"total":3,"items":` + cardsDocument(500, 2) + `,"next":null}`,
		`{"applications":` + cardsDocument(700, 3) + `}`,
		`[1,"a",{"b":[]},null,[{"c":1}],true]`,
		`[]`, `{}`, `"text"`, `{"items":"not a list"}`,
	} {
		data := []byte(doc)
		got, err := DecodeKeeping(append([]byte(nil), data...), keepByText, "items", "applications")
		if err != nil {
			t.Fatalf("%.60s: %v", doc, err)
		}
		want := keepFiltered(t, data, keepByText, "items", "applications")
		if !reflect.DeepEqual(got, want) {
			a, _ := Compact(got)
			b, _ := Compact(want)
			t.Fatalf("%.60s: kept\n%.300s\nwant\n%.300s", doc, a, b)
		}
	}
}

// keep sees every element once, in order, and an element under a key
// that is not named is not filtered.
func TestDecodeKeepingOffersEveryElementOnce(t *testing.T) {
	var seen []string
	v, err := DecodeKeeping([]byte(`{"other":[1,2],"items":[{"id":"a"},{"id":"b"},{"id":"c"}]}`), func(e any) bool {
		id := e.(*Object).Str("id")
		seen = append(seen, id)
		return id != "b"
	}, "items")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, ",") != "a,b,c" {
		t.Fatalf("keep saw %v", seen)
	}
	text, _ := Compact(v)
	if string(text) != `{"other":[1,2],"items":[{"id":"a"},{"id":"c"}]}` {
		t.Fatalf("got %s", text)
	}
}

func TestDecodeKeepingRejectsBrokenJSON(t *testing.T) {
	for _, doc := range []string{`[{"a":1},`, `{"items":[1,2}`, `[1] 2`} {
		if _, err := DecodeKeeping([]byte(doc), func(any) bool { return false }, "items"); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}

// A dropped element leaves nothing behind: what keeping a tenth of a long
// list holds is far less than all of it.
func TestDecodeKeepingReusesDroppedMemory(t *testing.T) {
	data := []byte(cardsDocument(5000, 4))
	measure := func(decode func([]byte) (any, error)) int64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v, err := decode(data)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(v)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	n := 0
	all := measure(Decode)
	tenth := measure(func(b []byte) (any, error) {
		return DecodeKeeping(b, func(any) bool { n++; return n%10 == 0 })
	})
	if tenth*4 > all {
		t.Fatalf("keeping a tenth holds %d bytes, all of it %d", tenth, all)
	}
}

func FuzzDecodeKeeping(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"items":[{"a":[1,{"b":"c"}]},{"d":{}},[],"x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Decode(data); err != nil {
			if _, err := DecodeKeeping(append([]byte(nil), data...), keepByText, "items"); err == nil {
				t.Fatalf("%q: Decode refuses it, DecodeKeeping does not", data)
			}
			return
		}
		got, err := DecodeKeeping(append([]byte(nil), data...), keepByText, "items")
		if err != nil {
			t.Fatal(err)
		}
		if want := keepFiltered(t, data, keepByText, "items"); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: kept %v, want %v", data, got, want)
		}
	})
}
