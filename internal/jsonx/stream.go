package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// The platform answers with lists of tens of thousands of cards, of which
// a listing prints a few: the ten newest builds, the live applications
// among deleted ones. EachElement reads such a list as it arrives, a piece
// at a time, and hands each card to its caller as a RawObject – the card's
// text with its members found, nothing decoded – so a card that is
// dropped costs no memory and no strings, and the answer is never held
// whole.

// Fields reads a card's members: an Object, or a RawObject not decoded.
type Fields interface {
	// Str is the value of key when it is a string, else "".
	Str(key string) string
	// StrBytes is Str as bytes, which a RawObject gives without a copy
	// (valid until its reader reads on): for a card read only to compare
	// or look up.
	StrBytes(key string) []byte
	// Value is the value of key decoded, nil when absent.
	Value(key string) any
	// Obj is the value of key when it is an object, else nil.
	Obj(key string) *Object
	// Nested is the object under key read as Fields – of a RawObject
	// without decoding it, valid until the next Nested call on the same
	// object – and reads as empty when there is none.
	Nested(key string) Fields
}

var (
	_ Fields = (*Object)(nil)
	_ Fields = (*RawObject)(nil)
)

// RawObject is an object as its JSON text, with the spans of its top-level
// members. It is valid until the reader that handed it out reads on: keep
// Text copied, or Decode it.
type RawObject struct {
	text    []byte
	members []rawMember
	// nested is the object the last Nested call read; the next one reads
	// into it again, so that a long list's cards cost no allocation.
	nested *RawObject
}

// rawMember is a member's key (between its quotes) and value, as offsets
// into the object's text. plainValue tells a string value read as plain
// (no escape): most of a card's values, whose text is then theirs as is.
type rawMember struct {
	keyFrom, keyTo, valueFrom, valueTo int
	escapedKey, plainValue             bool
}

// Text is the object's JSON text.
func (r *RawObject) Text() []byte { return r.text }

// raw is the text of key's value; a key given twice gives its last value,
// as Decode keeps it.
func (r *RawObject) raw(key string) ([]byte, bool) {
	if m := r.member(key); m != nil {
		return r.text[m.valueFrom:m.valueTo], true
	}
	return nil, false
}

// member is key's member, the last when it is given twice; nil when none.
func (r *RawObject) member(key string) *rawMember {
	if r == nil {
		return nil
	}
	for i := len(r.members) - 1; i >= 0; i-- {
		m := &r.members[i]
		// Most keys differ in length: the text is compared only then.
		switch {
		case m.escapedKey:
			if s, ok := Unquote(r.text[m.keyFrom:m.keyTo]); ok && s == key {
				return m
			}
		case m.keyTo-m.keyFrom == len(key) && string(r.text[m.keyFrom:m.keyTo]) == key:
			return m
		}
	}
	return nil
}

// str is the text between the quotes of key's value when it is a string,
// and whether that text needs no unquoting; ok false when it is no string.
func (r *RawObject) str(key string) (inner []byte, plain, ok bool) {
	m := r.member(key)
	if m == nil {
		return nil, false, false
	}
	v := r.text[m.valueFrom:m.valueTo]
	if m.plainValue {
		return v[1 : len(v)-1], true, true
	}
	if len(v) < 2 || v[0] != '"' {
		return nil, false, false
	}
	inner = v[1 : len(v)-1]
	return inner, bytes.IndexByte(inner, '\\') < 0, true
}

// Str is the value of key when it is a string, else "".
func (r *RawObject) Str(key string) string {
	inner, plain, ok := r.str(key)
	if !ok || plain {
		return string(inner)
	}
	s, _ := Unquote(inner)
	return s
}

// StrBytes is Str without a string made: the text of key's value when it
// is a string without escapes (valid until the reader reads on), else a
// copy decoded; nil when it is no string.
func (r *RawObject) StrBytes(key string) []byte {
	inner, plain, ok := r.str(key)
	if !ok || plain {
		return inner
	}
	s, _ := Unquote(inner)
	return []byte(s)
}

// Value is the value of key decoded, nil when absent.
func (r *RawObject) Value(key string) any {
	m := r.member(key)
	if m == nil {
		return nil
	}
	v := r.text[m.valueFrom:m.valueTo]
	// The scalars a brief card is made of are read here; objects and
	// arrays, and strings with escapes, by Decode.
	switch {
	case m.plainValue || len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0:
		return string(v[1 : len(v)-1])
	case string(v) == "null":
		return nil
	case string(v) == "true":
		return true
	case string(v) == "false":
		return false
	case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
		return json.Number(v)
	}
	out, err := Decode(v)
	if err != nil {
		return nil
	}
	return out
}

// Obj is the value of key when it is an object, else nil.
func (r *RawObject) Obj(key string) *Object {
	o, _ := r.Value(key).(*Object)
	return o
}

// Nested is the object under key as a RawObject over the same text, valid
// as long as r and until the next Nested call on r; nil (which reads as
// empty) when key holds no object.
func (r *RawObject) Nested(key string) Fields {
	v, ok := r.raw(key)
	if !ok || v[0] != '{' {
		return (*RawObject)(nil)
	}
	if r.nested == nil {
		r.nested = &RawObject{}
	}
	nested := r.nested
	l := NewLexer(v)
	if nested.index(&l, 0) != nil {
		return (*RawObject)(nil)
	}
	return nested
}

