package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Object is a JSON object that keeps its keys in order, so a platform card
// passes through a plugin unchanged and a plugin's own answers read in the
// order it built them.
type Object struct {
	keys []string
	vals map[string]any
}

// NewObject builds an object from key/value pairs: NewObject("id", 1, "ok", true).
func NewObject(pairs ...any) *Object {
	o := &Object{}
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Set(fmt.Sprint(pairs[i]), pairs[i+1])
	}
	return o
}

// Set adds key at the end, or replaces its value in place.
func (o *Object) Set(key string, v any) *Object {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Value is the value of key, or nil.
func (o *Object) Value(key string) any { v, _ := o.Get(key); return v }

// Str is the value of key when it is a string, else "".
func (o *Object) Str(key string) string { s, _ := o.Value(key).(string); return s }

// Obj is the value of key when it is an object, else nil.
func (o *Object) Obj(key string) *Object { v, _ := o.Value(key).(*Object); return v }

// Int is the value of key when it is an integral number.
func (o *Object) Int(key string) (int64, bool) {
	if n, ok := o.Value(key).(json.Number); ok {
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// Keys lists the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// MarshalJSON writes the object in key order.
func (o *Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := json.Marshal(o.vals[k])
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads an object keeping key order.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := Decode(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*Object)
	if !ok {
		return errors.New("sdk: not a JSON object")
	}
	*o = *obj
	return nil
}

// Decode parses JSON: objects become *Object, arrays []any, numbers
// json.Number.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("sdk: data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := &Object{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := kt.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.Set(key, v)
		}
		_, err := dec.Token()
		return o, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return nil, fmt.Errorf("sdk: unexpected %v", d)
}
