package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestRoundTripKeepsOrderAndUnknownFields(t *testing.T) {
	in := `{"zeta":1,"alpha":{"y":[1,{"b":2,"a":3}],"x":null},"name":"Задачи <b>","big":12345678901234567890}`
	v, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Compact(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("round trip changed the JSON:\n in %s\nout %s", in, out)
	}
}

func TestMarshalIndentsAndKeepsCyrillic(t *testing.T) {
	o := New("b", "живых", "a", []any{1, 2})
	out, err := Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": \"живых\",\n  \"a\": [\n    1,\n    2\n  ]\n}\n"
	if string(out) != want {
		t.Fatalf("got %q", out)
	}
}

func TestSetDeleteClone(t *testing.T) {
	o := New("a", 1, "b", 2, "c", 3)
	o.Set("b", 20)
	o.Delete("a")
	c := o.Clone()
	c.Set("d", 4)
	if strings.Join(o.Keys(), ",") != "b,c" || strings.Join(c.Keys(), ",") != "b,c,d" {
		t.Fatalf("keys: %v / %v", o.Keys(), c.Keys())
	}
	if n, ok := o.Int("b"); !ok || n != 20 {
		t.Fatalf("b = %v", o.Value("b"))
	}
}

func TestDecodeRejectsTrailingData(t *testing.T) {
	if _, err := Decode([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

// The scanner and writer must agree with encoding/json.
var samples = []string{
	`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
	`[]`, `{}`, `[{}]`, `[[],{}]`, `"x"`, `-0.5e+10`, `0`, `123456789012345678901234567890`,
	`{"esc":"quote \" backslash \\ slash \/ nl \n tab \t u \u0041 \u00e9 \ud83d\ude00 ctl \u0001"}`,
	`{"html":"<a href='x'>&amp;</a>","ls":"\u2028\u2029","кириллица":"Задачи"}`,
	` { "spaces" : [ 1 , 2 ] } `,
}

func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range samples {
		v, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, err := Compact(v)
		if err != nil {
			t.Fatal(err)
		}
		var std any
		if err := json.Unmarshal([]byte(in), &std); err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s: our output does not parse: %s", in, got)
		}
		if !reflect.DeepEqual(std, back) {
			t.Errorf("%s: round trip changed the value: %s", in, got)
		}
	}
}

func TestWriterMatchesEncodingJSONIndent(t *testing.T) {
	for _, in := range samples {
		v, _ := Decode([]byte(in))
		got, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if string(got) != buf.String() {
			t.Errorf("%s:\n ours %q\n std  %q", in, got, buf.String())
		}
	}
}

func TestDecodeRejectsBrokenJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,]`, `{"a" 1}`, `{"a":}`, `"abc`, `tru`, `01x`, `-`, `1.`, `1e`, "\"a\x01\"", `{"a":1,}`, `[1 2]`, `"\x"`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestForeignValuesAreIndented(t *testing.T) {
	type entry struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	out, err := Marshal(New("x", entry{A: "<z>", B: []string{"1"}}, "y", []string{"p", "q"}))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"x\": {\n    \"a\": \"<z>\",\n    \"b\": [\n      \"1\"\n    ]\n  },\n  \"y\": [\n    \"p\",\n    \"q\"\n  ]\n}\n"
	if string(out) != want {
		t.Fatalf("got %q", out)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		stdOK := json.Valid(data)
		if (err == nil) != stdOK {
			t.Fatalf("valid=%v but Decode err=%v for %q", stdOK, err, data)
		}
		if err != nil {
			return
		}
		out, err := Compact(v)
		if err != nil {
			t.Fatal(err)
		}
		// Numbers stay text (json.Number), so compare with UseNumber: a
		// float64 would overflow on 1E1000 where we keep the text.
		a, errA := decodeStd(data)
		b, errB := decodeStd(out)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip of %q gave %q", data, out)
		}
	})
}

func BenchmarkDecodeCards(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; i < 5000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"id":"019f0000-0000-7000-8000-000000000001","name":"app","display-name":"Приложение","publication-context":"apps/x","status":"Running","uri":"https://h/apps/x","technology-version":"8.0","source":{"type":"repository","image-id":"p","project-version-id":"b","project-version":"1.0-7"},"project":{"id":"p"},"user-lists":["a","b"]}`)
	}
	sb.WriteString("]")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func decodeStd(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func TestLargeObjectsKeepOrderAndFindKeys(t *testing.T) {
	o := New()
	for i := 0; i < 100; i++ {
		o.Set(string(rune('a'+i%26))+strings.Repeat("x", i/26), i)
	}
	o.Set("a", -1)
	o.Delete("bx")
	if v, _ := o.Int("a"); v != -1 || o.Len() != 99 || o.Has("bx") || !o.Has("cx") {
		t.Fatalf("a=%v len=%d", o.Value("a"), o.Len())
	}
	if n, _ := o.Int("zxx"); n != 77 {
		t.Fatalf("zxx = %v", o.Value("zxx"))
	}
	c := o.Clone()
	c.Set("new", 1)
	if o.Has("new") || c.Keys()[0] != "a" || c.Keys()[99] != "new" {
		t.Fatalf("clone keys %v", c.Keys()[:3])
	}
}

func TestTruthy(t *testing.T) {
	for _, c := range []struct {
		json string
		want bool
	}{
		{`null`, false}, {`false`, false}, {`0`, false}, {`0.0`, false}, {`""`, false}, {`[]`, false}, {`{}`, false},
		{`true`, true}, {`1`, true}, {`"yes"`, true}, {`"false"`, true}, {`[0]`, true}, {`{"a":1}`, true},
	} {
		v, err := Decode([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := Truthy(v); got != c.want {
			t.Errorf("Truthy(%s) = %v", c.json, got)
		}
	}
}

// Objects cut from a shared slab must not see each other's changes.
func TestObjectsFromOneDecodeAreIndependent(t *testing.T) {
	v, err := Decode([]byte(`[{"a":1,"b":2},{"c":3},{"a":1,"a":5}]`))
	if err != nil {
		t.Fatal(err)
	}
	objs := Objects(v)
	objs[0].Set("z", 9)
	if objs[1].Has("z") || objs[1].Len() != 1 || objs[1].Keys()[0] != "c" {
		t.Fatalf("appending to one object changed its neighbour: %v", objs[1].Keys())
	}
	if n, _ := objs[2].Int("a"); n != 5 || objs[2].Len() != 1 {
		t.Fatalf("a repeated key keeps its last value once: %v", objs[2].Keys())
	}
}

// A small document allocates in proportion to its size: the slabs that
// serve listings of thousands of cards are cut to what the input can fill.
func TestSmallDocumentsAllocateLittle(t *testing.T) {
	doc := []byte(`{"name": "plugin-01", "executable": "run", "requires": ["multiple"], "commands": [
		{"name": "c1", "help": "a command", "arguments": [{"name": "app", "required": false},
		{"name": "--count", "type": "int", "default": 1}, {"name": "--tag", "multiple": true}]}]}`)
	const runs = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < runs; i++ {
		if _, err := Decode(doc); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	perDecode := (after.TotalAlloc - before.TotalAlloc) / runs
	if limit := uint64(16 * len(doc)); perDecode > limit {
		t.Fatalf("decoding %d bytes allocated %d bytes, want at most %d", len(doc), perDecode, limit)
	}
}

// MarshalTo writes what Marshal makes, in pieces of at most about
// spillAt bytes, and stops at the first write that fails.
func TestMarshalToWritesMarshalsTextInPieces(t *testing.T) {
	var cards []any
	for i := range 3000 {
		cards = append(cards, New("id", fmt.Sprintf("card-%d", i), "name", "Приложение \"№"+fmt.Sprint(i)+"\"", "tags", []any{"a", json.Number("1"), nil, true}))
	}
	doc := New("total", len(cards), "cards", cards)
	want, err := Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var pieces pieceRecorder
	if err := MarshalTo(&pieces, doc); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pieces.text, want) {
		t.Fatalf("MarshalTo wrote %d bytes unlike Marshal's %d", len(pieces.text), len(want))
	}
	if len(want) < 4*spillAt || pieces.writes < len(want)/(2*spillAt) || pieces.largest > 2*spillAt {
		t.Fatalf("%d bytes in %d writes, the largest %d: not written as it was made", len(want), pieces.writes, pieces.largest)
	}

	broken := &pieceRecorder{failAfter: 2}
	if err := MarshalTo(broken, doc); !errors.Is(err, errPipeClosed) {
		t.Fatalf("a failing writer: %v", err)
	}
	if broken.writes != 3 {
		t.Fatalf("%d writes after the one that failed", broken.writes-3)
	}
}

var errPipeClosed = errors.New("pipe closed")

type pieceRecorder struct {
	text            []byte
	writes, largest int
	failAfter       int
}

func (p *pieceRecorder) Write(b []byte) (int, error) {
	p.writes++
	if p.failAfter > 0 && p.writes > p.failAfter {
		return 0, errPipeClosed
	}
	p.text = append(p.text, b...)
	p.largest = max(p.largest, len(b))
	return len(b), nil
}
