package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The platform answers with lists of thousands of cards; encoding/json's
// token API allocates per token, so decoding and writing go through this
// small scanner and writer instead. Their output is the same as
// encoding/json's (checked by tests).

type scanner struct {
	data []byte
	pos  int
	// owned: data is never changed after decoding, so strings may point
	// into it instead of being copied.
	owned bool

	// An object's members are collected on these stacks and then copied
	// into exactly sized slices cut from shared slabs: a listing of
	// thousands of cards then costs a few large allocations instead of
	// several small ones per card.
	stackKeys  []string
	stackVals  []any
	stackItems []any
	slabKeys   []string
	slabVals   []any
	slabNext   int // size of the next slab

	// Objects, and the headers of the strings and numbers the values hold,
	// come from slabs too (see box).
	objects     []Object
	objectsNext int
	headers     []string
	headersNext int
	items       []any // arrays' elements
	itemsNext   int
	lists       [][]any // headers of arrays put into interfaces
	listsNext   int

	// keep, when set, filters the document's list (see DecodeOwnedKeeping).
	keep     func(any) bool
	keepKeys []string
	// fresh holds the newest slab of each kind whole, and counts them.
	fresh slabMark
}

// Slabs start small and double up to slabSize, so a listing soon cuts from
// large slabs while a small document allocates about what it holds.
const (
	firstSlabSize = 32
	slabSize      = 4096
)

// minMemberBytes is the least a member takes in JSON text (`"":0,`), so
// the rest of the input bounds how many members can still come.
const minMemberBytes = 5

// cut takes n keys and values from the slabs; the slices are full (len ==
// cap), so appending to them later reallocates instead of overwriting a
// neighbour. A slab is also no larger than the rest of the input can fill:
// a small document (a plugin manifest, one card) must not pay for a slab
// sized for a listing.
func (s *scanner) cut(n int) ([]string, []any) {
	if len(s.slabKeys) < n {
		s.slabNext = min(slabSize, max(firstSlabSize, 2*s.slabNext))
		size := max(n, min(s.slabNext, n+(len(s.data)-s.pos)/minMemberBytes+1))
		s.slabKeys, s.slabVals = make([]string, size), make([]any, size)
		s.fresh.keys, s.fresh.vals = s.slabKeys, s.slabVals
		s.fresh.keysGen++
	}
	keys, vals := s.slabKeys[:n:n], s.slabVals[:n:n]
	s.slabKeys, s.slabVals = s.slabKeys[n:], s.slabVals[n:]
	return keys, vals
}

var errSyntax = errors.New("jsonx: invalid JSON")

func (s *scanner) fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", errSyntax, what, s.pos)
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value reads any value; filtered asks an array to offer its elements to
// s.keep.
func (s *scanner) value(depth int, filtered bool) (any, error) {
	if depth > 10000 {
		return nil, s.fail("nesting too deep")
	}
	s.skipSpace()
	if s.pos >= len(s.data) {
		return nil, s.fail("unexpected end")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		return s.array(depth, filtered)
	case c == '"':
		v, err := s.str()
		if err != nil {
			return nil, err
		}
		return s.box(stringType, v), nil
	case c == 't':
		return s.literal("true", true)
	case c == 'f':
		return s.literal("false", false)
	case c == 'n':
		return s.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return nil, s.fail("unexpected character")
}

func (s *scanner) literal(word string, v any) (any, error) {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
		return nil, s.fail("bad literal")
	}
	s.pos += len(word)
	return v, nil
}

func (s *scanner) number() (any, error) {
	start := s.pos
	if s.data[s.pos] == '-' {
		s.pos++
	}
	digits := func() int {
		n := 0
		for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if s.pos < len(s.data) && s.data[s.pos] == '0' {
		s.pos++
	} else if digits() == 0 {
		return nil, s.fail("bad number")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if digits() == 0 {
			return nil, s.fail("bad number")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if digits() == 0 {
			return nil, s.fail("bad number")
		}
	}
	if s.owned {
		return s.box(numberType, unsafe.String(&s.data[start], s.pos-start)), nil
	}
	return s.box(numberType, string(s.data[start:s.pos])), nil
}

func (s *scanner) str() (string, error) {
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			if s.owned && i > start {
				return unsafe.String(&s.data[start], i-start), nil
			}
			return string(s.data[start:i]), nil
		case c == '\\':
			return s.escapedString(start)
		case c < 0x20:
			s.pos = i
			return "", s.fail("control character in string")
		}
	}
	return "", s.fail("unterminated string")
}

