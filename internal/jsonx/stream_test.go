package jsonx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// listOf is a JSON list of n elements, card writing the i-th.
func listOf(n int, card func(sb *strings.Builder, i int)) string {
	var sb strings.Builder
	sb.WriteString("[")
	for i := range n {
		if i > 0 {
			sb.WriteString(",")
		}
		card(&sb, i)
	}
	sb.WriteString("]")
	return sb.String()
}

func cardsDocument(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	return listOf(n, func(sb *strings.Builder, i int) {
		fmt.Fprintf(sb, `{"id":"app-%d","name":"n%d","status":%q,"size":%d,"source":{"project-version":"1.%d","tags":["a%d","b"]},"deleted":%v,"extra":%s}`,
			i, r.Intn(1000), []string{"Running", "Stopped", "Deleted"}[r.Intn(3)], r.Intn(1e6), r.Intn(50), r.Intn(9), r.Intn(2) == 0,
			[]string{`null`, `{}`, `[]`, `{"k":[1,2,{"z":"ё"}]}`, `"\u00e9\n"`, "\"\\\"q\\\"\""}[r.Intn(6)])
	})
}

// listed is what EachElement must hand out: the objects of the document's
// list, decoded as Decode decodes them, each with its key.
func listed(t testing.TB, data []byte, keys ...string) []string {
	v, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(key string, list []any) {
		for _, e := range list {
			if o, ok := e.(*Object); ok {
				text, _ := Compact(o)
				out = append(out, key+"="+string(text))
			}
		}
	}
	switch x := v.(type) {
	case []any:
		add("", x)
	case *Object:
		for _, k := range x.Keys() {
			list, ok := x.Value(k).([]any)
			for _, want := range keys {
				if ok && k == want {
					add(k, list)
				}
			}
		}
	}
	return out
}

// streamed is what EachElement hands out, each object decoded.
func streamed(r io.Reader, keys ...string) ([]string, error) {
	var out []string
	err := EachElement(r, keys, func(key string, obj *RawObject) error {
		o, err := obj.Decode()
		if err != nil {
			return err
		}
		text, _ := Compact(o)
		out = append(out, key+"="+string(text))
		return nil
	})
	return out, err
}

// chunked reads in pieces of random sizes, as a network answer arrives.
type chunked struct {
	data []byte
	r    *rand.Rand
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data), 1+c.r.Intn(3000))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

var streamDocuments = []string{
	cardsDocument(3000, 1),
	`{"total":3,"items":` + cardsDocument(500, 2) + `,"next":null}`,
	`{"applications":` + cardsDocument(700, 3) + `}`,
	`{"applications":[{"a":1}],"items":[{"b":2}],"other":[{"c":3}]}`,
	`[1,"a",{"b":[]},null,[{"c":1}],true]`,
	` [ { } , { "x" : -1.5e3 } ] `,
	`[{"big":"` + strings.Repeat("ж", 200000) + `"},{"after":true}]`,
	`[]`, `{}`, `"text"`, `12`, `{"items":"not a list"}`,
}

