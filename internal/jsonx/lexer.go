package jsonx

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// Lexer reads JSON text a token at a time and builds no values. Everything
// in elemctl that reads JSON by hand reads it through a Lexer: the decoder
// of this package, the registry's line reader, the DAP proxy's envelope
// reader and the editor of clients' configuration files (with comments).
// It follows RFC 8259; a string's escapes are checked when it is decoded
// (Unquote), not when it is read or skipped.
type Lexer struct {
	data []byte
	pos  int
	// guess, when set, holds the keys of a list's cards read so far (see
	// keyGuess).
	guess *keyGuess
}

// NewLexer reads data from its start.
func NewLexer(data []byte) Lexer { return Lexer{data: data} }

// SyntaxError is text that is not JSON, and where. Its text reaches
// users (a plugin's manifest, a rules file): it names the place by line
// and column, and no package.
type SyntaxError struct {
	Offset       int    // the byte at which reading stopped
	Line, Column int    // the same place, from 1 (the column counts bytes); 0 when not known
	What         string // what was wrong there
}

func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.What)
	}
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", e.Line, e.Column, e.What)
}

// Fail is a syntax error at the current position.
func (l *Lexer) Fail(what string) error { return l.failAt(l.pos, what) }

func (l *Lexer) failAt(pos int, what string) *SyntaxError {
	before := l.data[:min(pos, len(l.data))]
	line := 1 + bytes.Count(before, []byte{'\n'})
	column := 1 + len(before) - (bytes.LastIndexByte(before, '\n') + 1)
	return &SyntaxError{Offset: pos, Line: line, Column: column, What: what}
}

// Pos is the offset of the next byte to read.
func (l *Lexer) Pos() int { return l.pos }

// Seek moves to offset pos.
func (l *Lexer) Seek(pos int) { l.pos = pos }

// Rest is how many bytes are left to read.
func (l *Lexer) Rest() int { return len(l.data) - l.pos }

// Peek is the next byte, 0 at the end.
func (l *Lexer) Peek() byte {
	if l.pos < len(l.data) {
		return l.data[l.pos]
	}
	return 0
}

// Eat reads c when it comes next.
func (l *Lexer) Eat(c byte) bool {
	if l.pos < len(l.data) && l.data[l.pos] == c {
		l.pos++
		return true
	}
	return false
}

// Word reads w (true, false or null) when it comes next.
func (l *Lexer) Word(w string) bool {
	if len(l.data)-l.pos >= len(w) && string(l.data[l.pos:l.pos+len(w)]) == w {
		l.pos += len(w)
		return true
	}
	return false
}

// SkipSpace skips whitespace.
func (l *Lexer) SkipSpace() { l.pos = skipSpaceFrom(l.data, l.pos) }

// skipSpaceFrom is the offset of the first byte from p on that is not
// whitespace. Every byte of it is below '!': one comparison, inlined,
// passes the common case of none, compact text.
func skipSpaceFrom(d []byte, p int) int {
	if p >= len(d) || d[p] > ' ' {
		return p
	}
	return skipSpaceRun(d, p)
}

// skipSpaceRun is skipSpaceFrom past the first comparison.
func skipSpaceRun(d []byte, p int) int {
	for p < len(d) {
		switch d[p] {
		case ' ', '\t', '\n', '\r':
			p++
		default:
			return p
		}
	}
	return p
}

// SkipSpaceAndComments skips whitespace, // line comments and /* block
// comments */, as JSON with comments allows.
func (l *Lexer) SkipSpaceAndComments() error {
	for {
		l.SkipSpace()
		if l.pos+1 >= len(l.data) || l.data[l.pos] != '/' {
			return nil
		}
		switch l.data[l.pos+1] {
		case '/':
			end := bytes.IndexByte(l.data[l.pos:], '\n')
			if end < 0 {
				l.pos = len(l.data)
				return nil
			}
			l.pos += end
		case '*':
			end := bytes.Index(l.data[l.pos+2:], []byte("*/"))
			if end < 0 {
				return l.Fail("unterminated comment")
			}
			l.pos += 2 + end + 2
		default:
			return nil
		}
	}
}