// escapedString decodes a string holding escapes with encoding/json.
func (s *scanner) escapedString(start int) (string, error) {
	i := start
	for i < len(s.data) {
		switch s.data[i] {
		case '\\':
			i += 2
			continue
		case '"':
			var out string
			if err := json.Unmarshal(s.data[start-1:i+1], &out); err != nil {
				s.pos = start
				return "", s.fail("bad string escape")
			}
			s.pos = i + 1
			return out, nil
		}
		i++
	}
	return "", s.fail("unterminated string")
}

func (s *scanner) object(depth int) (any, error) {
	s.pos++ // {
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return s.newObject(), nil
	}
	base := len(s.stackKeys)
	defer func() {
		// Drop this object's members (and what they reference) from the
		// stacks, whatever the outcome.
		clear(s.stackVals[base:])
		s.stackKeys, s.stackVals = s.stackKeys[:base], s.stackVals[:base]
	}()
	for {
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return nil, s.fail("expected a key")
		}
		key, err := s.str()
		if err != nil {
			return nil, err
		}
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return nil, s.fail("expected ':'")
		}
		s.pos++
		var v any
		if depth == 0 && s.keepsUnder(key) {
			v, err = s.value(depth+1, true)
		} else {
			v, err = s.value(depth+1, false)
		}
		if err != nil {
			return nil, err
		}
		s.stackKeys = append(s.stackKeys, key)
		s.stackVals = append(s.stackVals, v)
		s.skipSpace()
		if s.pos >= len(s.data) {
			return nil, s.fail("unterminated object")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return s.finishObject(base), nil
		default:
			return nil, s.fail("expected ',' or '}'")
		}
	}
}

// finishObject builds the object whose members sit on the stacks from
// base on. A key given twice keeps its last value in its first place, as
// Set does.
func (s *scanner) finishObject(base int) *Object {
	keys, vals := s.stackKeys[base:], s.stackVals[base:]
	o := s.newObject()
	if len(keys) > indexFrom || hasDuplicateKey(keys) {
		for i, k := range keys {
			o.Set(k, vals[i])
		}
		return o
	}
	o.keys, o.vals = s.cut(len(keys))
	copy(o.keys, keys)
	copy(o.vals, vals)
	return o
}

// hasDuplicateKey tells whether a key repeats among at most indexFrom
// keys. Keys are compared only when a one-byte signature of length and
// first and last byte matches, which few distinct keys share.
func hasDuplicateKey(keys []string) bool {
	var sig [indexFrom]uint8
	for i, k := range keys {
		h := uint8(len(k))
		if len(k) > 0 {
			h = h*31 + k[0]
			h = h*31 + k[len(k)-1]
		}
		for j := 0; j < i; j++ {
			if sig[j] == h && keys[j] == k {
				return true
			}
		}
		sig[i] = h
	}
	return false
}

func (s *scanner) array(depth int, filtered bool) (any, error) {
	s.pos++ // [
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return []any{}, nil
	}
	// Items gather on a stack shared by all arrays being read and are
	// copied into an exactly sized slice at the end: a long list grows
	// the reused stack instead of reallocating its own slice.
	base := len(s.stackItems)
	defer func() {
		clear(s.stackItems[base:])
		s.stackItems = s.stackItems[:base]
	}()
	for {
		before := s.mark()
		v, err := s.value(depth+1, false)
		if err != nil {
			return nil, err
		}
		if !filtered || s.keep(v) {
			s.stackItems = append(s.stackItems, v)
		} else {
			// Nothing refers to the dropped element: the next one is
			// read into its memory.
			s.rewind(before)
		}
		s.skipSpace()
		if s.pos >= len(s.data) {
			return nil, s.fail("unterminated array")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			if len(s.stackItems) == base {
				return []any{}, nil // every element dropped: empty, not null
			}
			items := s.cutItems(len(s.stackItems) - base)
			copy(items, s.stackItems[base:])
			return s.boxList(items), nil
		default:
			return nil, s.fail("expected ',' or ']'")
		}
	}
}