// Decode decodes the whole object. Its strings are copies: the object
// stays valid after the reader reads on.
func (r *RawObject) Decode() (*Object, error) {
	v, err := Decode(r.text)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, errors.New("jsonx: not an object")
	}
	return o, nil
}

// EachElement reads the list in r – the document itself when it is an
// array, else the arrays held at its top level under any of keys – and
// calls fn with each object element as it is read, with the key its array
// is under ("" for a document that is an array). Elements that are not
// objects are read and passed over; so is every other member. The text is
// checked as Decode checks it, but for the escapes of strings, which are
// checked where they are decoded (RawObject's Str, Value, Decode): a
// syntax error stops the reading, and so does an error fn returns.
func EachElement(r io.Reader, keys []string, fn func(key string, obj *RawObject) error) error {
	s := &stream{r: r, buf: make([]byte, streamChunk), guess: keyGuess{slots: []keySlot{{}}}}
	s.readItem, s.readKey, s.readPunct = s.item, s.keyColon, s.punctuation
	if err := s.element(skipSpace); err != nil {
		return err
	}
	switch s.peek() {
	case '[':
		if err := s.list("", fn); err != nil {
			return err
		}
	case '{':
		if err := s.object(keys, fn); err != nil {
			return err
		}
	default:
		if err := s.element(skipValue); err != nil {
			return err
		}
	}
	if err := s.element(skipSpace); err != nil {
		return err
	}
	if s.pos < s.end {
		return s.fail("data after the JSON value")
	}
	return nil
}

// streamChunk is how much a read asks for at least.
const streamChunk = 64 << 10

// stream is the unread part of a document, read in pieces: buf[pos:end]
// holds what arrived and is not read yet.
type stream struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	consumed int // bytes dropped from buf before pos: the offsets of errors
	obj      RawObject
	lex      Lexer
	guess    keyGuess // the keys of the cards read so far

	// The readers element runs, made once: a closure made per element
	// would cost an allocation each.
	readItem, readKey, readPunct func(l *Lexer) error
	isObject                     bool   // what readItem read
	key                          string // what readKey read
	punctSet, punctWhat          string // what readPunct expects
	punctGot                     byte   // and what it read
}

func skipSpace(l *Lexer) error { l.SkipSpace(); return nil }
func skipValue(l *Lexer) error { return l.SkipValue() }

// element runs read over the buffered text and moves past what it read.
// A token may be cut where the text arrived so far ends: when read fails,
// or stops at the very end, more text is read – at least as much again as
// is buffered, so a long token costs a few tries, not one per piece – and
// read runs again from the same place; at the end of the document its
// failure is final.
func (s *stream) element(read func(l *Lexer) error) error {
	for {
		s.lex = Lexer{data: s.buf[s.pos:s.end], guess: &s.guess}
		l := &s.lex
		err := read(l)
		// Stopping short of the end is a token read whole; stopping at
		// the end may be one cut short (a number, the spaces before the
		// next token) until the document ends there.
		if err == nil && (l.Rest() > 0 || s.eof) {
			s.pos += l.Pos()
			return nil
		}
		if s.eof {
			var se *SyntaxError
			if errors.As(err, &se) {
				// The lexer placed it in the element's text.
				*se = *s.syntaxError(s.pos+se.Offset, se.What)
			}
			return err
		}
		if err := s.more(); err != nil {
			return err
		}
	}
}

