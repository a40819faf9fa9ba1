// Package jsonx keeps JSON objects in the order they came in, so a platform
// card passes through elemctl with every field and in the platform's order,
// and elemctl's own answers keep their documented key order. Its Lexer is
// elemctl's one JSON tokenizer: whatever reads JSON by hand reads it
// through the Lexer.
package jsonx

import (
	"encoding/json"
	"errors"
	"io"
)

// Object is a JSON object that remembers key order. The zero value is an
// empty object ready to use.
//
// Cards have a dozen or two keys, so values sit in a slice beside the keys
// and are found by a linear scan; an index map appears only for large
// objects. That keeps decoding thousands of cards cheap.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // built once an object grows past indexFrom keys
}

const indexFrom = 24

// New builds an object from key/value pairs: New("id", 1, "name", "x").
func New(pairs ...any) *Object {
	o := &Object{keys: make([]string, 0, len(pairs)/2), vals: make([]any, 0, len(pairs)/2)}
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Set(pairs[i].(string), pairs[i+1])
	}
	return o
}

func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Set adds key at the end, or replaces its value in place.
func (o *Object) Set(key string, v any) *Object {
	if i := o.find(key); i >= 0 {
		o.vals[i] = v
		return o
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[key] = len(o.keys) - 1
	} else if len(o.keys) > indexFrom {
		o.reindex()
	}
	return o
}

func (o *Object) reindex() {
	o.index = make(map[string]int, len(o.keys))
	for i, k := range o.keys {
		o.index[k] = i
	}
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Value returns the value of key or nil.
func (o *Object) Value(key string) any { v, _ := o.Get(key); return v }

// Has tells whether key is present (even with a null value).
func (o *Object) Has(key string) bool { _, ok := o.Get(key); return ok }

// Delete removes key.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	i := o.find(key)
	if i < 0 {
		return
	}
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
	o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
	if o.index != nil {
		o.reindex()
	}
}

// Keys lists the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// Len is the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Str returns the value of key when it is a string, else "".
func (o *Object) Str(key string) string {
	s, _ := o.Value(key).(string)
	return s
}

// StrBytes is Str as a new byte slice, nil for "".
func (o *Object) StrBytes(key string) []byte {
	if s := o.Str(key); s != "" {
		return []byte(s)
	}
	return nil
}

// Nested is Obj as Fields: a nil *Object, which reads as empty, when key
// holds no object.
func (o *Object) Nested(key string) Fields { return o.Obj(key) }

// Obj returns the value of key when it is an object, else nil.
func (o *Object) Obj(key string) *Object {
	v, _ := o.Value(key).(*Object)
	return v
}

// Bool returns the value of key when it is a boolean, else false.
func (o *Object) Bool(key string) bool {
	b, _ := o.Value(key).(bool)
	return b
}

// Int returns the value of key when it is an integral number.
func (o *Object) Int(key string) (int64, bool) {
	switch n := o.Value(key).(type) {
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), float64(int64(n)) == n
	}
	return 0, false
}

// Clone copies the object and, deeply, every nested object and array.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := &Object{keys: append([]string(nil), o.keys...), vals: make([]any, len(o.vals))}
	for i, v := range o.vals {
		c.vals[i] = CloneValue(v)
	}
	if o.index != nil {
		c.reindex()
	}
	return c
}

// CloneValue deep-copies a decoded JSON value.
func CloneValue(v any) any {
	switch x := v.(type) {
	case *Object:
		return x.Clone()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CloneValue(e)
		}
		return out
	}
	return v
}

// MarshalJSON writes the object in key order.
func (o *Object) MarshalJSON() ([]byte, error) {
	w := writer{}
	if err := w.value(o, 0); err != nil {
		return nil, err
	}
	return w.buf, nil
}

// UnmarshalJSON reads an object keeping key order; nested objects become
// *Object, numbers json.Number.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := Decode(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*Object)
	if !ok {
		return errors.New("not a JSON object")
	}
	*o = *obj
	return nil
}

// Decode parses one JSON value: objects become *Object, arrays []any,
// numbers json.Number.
func Decode(data []byte) (any, error) { return decode(data) }

func decode(data []byte) (any, error) {
	s := scanner{Lexer: NewLexer(data), slabs: newSlabs()}
	return s.document()
}

// document reads the whole input as one value.
func (s *scanner) document() (any, error) {
	data := s.data
	v, err := s.value(0)
	if err != nil {
		return nil, err
	}
	s.SkipSpace()
	if s.pos != len(data) {
		return nil, s.failAt(s.pos, "data after the JSON value")
	}
	return v, nil
}

// Marshal writes v the way elemctl prints answers: two-space indent,
// non-ASCII and <>& unescaped, a trailing newline.
func Marshal(v any) ([]byte, error) {
	w := writer{indent: true, buf: make([]byte, 0, 4096)}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return append(w.buf, '\n'), nil
}

// MarshalTo writes v to out as Marshal spells it, a piece at a time as it
// is made: a list of thousands of cards is megabytes of text, which is
// never held whole. An error of v leaves what was written before it.
func MarshalTo(out io.Writer, v any) error {
	// Room for what is held before a spill and the element that crosses
	// it: the buffer seldom grows.
	w := writer{indent: true, buf: make([]byte, 0, 2*spillAt), out: out}
	if err := w.value(v, 0); err != nil {
		return err
	}
	if w.err != nil {
		return w.err
	}
	w.buf = append(w.buf, '\n')
	_, err := out.Write(w.buf)
	return err
}

// Compact writes v on one line without HTML escaping.
func Compact(v any) ([]byte, error) {
	w := writer{}
	if err := w.value(v, 0); err != nil {
		return nil, err
	}
	return w.buf, nil
}

// Objects picks the objects out of a decoded array – an Encoded one read
// back – dropping anything else.
func Objects(v any) []*Object {
	arr, _ := v.([]any)
	out := make([]*Object, 0, len(arr))
	for _, e := range arr {
		if text, ok := e.(Encoded); ok {
			e, _ = Decode([]byte(text))
		}
		if o, ok := e.(*Object); ok {
			out = append(out, o)
		}
	}
	return out
}

// FromStruct converts any JSON-marshalable value into decoded form
// (*Object / []any / ...), keeping struct field order.
func FromStruct(v any) (any, error) {
	raw, err := Compact(v)
	if err != nil {
		return nil, err
	}
	return Decode(raw)
}

// Truthy reads a loosely typed platform flag: false, null, 0, "" and
// empty collections are false, anything else is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case float64:
		return x != 0
	case int:
		return x != 0
	case int64:
		return x != 0
	case []any:
		return len(x) > 0
	case *Object:
		return x.Len() > 0
	}
	return true
}