// keepsUnder tells whether a top-level member named key holds the list to
// filter.
func (s *scanner) keepsUnder(key string) bool {
	if s.keep == nil {
		return false
	}
	for _, k := range s.keepKeys {
		if k == key {
			return true
		}
	}
	return false
}

// slabMark is where the slabs stood; rewinding to it gives back what was
// cut from them since.
type slabMark struct {
	keys    []string
	vals    []any
	objects []Object
	headers []string
	items   []any
	lists   [][]any
	// Slabs of each kind allocated so far.
	keysGen, objectsGen, headersGen, itemsGen, listsGen int
}

func (s *scanner) mark() slabMark {
	return slabMark{s.slabKeys, s.slabVals, s.objects, s.headers, s.items, s.lists,
		s.fresh.keysGen, s.fresh.objectsGen, s.fresh.headersGen, s.fresh.itemsGen, s.fresh.listsGen}
}

// rewind gives back what was cut since m. A kind of slab that got a new
// slab in the meantime gets the new one back whole (all of it was cut
// since) and leaves the rest of the old one unused: going back to an old
// slab too short for the next element would have every dropped element
// take a fresh slab.
func (s *scanner) rewind(m slabMark) {
	if m.keysGen == s.fresh.keysGen {
		s.slabKeys, s.slabVals = m.keys, m.vals
	} else {
		s.slabKeys, s.slabVals = s.fresh.keys, s.fresh.vals
	}
	if m.objectsGen == s.fresh.objectsGen {
		s.objects = m.objects
	} else {
		s.objects = s.fresh.objects
	}
	if m.headersGen == s.fresh.headersGen {
		s.headers = m.headers
	} else {
		s.headers = s.fresh.headers
	}
	if m.itemsGen == s.fresh.itemsGen {
		s.items = m.items
	} else {
		s.items = s.fresh.items
	}
	if m.listsGen == s.fresh.listsGen {
		s.lists = m.lists
	} else {
		s.lists = s.fresh.lists
	}
}

// writer writes decoded values the way encoding/json does with
// SetEscapeHTML(false), optionally indented.
type writer struct {
	buf    []byte
	indent bool
}

func (w *writer) newline(depth int) {
	if !w.indent {
		return
	}
	w.buf = append(w.buf, '\n')
	for i := 0; i < depth; i++ {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *writer) value(v any, depth int) error {
	switch x := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, x)
	case string:
		w.str(x)
	case json.Number:
		if x == "" {
			w.buf = append(w.buf, '0')
		} else {
			w.buf = append(w.buf, x...)
		}
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, x, 10)
	case *Object:
		if x == nil {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		if len(x.keys) == 0 {
			w.buf = append(w.buf, "{}"...)
			return nil
		}
		w.buf = append(w.buf, '{')
		for i, k := range x.keys {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.str(k)
			w.buf = append(w.buf, ':')
			if w.indent {
				w.buf = append(w.buf, ' ')
			}
			if err := w.value(x.vals[i], depth+1); err != nil {
				return fmt.Errorf("key %q: %w", k, err)
			}
		}
		w.newline(depth)
		w.buf = append(w.buf, '}')
	case []any:
		if x == nil {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		if len(x) == 0 {
			w.buf = append(w.buf, "[]"...)
			return nil
		}
		w.buf = append(w.buf, '[')
		for i, e := range x {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			if err := w.value(e, depth+1); err != nil {
				return err
			}
		}
		w.newline(depth)
		w.buf = append(w.buf, ']')
	case []string:
		if x == nil {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		arr := make([]any, len(x))
		for i, s := range x {
			arr[i] = s
		}
		return w.value(arr, depth)
	default:
		return w.foreign(v, depth)
	}
	return nil
}

// foreign writes any other value with encoding/json and indents it in place.
func (w *writer) foreign(v any, depth int) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	raw := bytes.TrimRight(buf.Bytes(), "\n")
	if !w.indent {
		w.buf = append(w.buf, raw...)
		return nil
	}
	var out bytes.Buffer
	prefix := make([]byte, 2*depth)
	for i := range prefix {
		prefix[i] = ' '
	}
	if err := json.Indent(&out, raw, string(prefix), "  "); err != nil {
		return err
	}
	w.buf = append(w.buf, out.Bytes()...)
	return nil
}

const hexDigits = "0123456789abcdef"

