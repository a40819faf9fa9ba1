package dap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// envelope is all the proxy reads of a message it forwards.
type envelope struct {
	Seq        int
	Type       string
	Command    string
	Event      string
	RequestSeq int
	Success    bool
}

// peek reads the envelope. It walks only the top level of the object and
// skips every other value without decoding it, so a 10 MiB variables or
// source response costs a scan, not a parse. A body that is not a JSON
// object at the top level fails.
func peek(body []byte) (envelope, error) {
	var env envelope
	if err := jsonx.Members(body, env.set); err != nil {
		var syntax *jsonx.SyntaxError
		if errors.As(err, &syntax) {
			return env, errNotObject
		}
		return env, err
	}
	if env.Type == "" {
		return env, errors.New("no message type")
	}
	return env, nil
}

var errNotObject = errors.New("not a JSON object")

// set reads one member into the envelope the way encoding/json would: null
// leaves a field as it is, a value of another type is an error.
func (env *envelope) set(key string, raw []byte) error {
	var err error
	switch key {
	case "seq":
		err = readInt(raw, &env.Seq)
	case "request_seq":
		err = readInt(raw, &env.RequestSeq)
	case "type":
		err = readString(raw, &env.Type)
	case "command":
		err = readString(raw, &env.Command)
	case "event":
		err = readString(raw, &env.Event)
	case "success":
		err = readBool(raw, &env.Success)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func readInt(raw []byte, dst *int) error {
	if string(raw) == "null" {
		return nil
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return fmt.Errorf("not an integer: %.40s", raw)
	}
	*dst = n
	return nil
}

func readString(raw []byte, dst *string) error {
	if string(raw) == "null" {
		return nil
	}
	if len(raw) < 2 || raw[0] != '"' {
		return fmt.Errorf("not a string: %.40s", raw)
	}
	s, ok := jsonx.Unquote(raw[1 : len(raw)-1])
	if !ok {
		return fmt.Errorf("bad string: %.40s", raw)
	}
	*dst = s
	return nil
}

func readBool(raw []byte, dst *bool) error {
	switch string(raw) {
	case "null":
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return fmt.Errorf("not a boolean: %.40s", raw)
	}
	return nil
}

// rawObject is a JSON object whose values stay as they came, in order, so
// a rewrite touches only the keys it sets.
type rawObject struct {
	keys []string
	vals map[string]json.RawMessage
}

func decodeRawObject(data []byte) (*rawObject, error) {
	o := &rawObject{vals: map[string]json.RawMessage{}}
	switch string(bytes.TrimSpace(data)) {
	case "", "null": // JSON null counts as an empty object
		return o, nil
	}
	err := jsonx.Members(data, func(key string, v []byte) error {
		o.set(key, v)
		return nil
	})
	if err != nil {
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