// more moves the unread text to the buffer's start and reads at least as
// much again after it – what has arrived, when nothing is unread – so a
// long token cut short costs a few tries, not one per piece, and what has
// arrived is read at once, not when the room is full: a list whose rest is
// slow to come is read as far as it came. The buffer doubles only when the
// unread text takes more than half of it, so the room is always at least
// as much again, and the chunk a card crosses the end of is read into the
// same memory, which is not touched afresh.
func (s *stream) more() error {
	if s.pos > 0 {
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.consumed += s.pos
		s.pos, s.end = 0, n
	}
	if 2*s.end > len(s.buf) {
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	unread := s.end
	for s.end < len(s.buf) {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err == io.EOF {
			s.eof = true
			return nil
		}
		if err != nil {
			return err // an answer cut short is the reader's error, not the end
		}
		if s.end > unread && s.end >= 2*unread {
			return nil
		}
	}
	return nil
}

func (s *stream) peek() byte {
	if s.pos < s.end {
		return s.buf[s.pos]
	}
	return 0
}

func (s *stream) fail(what string) error { return s.syntaxError(s.pos, what) }

// syntaxError is a fault at pos in the buffer, placed by its line and
// column while the buffer holds the document from its start; once text
// before it is dropped, its lines uncounted, by its offset alone.
func (s *stream) syntaxError(pos int, what string) *SyntaxError {
	if s.consumed == 0 {
		return (&Lexer{data: s.buf[:s.end]}).failAt(pos, what)
	}
	return &SyntaxError{Offset: s.consumed + pos, What: what}
}

// punct reads one of the bytes in set after whitespace and returns it.
func (s *stream) punct(set string, what string) (byte, error) {
	s.punctSet, s.punctWhat = set, what
	err := s.element(s.readPunct)
	return s.punctGot, err
}

func (s *stream) punctuation(l *Lexer) error {
	l.SkipSpace()
	b := l.Peek()
	if b == 0 || strings.IndexByte(s.punctSet, b) < 0 {
		return l.Fail(s.punctWhat)
	}
	s.punctGot = b
	l.Seek(l.Pos() + 1)
	return nil
}

// item reads an element of a list: an object into s.obj, anything else
// skipped.
func (s *stream) item(l *Lexer) error {
	l.SkipSpace()
	start := l.Pos()
	if s.isObject = l.Peek() == '{'; !s.isObject {
		return l.SkipValue()
	}
	return s.obj.index(l, start)
}

// keyColon reads a member's key and the colon after it.
func (s *stream) keyColon(l *Lexer) error {
	l.SkipSpace()
	raw, escaped, err := l.String()
	if err != nil {
		return err
	}
	s.key = string(raw)
	if escaped {
		var ok bool
		if s.key, ok = Unquote(raw); !ok {
			return l.Fail("bad string escape")
		}
	}
	l.SkipSpace()
	if !l.Eat(':') {
		return l.Fail("expected ':'")
	}
	l.SkipSpace()
	return nil
}

// list reads an array whose '[' is next and hands its objects to fn.
func (s *stream) list(key string, fn func(string, *RawObject) error) error {
	s.pos++ // [
	if err := s.element(skipSpace); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := s.element(s.readItem); err != nil {
			return err
		}
		if s.isObject {
			if err := fn(key, &s.obj); err != nil {
				return err
			}
		}
		c, err := s.punct(",]", "expected ',' or ']'")
		if err != nil {
			return err
		}
		if c == ']' {
			return nil
		}
	}
}

// object reads a document that is an object and streams the arrays under
// keys.
func (s *stream) object(keys []string, fn func(string, *RawObject) error) error {
	s.pos++ // {
	if err := s.element(skipSpace); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if err := s.element(s.readKey); err != nil {
			return err
		}
		key := s.key
		listed := false
		for _, k := range keys {
			listed = listed || k == key
		}
		var err error
		if listed && s.peek() == '[' {
			err = s.list(key, fn)
		} else {
			err = s.element(skipValue)
		}
		if err != nil {
			return err
		}
		c, err := s.punct(",}", "expected ',' or '}'")
		if err != nil {
			return err
		}
		if c == '}' {
			return nil
		}
	}
}

// index reads the object at l's position (its '{' next, start its offset)
// into r: its text and the spans of its members, values skipped. The
// position is kept in a local, given to the Lexer only for what compact
// text with short plain strings does not have: kept in the Lexer, it is
// stored and loaded again at every token of a long list. A member is
// written in place: one made whole and copied in is read back in pieces
// wider than it was written in, a stall at every member.
func (r *RawObject) index(l *Lexer, start int) error {
	r.members = r.members[:0]
	l.guess.startCard()
	d := l.data
	p := skipSpaceFrom(d, start+1)
	if p < len(d) && d[p] == '}' {
		p++
	} else {
		for {
			p = skipSpaceFrom(d, p)
			if p >= len(d) || d[p] != '"' {
				l.pos = p
				return l.Fail("expected a key")
			}
			keyFrom := p + 1
			escaped := false
			if end := l.guess.plainKeyEnd(d, p); end >= 0 {
				p = end
			} else {
				l.pos = p
				var err error
				if _, escaped, err = l.String(); err != nil {
					return err
				}
				p = l.pos
			}
			keyTo := p - 1
			p = skipSpaceFrom(d, p)
			if p >= len(d) || d[p] != ':' {
				l.pos = p
				return l.Fail("expected ':'")
			}
			p = skipSpaceFrom(d, p+1)
			valueFrom := p
			plain := false
			if end := plainShortStringEnd(d, p); end >= 0 {
				p, plain = end, true
			} else if len(d)-p >= 4 && string(d[p:p+4]) == "null" {
				p += 4 // a card's usual other value, read as skipValue reads it
			} else {
				l.pos = p
				if err := l.skipValue(1); err != nil {
					return err
				}
				p = l.pos
			}
			if len(r.members) == cap(r.members) {
				r.members = slices.Grow(r.members, 1)
			}
			r.members = r.members[:len(r.members)+1]
			m := &r.members[len(r.members)-1]
			m.keyFrom, m.keyTo, m.valueFrom, m.valueTo, m.escapedKey, m.plainValue = keyFrom-start, keyTo-start, valueFrom-start, p-start, escaped, plain
			p = skipSpaceFrom(d, p)
			if p < len(d) && d[p] == ',' {
				p++
				continue
			}
			if p < len(d) && d[p] == '}' {
				p++
				break
			}
			l.pos = p
			return l.Fail("expected ',' or '}'")
		}
	}
	l.pos = p
	r.text = d[start:p]
	return nil
}
