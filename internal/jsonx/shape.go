package jsonx

import (
	"bytes"
	"strings"
)

// A listing prints thousands of brief cards, each a small object of the
// same keys with a few short strings: made one by one they cost a dozen
// allocations a card, most of the listing's time. Shape and Texts make
// them from a few large allocations instead.

// Shape makes objects of the same keys in the same order. They share the
// key list, a full slice, so a key added to or deleted from one of them
// copies it first (see Set and Delete); objects and values are cut from
// slabs. A Shape is not safe for concurrent use.
type Shape struct {
	keys    []string
	vals    slab[any]
	objects slab[Object]
}

// NewShape is a shape of keys, in order.
func NewShape(keys ...string) *Shape {
	return &Shape{keys: keys[:len(keys):len(keys)], vals: newSlab[any](64, 4096, 1), objects: newSlab[Object](8, 512, 1)}
}

// unbounded tells a slab that no input limits how much it may take.
const unbounded = 1 << 30

// New is an object of the shape's keys with vals, in order.
func (s *Shape) New(vals ...any) *Object {
	o := &s.objects.take(1, unbounded)[0]
	o.keys = s.keys
	o.vals = s.vals.take(len(s.keys), unbounded)
	copy(o.vals, vals)
	return o
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

// StrValue is Value for a card whose strings are kept in texts: a string
// without escapes is copied there instead of into a string of its own;
// anything else is Value's.
func (r *RawObject) StrValue(texts *Texts, key string) any {
	v, ok := r.raw(key)
	if ok && len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 {
		return texts.Keep(v[1 : len(v)-1])
	}
	return r.Value(key)
}
