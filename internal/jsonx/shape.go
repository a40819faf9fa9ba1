package jsonx

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A listing prints thousands of brief cards, each a small object of the
// same keys with a few short strings. Made as Objects they cost a dozen
// allocations and about 400 bytes a card – the values' slice, the object,
// every string boxed – and the pages that memory is first touched in are
// much of a long listing's time. A Shape writes each card as the compact
// text it will be printed as instead: one string in a shared block, and
// nothing for the collector to trace inside it.

// Encoded is a value kept as the compact JSON text this package writes
// for it. A writer copies it as it is, or indents it to its place, so it
// prints exactly as the value it was made from; Decode reads it back.
type Encoded string

// MarshalJSON is the text itself.
func (e Encoded) MarshalJSON() ([]byte, error) { return []byte(e), nil }

// Shape writes objects of the same keys in the same order as Encoded
// texts kept in shared blocks. A Shape is not safe for concurrent use.
type Shape struct {
	// heads are the text before each value: `{"id":`, `,"name":`, …
	heads []string
	next  int
	w     writer
	texts Texts
}

// NewShape is a shape of keys, in order.
func NewShape(keys ...string) *Shape {
	s := &Shape{}
	for i, k := range keys {
		w := writer{}
		if i == 0 {
			w.buf = append(w.buf, '{')
		} else {
			w.buf = append(w.buf, ',')
		}
		w.str(k)
		s.heads = append(s.heads, string(append(w.buf, ':')))
	}
	return s
}

// head writes the text before the next value.
func (s *Shape) head() {
	s.w.buf = append(s.w.buf, s.heads[s.next]...)
	s.next++
}

// Member writes the value of key in f as the next member: a string of a
// RawObject without escapes is copied from its text, anything else is
// Value's, and an absent key is null.
func (s *Shape) Member(f Fields, key string) {
	s.head()
	if r, ok := f.(*RawObject); ok {
		v, found := r.raw(key)
		if found && len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 {
			s.w.text(v[1 : len(v)-1])
			return
		}
	}
	// A write error is a value JSON cannot hold, which a decoded card
	// never has.
	_ = s.w.value(f.Value(key), 0)
}

// Text writes the string text as the next member.
func (s *Shape) Text(text []byte) {
	s.head()
	s.w.text(text)
}

// End closes the object and is its text; the next member written begins
// another object.
func (s *Shape) End() Encoded {
	s.w.buf = append(s.w.buf, '}')
	e := Encoded(s.texts.Keep(s.w.buf))
	s.w.buf, s.next = s.w.buf[:0], 0
	return e
}

// Texts keeps many short strings in shared blocks: one allocation for
// thousands of them. A block is a strings.Builder's, which never changes
// what it holds, so a string cut from it stays valid as it grows or is
// replaced. Texts is not safe for concurrent use.
type Texts struct {
	block strings.Builder
}

// textsBlock is how much room a block of Texts has.
const textsBlock = 64 << 10

// Keep is the parts joined, as one string kept in a block.
func (t *Texts) Keep(parts ...[]byte) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if t.block.Cap()-t.block.Len() < n {
		t.block = strings.Builder{}
		t.block.Grow(max(textsBlock, n))
	}
	from := t.block.Len()
	for _, p := range parts {
		t.block.Write(p)
	}
	return t.block.String()[from:]
}

// text quotes a string given as bytes: copied as it is when str would
// write it unchanged – no quote, backslash or control character, valid
// UTF-8 without a line or paragraph separator – else str's.
func (w *writer) text(b []byte) {
	if specialAt(b) < 0 && utf8.Valid(b) && (bytes.IndexByte(b, 0xe2) < 0 || !hasLineSeparator(b)) {
		w.buf = append(w.buf, '"')
		w.buf = append(w.buf, b...)
		w.buf = append(w.buf, '"')
		return
	}
	w.str(string(b))
}

// separatorLead is how U+2028 and U+2029 begin in UTF-8.
var separatorLead = []byte{0xe2, 0x80}

// hasLineSeparator tells whether b holds U+2028 or U+2029, which str
// escapes.
func hasLineSeparator(b []byte) bool {
	for {
		i := bytes.Index(b, separatorLead)
		if i < 0 || i+2 >= len(b) {
			return false
		}
		if c := b[i+2]; c == 0xa8 || c == 0xa9 {
			return true
		}
		b = b[i+2:]
	}
}

// encoded writes e, indented to depth when the writer indents. The text
// is this package's compact output, so outside its strings every byte is
// a number, a literal or punctuation, and inside them a backslash always
// escapes the byte after it.
func (w *writer) encoded(e Encoded, depth int) {
	if !w.indent {
		w.buf = append(w.buf, e...)
		return
	}
	for i := 0; i < len(e); {
		switch c := e[i]; c {
		case '"':
			end := i + 1
			for {
				at := stringEndAt(e[end:])
				end += at
				if e[end] == '"' {
					break
				}
				end += 2 // a backslash and the byte it escapes
			}
			w.buf = append(w.buf, e[i:end+1]...)
			i = end + 1
			continue
		case '{', '[':
			if i+1 < len(e) && (e[i+1] == '}' || e[i+1] == ']') {
				w.buf = append(w.buf, c, e[i+1])
				i += 2
				continue
			}
			depth++
			w.buf = append(w.buf, c)
			w.newline(depth)
		case '}', ']':
			depth--
			w.newline(depth)
			w.buf = append(w.buf, c)
		case ',':
			w.buf = append(w.buf, ',')
			w.newline(depth)
		case ':':
			w.buf = append(w.buf, ':', ' ')
		default:
			w.buf = append(w.buf, c)
		}
		i++
	}
}

// stringEndAt is the offset of the first quote or backslash in s, a
// string of this package's output; there is one before its end.
func stringEndAt(s Encoded) int {
	for i := 0; ; i++ {
		if c := s[i]; c == '"' || c == '\\' {
			return i
		}
	}
}
