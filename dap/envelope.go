package dap

import (
	"bytes"
	"encoding/json"
	"errors"
)

// envelope is all the proxy reads of a message it forwards.
type envelope struct {
	Seq        int    `json:"seq"`
	Type       string `json:"type"`
	Command    string `json:"command"`
	Event      string `json:"event"`
	RequestSeq int    `json:"request_seq"`
	Success    bool   `json:"success"`
}

// peek decodes the envelope; a body that is not a JSON object fails.
func peek(body []byte) (envelope, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return env, err
	}
	if env.Type == "" {
		return env, errors.New("no message type")
	}
	return env, nil
}

// rawObject is a JSON object whose values stay as they came, in order, so
// a rewrite touches only the keys it sets.
type rawObject struct {
	keys []string
	vals map[string]json.RawMessage
}

func decodeRawObject(data []byte) (*rawObject, error) {
	o := &rawObject{vals: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if tok == nil { // JSON null counts as an empty object
			return o, nil
		}
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *rawObject) has(key string) bool { _, ok := o.vals[key]; return ok }

func (o *rawObject) get(key string) json.RawMessage { return o.vals[key] }

// str returns the value of key when it is a JSON string.
func (o *rawObject) str(key string) (string, bool) {
	v, ok := o.vals[key]
	if !ok {
		return "", false
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// isNull tells whether key is missing or null.
func (o *rawObject) isNull(key string) bool {
	v, ok := o.vals[key]
	return !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

func (o *rawObject) set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// setValue marshals v (without HTML escaping) and sets it.
func (o *rawObject) setValue(key string, v any) {
	o.set(key, mustMarshal(v))
}

// setDefault sets key only when the object does not have it yet.
func (o *rawObject) setDefault(key string, v any) {
	if !o.has(key) {
		o.setValue(key, v)
	}
}

func (o *rawObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(mustMarshal(k))
		buf.WriteByte(':')
		buf.Write(o.vals[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// mustMarshal encodes values the proxy builds itself; they always encode.
func mustMarshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("dap: cannot encode " + err.Error())
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