// String reads a string and returns its bytes between the quotes, escapes
// as they are; escaped tells whether there are any (Unquote then decodes
// the string).
//
// A long string's closing quote is found with bytes.IndexByte and the text
// before it is checked for control characters eight bytes at a time: a
// 10 MiB source in a DAP response costs little more than a copy.
func (l *Lexer) String() (raw []byte, escaped bool, err error) {
	if !l.Eat('"') {
		return nil, false, l.Fail("expected a string")
	}
	start := l.pos
	// Most strings (keys, names, ids) are short and plain: eight bytes at
	// a time, the first quote, backslash or control character ends them
	// sooner than the calls below.
	if at := specialAt(l.data[start:min(len(l.data), start+shortString)]); at >= 0 {
		switch c := l.data[start+at]; {
		case c == '"':
			l.pos = start + at + 1
			return l.data[start : start+at], false, nil
		case c < 0x20:
			l.pos = start + at
			return nil, false, l.Fail("control character in string")
		}
		// A backslash: the general way.
	}
	end := start
	for {
		q := bytes.IndexByte(l.data[end:], '"')
		if q < 0 {
			l.pos = start - 1
			return nil, false, l.Fail("unterminated string")
		}
		end += q
		// An odd run of backslashes before the quote escapes it.
		run := end
		for run > start && l.data[run-1] == '\\' {
			run--
		}
		if (end-run)%2 == 0 {
			break
		}
		end++
	}
	raw = l.data[start:end]
	if at := controlAt(raw); at >= 0 {
		l.pos = start + at
		return nil, false, l.Fail("control character in string")
	}
	l.pos = end + 1
	return raw, bytes.IndexByte(raw, '\\') >= 0, nil
}

// plainShortStringEnd reads the string at p in d when one comes there and
// it is short and has no escape nor control character – most keys and
// card values – and gives the offset after its closing quote; otherwise -1,
// and String or SkipValue reads what comes the general way.
func plainShortStringEnd(d []byte, p int) int {
	if p >= len(d) || d[p] != '"' {
		return -1
	}
	from := p + 1
	at := specialAt(d[from:min(len(d), from+shortString)])
	if at < 0 || d[from+at] != '"' {
		return -1
	}
	return from + at + 1
}

// stringStop marks the bytes that end the plain run of a string: the
// quote, the backslash and control characters.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// specialAt is the offset of the first quote, backslash or control
// character in b, or -1. It tests eight bytes at a time, twice: for bytes
// below '#' (control characters, space, '!' and the quote) and for the
// backslash. The lowest mark of each test is exact (see controlMarks) and
// a false one lies above a true one of the same test, so the lowest of
// them all is a true one; when it is a space or a '!', the rest of those
// eight bytes are looked at one by one.
func specialAt(b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		bs := w ^ (ones * '\\')
		if m := (w-ones*('"'+1))&^w&highs | (bs-ones)&^bs&highs; m != 0 {
			at := i + bits.TrailingZeros64(m)/8
			if c := b[at]; c != ' ' && c != '!' {
				return at
			}
			for j := at + 1; j < i+8; j++ {
				if stringStop[b[j]] {
					return j
				}
			}
		}
	}
	for ; i < len(b); i++ {
		if stringStop[b[i]] {
			return i
		}
	}
	return -1
}

// shortString is how far String looks eight bytes at a time for the end
// of a plain string before it turns to bytes.IndexByte.
const shortString = 64

// controlAt is the offset of the first control character (below U+0020)
// in b, or -1. It tests eight bytes at a time (see controlMarks), 32 at a
// time while none is found.
func controlAt(b []byte) int {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		c := b[i : i+32 : i+32]
		if controlMarks(binary.LittleEndian.Uint64(c[0:8]))|controlMarks(binary.LittleEndian.Uint64(c[8:16]))|
			controlMarks(binary.LittleEndian.Uint64(c[16:24]))|controlMarks(binary.LittleEndian.Uint64(c[24:32])) != 0 {
			break
		}
	}
	for ; i+8 <= len(b); i += 8 {
		if found := controlMarks(binary.LittleEndian.Uint64(b[i:])); found != 0 {
			return i + bits.TrailingZeros64(found)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return i
		}
	}
	return -1
}

// controlMarks sets the high bit of each byte below 0x20 in eight bytes
// read little-endian – and maybe of a byte after such a one, never of a
// byte before it, so the lowest mark is exact.
func controlMarks(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (w - ones*0x20) &^ w & highs
}

// Unquote decodes a string String read: raw is its text between the
// quotes. Invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json
// has them; ok is false for a bad escape.
func Unquote(raw []byte) (s string, ok bool) {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw), true
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	if json.Unmarshal(quoted, &s) != nil {
		return "", false
	}
	return s, true
}