// str quotes s as encoding/json does without HTML escaping.
func (w *writer) str(s string) {
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			w.buf = append(w.buf, s[start:i]...)
			switch c {
			case '"', '\\':
				w.buf = append(w.buf, '\\', c)
			case '\n':
				w.buf = append(w.buf, '\\', 'n')
			case '\r':
				w.buf = append(w.buf, '\\', 'r')
			case '\t':
				w.buf = append(w.buf, '\\', 't')
			case '\b':
				w.buf = append(w.buf, '\\', 'b')
			case '\f':
				w.buf = append(w.buf, '\\', 'f')
			default:
				w.buf = append(w.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.buf = append(w.buf, s[start:i]...)
			w.buf = append(w.buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			w.buf = append(w.buf, s[start:i]...)
			w.buf = append(w.buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.buf = append(w.buf, s[start:]...)
	w.buf = append(w.buf, '"')
}

// Boxing. A string or json.Number put into an interface gets its header
// allocated on its own; a listing of thousands of cards holds tens of
// thousands of them. The scanner writes the headers into slabs instead and
// builds each interface over its slab entry, as the runtime would over a
// fresh allocation. Interfaces are never written through, so sharing a
// slab is invisible to their users; the slab lives as long as any of
// them, as the input buffer of DecodeOwned already does.

// iface is the layout of an interface value with methods or without.
type iface struct{ typ, data unsafe.Pointer }

func typeWord(v any) unsafe.Pointer { return (*iface)(unsafe.Pointer(&v)).typ }

var (
	stringType = typeWord("")
	numberType = typeWord(json.Number(""))
)

const headerSlabSize = 2048

// box returns v as an interface of the type typ (stringType or
// numberType), its header taken from the slab.
func (s *scanner) box(typ unsafe.Pointer, v string) any {
	if len(s.headers) == 0 {
		s.headersNext = min(headerSlabSize, max(firstSlabSize/2, 2*s.headersNext))
		// A value takes at least two bytes with its separator.
		s.headers = make([]string, min(s.headersNext, (len(s.data)-s.pos)/2+1))
		s.fresh.headers = s.headers
		s.fresh.headersGen++
	}
	h := &s.headers[0]
	*h = v
	s.headers = s.headers[1:]
	var out any
	p := (*iface)(unsafe.Pointer(&out))
	p.typ, p.data = typ, unsafe.Pointer(h)
	return out
}

const objectSlabSize = 512

// newObject takes an empty object from the slab.
func (s *scanner) newObject() *Object {
	if len(s.objects) == 0 {
		s.objectsNext = min(objectSlabSize, max(firstSlabSize/4, 2*s.objectsNext))
		// An object takes at least two bytes ({}) and has been read.
		s.objects = make([]Object, min(s.objectsNext, (len(s.data)-s.pos)/2+1))
		s.fresh.objects = s.objects
		s.fresh.objectsGen++
	}
	o := &s.objects[0]
	*o = Object{} // it may have held a dropped element's object
	s.objects = s.objects[1:]
	return o
}

var listType = typeWord([]any(nil))

// cutItems takes n array elements from the items slab; the slice is full,
// so appending to it later reallocates instead of overwriting a neighbour.
func (s *scanner) cutItems(n int) []any {
	if len(s.items) < n {
		s.itemsNext = min(slabSize, max(firstSlabSize, 2*s.itemsNext))
		// An element takes at least two bytes with its separator.
		s.items = make([]any, max(n, min(s.itemsNext, n+(len(s.data)-s.pos)/2+1)))
		s.fresh.items = s.items
		s.fresh.itemsGen++
	}
	out := s.items[:n:n]
	s.items = s.items[n:]
	return out
}

// boxList returns an array as an interface, its header from a slab (see
// box).
func (s *scanner) boxList(v []any) any {
	if len(s.lists) == 0 {
		s.listsNext = min(headerSlabSize, max(firstSlabSize/4, 2*s.listsNext))
		s.lists = make([][]any, min(s.listsNext, (len(s.data)-s.pos)/2+1))
		s.fresh.lists = s.lists
		s.fresh.listsGen++
	}
	h := &s.lists[0]
	*h = v
	s.lists = s.lists[1:]
	var out any
	p := (*iface)(unsafe.Pointer(&out))
	p.typ, p.data = listType, unsafe.Pointer(h)
	return out
}
