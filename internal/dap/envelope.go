package dap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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

// peek reads the envelope. It walks only the top level of the object and
// skips every other value without decoding it, so a 10 MiB variables or
// source response costs a scan, not a parse. A body that is not a JSON
// object at the top level fails.
func peek(body []byte) (envelope, error) {
	var env envelope
	sc := scanner{b: body}
	sc.space()
	if !sc.eat('{') {
		return env, errNotObject
	}
	sc.space()
	if !sc.eat('}') {
		for {
			sc.space()
			key, ok := sc.rawString()
			if !ok {
				return env, errNotObject
			}
			sc.space()
			if !sc.eat(':') {
				return env, errNotObject
			}
			sc.space()
			start := sc.i
			if !sc.skipValue() {
				return env, errNotObject
			}
			if err := env.set(string(key), body[start:sc.i]); err != nil {
				return env, err
			}
			sc.space()
			if sc.eat('}') {
				break
			}
			if !sc.eat(',') {
				return env, errNotObject
			}
		}
	}
	sc.space()
	if sc.i != len(body) {
		return env, errNotObject
	}
	if env.Type == "" {
		return env, errors.New("no message type")
	}
	return env, nil
}

var errNotObject = errors.New("not a JSON object")

func (env *envelope) set(key string, raw []byte) error {
	var dst any
	switch key {
	case "seq":
		dst = &env.Seq
	case "type":
		dst = &env.Type
	case "command":
		dst = &env.Command
	case "event":
		dst = &env.Event
	case "request_seq":
		dst = &env.RequestSeq
	case "success":
		dst = &env.Success
	default:
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

// scanner steps over JSON without building values.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// rawString reads a string and returns its bytes between the quotes,
// escapes left as they are (envelope keys have none).
func (s *scanner) rawString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for {
		j := bytes.IndexByte(s.b[s.i:], '"')
		if j < 0 {
			return nil, false
		}
		s.i += j + 1
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		backslashes := 0
		for k := s.i - 2; k >= start && s.b[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return s.b[start : s.i-1], true
		}
	}
}

func (s *scanner) skipValue() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		_, ok := s.rawString()
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, ok := s.rawString(); !ok {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	default: // number, true, false, null
		start := s.i
		for s.i < len(s.b) && isLiteralByte(s.b[s.i]) {
			s.i++
		}
		return s.i > start
	}
}

func isLiteralByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E'
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
