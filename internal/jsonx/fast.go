package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// The platform answers with lists of thousands of cards; encoding/json's
// token API allocates per token, so decoding and writing go through this
// small scanner and writer instead. Their output is the same as
// encoding/json's (checked by tests).

// scanner decodes what its Lexer reads.
type scanner struct {
	Lexer

	// An object's members and an array's elements are collected on these
	// stacks and then copied into exactly sized slices cut from slabs (see
	// slabs).
	stackKeys  []string
	stackVals  []any
	stackItems []any
	slabs
}

// value reads any value.
func (s *scanner) value(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, s.Fail("nesting too deep")
	}
	s.SkipSpace()
	if s.pos >= len(s.data) {
		return nil, s.Fail("unexpected end")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(depth)
	case c == '[':
		return s.array(depth)
	case c == '"':
		return s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := s.Number()
		return json.Number(n), err
	case s.Word("true"):
		return true, nil
	case s.Word("false"):
		return false, nil
	case s.Word("null"):
		return nil, nil
	}
	return nil, s.Fail("unexpected character")
}

// str reads a string; one with escapes is decoded as encoding/json does.
func (s *scanner) str() (string, error) {
	start := s.pos
	raw, escaped, err := s.String()
	if err != nil || !escaped {
		return string(raw), err
	}
	out, ok := Unquote(raw)
	if !ok {
		s.pos = start + 1
		return "", s.Fail("bad string escape")
	}
	return out, nil
}

func (s *scanner) object(depth int) (any, error) {
	s.pos++ // {
	s.SkipSpace()
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
		s.SkipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return nil, s.Fail("expected a key")
		}
		key, err := s.str()
		if err != nil {
			return nil, err
		}
		s.SkipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return nil, s.Fail("expected ':'")
		}
		s.pos++
		v, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		s.stackKeys = append(s.stackKeys, key)
		s.stackVals = append(s.stackVals, v)
		s.SkipSpace()
		if s.pos >= len(s.data) {
			return nil, s.Fail("unterminated object")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return s.finishObject(base), nil
		default:
			return nil, s.Fail("expected ',' or '}'")
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
	o.keys, o.vals = s.cutMembers(len(keys))
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

func (s *scanner) array(depth int) (any, error) {
	s.pos++ // [
	s.SkipSpace()
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
		v, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		s.stackItems = append(s.stackItems, v)
		s.SkipSpace()
		if s.pos >= len(s.data) {
			return nil, s.Fail("unterminated array")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			items := s.items.take(len(s.stackItems)-base, s.Rest())
			copy(items, s.stackItems[base:])
			return items, nil
		default:
			return nil, s.Fail("expected ',' or ']'")
		}
	}
}

// writer writes decoded values the way encoding/json does with
// SetEscapeHTML(false), optionally indented.
type writer struct {
	buf    []byte
	indent bool
	// out, when set, takes the text whenever spillAt bytes are made;
	// err is its first failure, after which nothing more is written.
	out io.Writer
	err error
}

// spillAt is how much text a writer with an out holds before writing it.
// Little, so that the memory the text is made in stays the same few
// pages however long the answer is: on a machine where touching a fresh
// page costs more than a write of it, a larger buffer is slower.
const spillAt = 16 << 10

// spill writes the text made so far to out once there is enough of it.
func (w *writer) spill() error {
	if w.out == nil || len(w.buf) < spillAt {
		return w.err
	}
	if w.err == nil {
		_, w.err = w.out.Write(w.buf)
	}
	w.buf = w.buf[:0]
	return w.err
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
	case Encoded:
		w.encoded(x, depth)
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
			if err := w.spill(); err != nil {
				return err
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
			if err := w.spill(); err != nil {
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