// Every object of the list comes out as Decode reads it, however the
// answer arrives: whole, a byte at a time, in pieces of any size.
func TestEachElementGivesWhatDecodeReads(t *testing.T) {
	for _, doc := range streamDocuments {
		data := []byte(doc)
		want := listed(t, data, "items", "applications")
		readers := map[string]io.Reader{
			"whole":    bytes.NewReader(data),
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"halves":   iotest.HalfReader(bytes.NewReader(data)),
			"eof":      iotest.DataErrReader(bytes.NewReader(data)),
			"pieces":   &chunked{data: data, r: rand.New(rand.NewSource(int64(len(doc))))},
		}
		for name, r := range readers {
			got, err := streamed(r, "items", "applications")
			if err != nil {
				t.Fatalf("%.60s (%s): %v", doc, name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%.60s (%s): got %d elements, want %d\n%.300v\n%.300v", doc, name, len(got), len(want), got, want)
			}
		}
	}
}

// A card's fields read without decoding it agree with the decoded card's.
func TestRawObjectFields(t *testing.T) {
	long := strings.Repeat("x", 70) // past what is read as a short plain string
	doc := `[{"id":"a\u0062c","n":-5.5e1,"t":true,"f":false,"z":null,"a":[1,"x"],"s":{"k":"v"},"dup":"first","e\u0078":"escaped key","dup":"last","q":"\"x\"",` +
		`"e":"","long":"` + long + `","longq":"` + long + `\"y"}]`
	err := EachElement(strings.NewReader(doc), nil, func(_ string, raw *RawObject) error {
		obj, err := raw.Decode()
		if err != nil {
			return err
		}
		for _, k := range []string{"id", "n", "t", "f", "z", "a", "s", "dup", "ex", "q", "e", "long", "longq", "missing"} {
			if raw.Str(k) != obj.Str(k) {
				t.Errorf("Str(%q) = %q, decoded %q", k, raw.Str(k), obj.Str(k))
			}
			_, isString := obj.Value(k).(string)
			if got := raw.StrBytes(k); string(got) != obj.Str(k) || (got != nil) != isString {
				t.Errorf("StrBytes(%q) = %q, decoded %q", k, got, obj.Str(k))
			}
			if !reflect.DeepEqual(raw.Value(k), obj.Value(k)) {
				t.Errorf("Value(%q) = %#v, decoded %#v", k, raw.Value(k), obj.Value(k))
			}
			if !reflect.DeepEqual(raw.Obj(k), obj.Obj(k)) {
				t.Errorf("Obj(%q) = %v, decoded %v", k, raw.Obj(k), obj.Obj(k))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestEachElementRefusesBrokenJSON(t *testing.T) {
	for _, doc := range []string{`[{"a":1},`, `{"items":[1,2}`, `[1] 2`, `[{"a" 1}]`, `[{"a":tru}]`, `{"items":[{"a":1}`, ``, `[`,
		`[{"a":"` + strings.Repeat("x", 100000)} {
		_, err := streamed(iotest.HalfReader(strings.NewReader(doc)), "items")
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%.40s: %v, want a syntax error", doc, err)
		}
	}
}

// A fault inside a card, or inside an object or list nested in it, is told
// where Decode tells it and in its words, compact or spaced, whole or in
// pieces.
func TestEachElementPlacesFaultsAsDecodeDoes(t *testing.T) {
	for _, doc := range []string{
		`[{"a" 1}]`, `[{"a":1 "b":2}]`, `[{"a":1,}]`, `[{1:2}]`, `[{"a":}]`, `[{"a":"x",,"b":1}]`,
		`[{"s":{"k" "v"}}]`, `[{"s":{"k":"v" "w":1}}]`, `[{"s":{"k":"v",}}]`, `[{"l":[1 2]}]`, `[{"l":["x",]}]`,
		`[ { "a" : 1 , "b" 2 } ]`, `[ { "s" : { "k" : "v" , } } ]`, `[{"ok":1},{"a":"b"  "c":1}]`,
		`[{"a":"\u0001",` + strings.Repeat(`"k":"v",`, 3000) + `"z" 1}]`,
		"[\n  {\"a\": 1},\n  {\"b\": 2\n   \"c\": 3}\n]", "[{\"a\":1}\n,\n{\"b\" 2}]",
		"[\n" + strings.Repeat("  {\"k\": \"v\"},\n", 3000) + "  {\"z\" 1}\n]", "[{\"a\": 1}]\n x",
	} {
		_, derr := Decode([]byte(doc))
		var want *SyntaxError
		if !errors.As(derr, &want) {
			t.Fatalf("%.40s: Decode: %v, want a syntax error", doc, derr)
		}
		for name, r := range map[string]io.Reader{
			"whole": strings.NewReader(doc), "one byte": iotest.OneByteReader(strings.NewReader(doc)),
		} {
			_, err := streamed(r, "items")
			var got *SyntaxError
			// The offset and the words, and the line and column unless
			// the text before the fault's piece is gone: then the
			// message names the offset instead.
			if !errors.As(err, &got) || got.Offset != want.Offset || got.What != want.What {
				t.Errorf("%.40s (%s): %v, want %q at offset %d", doc, name, err, want.What, want.Offset)
				continue
			}
			if got.Line != 0 && (got.Line != want.Line || got.Column != want.Column) {
				t.Errorf("%.40s (%s): %v, want line %d, column %d", doc, name, err, want.Line, want.Column)
			}
			if got.Line == 0 && got.Error() != fmt.Sprintf("invalid JSON at byte %d: %s", want.Offset, want.What) {
				t.Errorf("%.40s (%s): %q names no place", doc, name, got.Error())
			}
		}
	}
}

// What fn returns stops the reading; so does the reader's error.
func TestEachElementStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := EachElement(strings.NewReader(cardsDocument(100, 5)), nil, func(string, *RawObject) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("after %d elements: %v", n, err)
	}
	broken := errors.New("connection reset")
	err = EachElement(io.MultiReader(strings.NewReader(cardsDocument(100, 6)[:5000]), iotest.ErrReader(broken)), nil,
		func(string, *RawObject) error { return nil })
	if !errors.Is(err, broken) {
		t.Errorf("a broken read: %v", err)
	}
}

// stalling gives its text, then waits until resume is closed before it
// ends.
type stalling struct {
	text   []byte
	resume chan struct{}
}

func (s *stalling) Read(p []byte) (int, error) {
	if len(s.text) == 0 {
		<-s.resume
		return 0, io.EOF
	}
	n := copy(p, s.text)
	s.text = s.text[n:]
	return n, nil
}

// What has arrived is read at once: the cards of an answer whose rest is
// slow to come reach the visitor before the rest does.
func TestEachElementReadsWhatHasArrived(t *testing.T) {
	r := &stalling{text: []byte(`[{"id":"a"},{"id":"b"},`), resume: make(chan struct{})}
	seen := make(chan string, 2)
	ended := make(chan error, 1)
	go func() {
		ended <- EachElement(r, nil, func(_ string, card *RawObject) error {
			seen <- card.Str("id")
			return nil
		})
	}()
	for _, want := range []string{"a", "b"} {
		select {
		case id := <-seen:
			if id != want {
				t.Fatalf("card %q, want %q", id, want)
			}
		case <-time.After(10 * time.Second):
			close(r.resume)
			t.Fatalf("card %q waited for the rest of the answer", want)
		}
	}
	close(r.resume)
	var se *SyntaxError
	if err := <-ended; !errors.As(err, &se) {
		t.Fatalf("an answer cut short after a comma: %v", err)
	}
}

// Reading a long list holds a few pieces of it, never the whole: what a
// caller drops costs nothing.
func TestEachElementHoldsLittle(t *testing.T) {
	data := []byte(cardsDocument(20000, 7))
	// The least of three reads: the allocation counter is the process's,
	// and whatever else runs in it meanwhile counts too.
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		err := EachElement(bytes.NewReader(data), nil, func(_ string, obj *RawObject) error {
			// Compared where it lies: the visitor itself allocates nothing.
			if v, _ := obj.raw("status"); string(v) == `"Running"` {
				n++
			}
			return nil
		})
		runtime.ReadMemStats(&after)
		if err != nil || n == 0 {
			t.Fatal(n, err)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	if least > uint64(len(data))/8 {
		t.Errorf("reading %d bytes allocated %d", len(data), least)
	}
}

// TestNestedReadsEveryCardsOwnObject: the object under a key is read
// again for every card of a list, into the same room: each card gives its
// own, and after the first card reading it allocates nothing.
func TestNestedReadsEveryCardsOwnObject(t *testing.T) {
	// Cards with more members under source than the one before them, and
	// some with none at all.
	doc := listOf(3000, func(doc *strings.Builder, i int) {
		fmt.Fprintf(doc, `{"id":"c%d","source":`, i)
		if i%7 == 3 {
			doc.WriteString(`null}`)
			return
		}
		doc.WriteString(`{`)
		for k := range i % 11 {
			fmt.Fprintf(doc, `"pad%d":[%d,{"x":"y"}],`, k, k)
		}
		fmt.Fprintf(doc, `"project-version":"1.%d","project-version-id":"v%d"}}`, i, i)
	})
	n := 0
	var allocs float64
	err := EachElement(strings.NewReader(doc), nil, func(_ string, card *RawObject) error {
		i := n
		n++
		src := card.Nested("source")
		if i%7 == 3 {
			if src.Str("project-version") != "" {
				t.Errorf("card %d has no source, read %q", i, src.Str("project-version"))
			}
			return nil
		}
		if got, want := src.Str("project-version"), fmt.Sprintf("1.%d", i); got != want {
			t.Errorf("card %d: project-version %q, want %q", i, got, want)
		}
		if got, want := src.Str("project-version-id"), fmt.Sprintf("v%d", i); got != want {
			t.Errorf("card %d: project-version-id %q, want %q", i, got, want)
		}
		if i == 2990 {
			allocs = testing.AllocsPerRun(10, func() { card.Nested("source") })
		}
		return nil
	})
	if err != nil || n != 3000 {
		t.Fatal(n, err)
	}
	if allocs != 0 {
		t.Errorf("reading a card's source again allocated %.0f times", allocs)
	}
}

// A list's reader takes a key that followed the same key before by
// comparing bytes; cards whose keys change from one to the next, in every
// way a key can (longer, shorter, another of the same length, escaped, in
// a nested object, two shapes in turn, more keys than are remembered),
// are read as Decode reads them, however the answer is cut.
func TestCardsWhoseKeysChangeFromCardToCard(t *testing.T) {
	var many strings.Builder
	for i := range guessedKeys + 50 {
		fmt.Fprintf(&many, `{"id":"m%d","k%d":%d,"name":"m","source":{"type":"image"}},`, i, i, i)
		fmt.Fprintf(&many, `{"id":"n%d","status":"Running","uri":"u","name":"n","source":{"typ":"zip","type":"image"}},`, i)
	}
	doc := `[` + many.String() +
		`{"id":"1","name":"a","source":{"type":"image","id":"x"},"list":[{"k":1}]},` +
		`{"id":"2","name":"b","source":{"type":"image","id":"y"},"list":[{"k":2}]},` +
		`{"ids":"3","nam":"c","source":{"typ":"zip","idx":"z"},"list":[{"kk":3}]},` +
		`{"i":"4","nome":"d","sourcE":{"type":"image"},"list":[]},` +
		`{"\u0069d":"5","na\"me":"e","source":{"ty\\pe":"t","id":"w"}},` +
		`{"id":"6","name":"f","source":{"type":"image","id":"v"},"list":[{"k":6}],"extra":true},` +
		`{"name":"g","id":"7"},` +
		`{},` +
		`{"id":"9","name":"h","source":{"type":"image","id":"u"},"list":[{"k":9}]}` +
		`]`
	data := []byte(doc)
	want := listed(t, data)
	readers := map[string]io.Reader{
		"whole":    bytes.NewReader(data),
		"one byte": iotest.OneByteReader(bytes.NewReader(data)),
		"pieces":   &chunked{data: data, r: rand.New(rand.NewSource(7))},
	}
	for name, r := range readers {
		var got []string
		err := EachElement(r, nil, func(_ string, raw *RawObject) error {
			obj, err := raw.Decode()
			if err != nil {
				return err
			}
			for _, k := range append(obj.Keys(), "missing", "i", "ids", "source") {
				if !reflect.DeepEqual(raw.Value(k), obj.Value(k)) {
					t.Errorf("%s: %s: Value(%q) = %#v, decoded %#v", name, raw.Text(), k, raw.Value(k), obj.Value(k))
				}
			}
			if src, ok := obj.Value("source").(*Object); ok {
				for _, k := range append(src.Keys(), "type", "id") {
					if got, want := string(raw.Nested("source").StrBytes(k)), src.Str(k); got != want {
						t.Errorf("%s: %s: source's %q = %q, decoded %q", name, raw.Text(), k, got, want)
					}
				}
			}
			text, _ := Compact(obj)
			got = append(got, "="+string(text))
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, want %v", name, got, want)
		}
	}
	// A key that begins as the last card's did and holds a control
	// character is refused, as it is without a card before it.
	for _, broken := range []string{`[{"ab":1},{"ab` + "\x01" + `":1}]`, `[{"ab":1},{"a` + "\x01" + `":1}]`} {
		if _, err := streamed(strings.NewReader(broken)); err == nil {
			t.Errorf("%q is read", broken)
		}
	}
}

func FuzzEachElement(f *testing.F) {
	for _, s := range append(samples, streamDocuments[3:]...) {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"items":[{"a":[1,{"b":"c"}]},{"d":{}},[],"x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Decode(data); err != nil {
			// A bad escape in a string nobody decodes is let through
			// (escapes are checked where strings are decoded); any other
			// fault is refused.
			if _, serr := streamed(iotest.OneByteReader(bytes.NewReader(data)), "items"); serr == nil && !strings.Contains(err.Error(), "escape") {
				t.Fatalf("%q: Decode refuses it (%v), EachElement does not", data, err)
			}
			return
		}
		got, err := streamed(iotest.OneByteReader(bytes.NewReader(data)), "items")
		if err != nil {
			t.Fatal(err)
		}
		if want := listed(t, data, "items"); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v, want %v", data, got, want)
		}
	})
}

// timedReads runs read, a read of a list of size bytes, as often as the
// benchmark asks and reports the list's size and the median read's time and
// rate (make bench shows these, not ns/op, which is a mean).
func timedReads(b *testing.B, size int, read func()) {
	b.SetBytes(int64(size))
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		read()
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	median := took[len(took)/2].Seconds()
	b.ReportMetric(float64(size)/(1<<20), "list-MiB")
	b.ReportMetric(median*1000, "ms")
	b.ReportMetric(float64(size)/median/1e9, "GB/s")
}

// appCards is a list of 50,000 application cards as the platform writes
// them (compact, every live-th live with its address after its status, so
// the keys after it come one place later, the rest deleted); unique gives
// every card keys of its own (an object used as a map), which no card
// before it had.
func appCards(every int, unique bool) []byte {
	return []byte(listOf(50000, func(sb *strings.Builder, i int) {
		status := `"Deleted"`
		if i%every == 0 {
			status = fmt.Sprintf(`"Running","uri":"https://element.example/applications/bulk-a9ee31-%05d"`, i)
		}
		users := ""
		if unique {
			users = fmt.Sprintf(`{"u%06da":"admin","u%06db":"user","u%06dc":"user"}`, i, i, i)
		} else {
			users = `{"admins":"admin","users":"user","guests":"user"}`
		}
		fmt.Fprintf(sb, `{"id":"01a2451e-5298-72c4-b374-cdbce0%06d","name":"bulk-a9ee31-%05d","display-name":"bulk-a9ee31-%05d","publication-context":"bulk-a9ee31-%05d","status":%s,"technology-version":"8.0.25.100","development-mode":true,"space-id":"01a2451e-528f-71c1-859e-c288803dded4","date-created":"2026-12-05T07:32:24.848Z","date-updated":"2026-12-05T07:32:24.848Z","source":{"type":"image","image-id":"01a2451e-5298-7179-a31b-a7261b2b120d","project-version-id":"01a2451e-5298-7de4-9f23-1f81b8498c9d","project-version":"1.0-1"},"project":{"id":"01a2451e-5298-7179-a31b-a7261b2b120d","name":"Массовые приложения"},"default-user-list":"","user-lists":[],"roles":%s}`, i, i, i, i, status, users)
	}))
}

// BenchmarkEachElementCards reads the list of appCards and the live cards'
// brief fields, as `apps list --brief` does: the answer's parse and the
// card reads, per byte. live-1-in-10 has a tenth of the cards live;
// live-1-in-2 mixes the two shapes card by card; unique-keys gives every
// card keys of its own.
func BenchmarkEachElementCards(b *testing.B) {
	for _, c := range []struct {
		name   string
		every  int
		unique bool
	}{{"live-1-in-10", 10, false}, {"live-1-in-2", 2, false}, {"unique-keys", 10, true}} {
		b.Run(c.name, func(b *testing.B) {
			data := appCards(c.every, c.unique)
			timedReads(b, len(data), func() {
				live, fields := 0, 0
				err := EachElement(bytes.NewReader(data), nil, func(_ string, card *RawObject) error {
					if string(card.StrBytes("status")) == "Deleted" {
						return nil
					}
					live++
					src := card.Nested("source")
					for _, field := range [][]byte{card.StrBytes("id"), card.StrBytes("name"), card.StrBytes("uri"), src.StrBytes("project-version"), src.StrBytes("project-version-id")} {
						fields += min(len(field), 1)
					}
					return nil
				})
				if want := 50000 / c.every; err != nil || live != want || fields != 5*want {
					b.Fatalf("%d live, %d brief fields: %v", live, fields, err)
				}
			})
		})
	}
}

// BenchmarkQuoteScanCards is a bound for any parse of the list of
// BenchmarkEachElementCards/live-1-in-10: a scan from each quote to the
// next, eight bytes at a time, that checks nothing and keeps nothing, the
// bare walk over the strings a card's text mostly is. Of the portable ways
// of finding a string's end measured here it is the fastest (a byte-by-byte
// loop and bytes.IndexByte, which pays a call per short string, were
// slower), and a parse must do at least this. Its rate beside
// EachElementCards' is the room the parse has left.
func BenchmarkQuoteScanCards(b *testing.B) {
	data := appCards(10, false)
	timedReads(b, len(data), func() {
		strs := 0
		for at := quoteFrom(data, 0); at >= 0; at = quoteFrom(data, at+1) {
			end := quoteFrom(data, at+1)
			if end < 0 {
				b.Fatal("a string without its end")
			}
			strs++
			at = end
		}
		if strs < 50000*30 {
			b.Fatalf("%d strings", strs)
		}
	})
}

// quoteFrom is the offset of the first quote in b from i on, or -1.
func quoteFrom(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:]) ^ (ones * '"')
		if m := (x - ones) &^ x & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '"' {
			return i
		}
	}
	return -1
}