// Number reads a number and returns its text.
func (l *Lexer) Number() ([]byte, error) {
	start := l.pos
	l.Eat('-')
	if !l.Eat('0') && l.digits() == 0 {
		return nil, l.Fail("bad number")
	}
	if l.Eat('.') && l.digits() == 0 {
		return nil, l.Fail("bad number")
	}
	if l.Eat('e') || l.Eat('E') {
		if !l.Eat('+') {
			l.Eat('-')
		}
		if l.digits() == 0 {
			return nil, l.Fail("bad number")
		}
	}
	return l.data[start:l.pos], nil
}

func (l *Lexer) digits() int {
	start := l.pos
	for l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '9' {
		l.pos++
	}
	return l.pos - start
}

// MaxDepth bounds how deeply arrays and objects may nest.
const MaxDepth = 10000

// SkipValue reads one value of any kind, with the whitespace before it,
// and builds nothing.
func (l *Lexer) SkipValue() error { return l.skipValue(0) }

func (l *Lexer) skipValue(depth int) error {
	if depth > MaxDepth {
		return l.Fail("nesting too deep")
	}
	l.SkipSpace()
	switch c := l.Peek(); {
	case c == '{':
		return l.skipContainer(depth, '}', true)
	case c == '[':
		return l.skipContainer(depth, ']', false)
	case c == '"':
		_, _, err := l.String()
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, err := l.Number()
		return err
	case l.Word("true") || l.Word("false") || l.Word("null"):
		return nil
	}
	return l.Fail("unexpected character")
}

// skipContainer skips an object (members true) or an array, its position
// kept in a local as RawObject.index keeps it.
func (l *Lexer) skipContainer(depth int, closing byte, members bool) error {
	d := l.data
	p := skipSpaceFrom(d, l.pos+1)
	if p < len(d) && d[p] == closing {
		l.pos = p + 1
		return nil
	}
	for {
		if members {
			p = skipSpaceFrom(d, p)
			if p >= len(d) || d[p] != '"' {
				l.pos = p
				return l.Fail("expected a key")
			}
			if end := l.guess.plainKeyEnd(d, p); end >= 0 {
				p = end
			} else {
				l.pos = p
				if _, _, err := l.String(); err != nil {
					return err
				}
				p = l.pos
			}
			p = skipSpaceFrom(d, p)
			if p >= len(d) || d[p] != ':' {
				l.pos = p
				return l.Fail("expected ':'")
			}
			p = skipSpaceFrom(d, p+1)
		}
		if end := plainShortStringEnd(d, p); end >= 0 {
			p = end
		} else {
			l.pos = p
			if err := l.skipValue(depth + 1); err != nil {
				return err
			}
			p = l.pos
		}
		p = skipSpaceFrom(d, p)
		if p < len(d) && d[p] == ',' {
			p++
			continue
		}
		if p < len(d) && d[p] == closing {
			l.pos = p + 1
			return nil
		}
		l.pos = p
		return l.Fail("expected ',' or '" + string(closing) + "'")
	}
}

// Members reads a document that is one object and calls fn with each
// member's key, decoded, and the text of its value, whitespace around it
// left out. The object's values are skipped, not decoded.
func Members(data []byte, fn func(key string, value []byte) error) error {
	l := NewLexer(data)
	l.SkipSpace()
	if !l.Eat('{') {
		return l.Fail("not an object")
	}
	l.SkipSpace()
	if !l.Eat('}') {
		for {
			l.SkipSpace()
			raw, escaped, err := l.String()
			if err != nil {
				return err
			}
			key := string(raw)
			if escaped {
				var ok bool
				if key, ok = Unquote(raw); !ok {
					return l.Fail("bad string escape")
				}
			}
			l.SkipSpace()
			if !l.Eat(':') {
				return l.Fail("expected ':'")
			}
			l.SkipSpace()
			start := l.pos
			if err := l.skipValue(1); err != nil {
				return err
			}
			if err := fn(key, data[start:l.pos]); err != nil {
				return err
			}
			l.SkipSpace()
			if l.Eat('}') {
				break
			}
			if !l.Eat(',') {
				return l.Fail("expected ',' or '}'")
			}
		}
	}
	l.SkipSpace()
	if l.pos != len(data) {
		return l.Fail("data after the JSON value")
	}
	return nil
}
