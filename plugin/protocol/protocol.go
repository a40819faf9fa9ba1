// Package protocol is the wire format between elemctl and a plugin process:
// the manifest a plugin directory holds (elemctl-plugin.json) and the
// JSON-RPC 2.0 messages both sides exchange over the plugin's stdin and
// stdout, one message per line. It depends on the standard library only, so
// plugins built with the SDK stay small and start fast.
package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Version is the protocol version both sides announce in "initialize".
const Version = 1

// ManifestFile is the name of the manifest in a plugin directory.
const ManifestFile = "elemctl-plugin.json"

// Methods. The host sends "initialize" and "run"; the plugin sends the
// notifications "log" and "status", and requests back to the host: "console"
// (a raw Console API call) or the MCP tool name of a core operation
// ("get_app", "list_apps", ...).
const (
	MethodInitialize = "initialize"
	MethodRun        = "run"
	MethodLog        = "log"
	MethodStatus     = "status"
	MethodConsole    = "console"
)

// Surfaces a command may run on.
const (
	SurfaceCLI = "cli"
	SurfaceMCP = "mcp"
	SurfaceLSP = "lsp"
)

// ExitCodeField is the answer field whose integer 0–255 becomes the CLI exit
// code.
const ExitCodeField = "exit-code"

// JSON-RPC error codes; CodeElemctl carries an elemctl error object
// ({"error", "status", "method", "url", "body", "hint"}) in Data.
const (
	CodeParse          = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeElemctl        = -32000
)

// Message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID and Result or Error).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest tells whether m asks for an answer.
func (m *Message) IsRequest() bool { return m.Method != "" && len(m.ID) > 0 }

// IsNotification tells whether m is a method call without an answer.
func (m *Message) IsNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// IsResponse tells whether m answers a request.
func (m *Message) IsResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// InitializeParams open a session; the host names itself and its features.
type InitializeParams struct {
	Protocol int      `json:"protocol"`
	Host     string   `json:"host"`
	Version  string   `json:"version"`
	Features []string `json:"features"`
}

// InitializeResult is the plugin's answer to "initialize".
type InitializeResult struct {
	Protocol int    `json:"protocol"`
	Name     string `json:"name,omitempty"`
}

// RunParams ask the plugin to run one command. Arguments is an object keyed
// by each declared argument's dest, every argument present (defaults
// applied), values typed as declared (lists for multiple arguments).
type RunParams struct {
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
	Surface   string          `json:"surface"`
	Features  []string        `json:"features"`
}

// LogParams carry one progress line ("log") or a transient status
// ("status").
type LogParams struct {
	Message string `json:"message"`
}

// ConsoleParams are a raw Console API call the host makes with its own
// client. Path is relative to the API prefix ("/applications"); API is
// "2.0" (default) or "2.1"; Query values are strings or lists of strings.
type ConsoleParams struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	API    string          `json:"api,omitempty"`
	Query  map[string]any  `json:"query,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// MaxLine is the longest message either side accepts (64 MiB).
const MaxLine = 64 << 20

// ErrLineTooLong is returned for a message longer than MaxLine.
var ErrLineTooLong = errors.New("protocol: message longer than 64 MiB")

// Reader reads messages, one per line.
type Reader struct {
	r     *bufio.Reader
	limit int
}

// Buffer sizes: most messages are short, and a short-lived process feels
// every fresh page it zeroes, so reading starts with a small buffer and
// moves to a large one at the first message that does not fit.
const (
	shortBuffer = 4 << 10
	longBuffer  = 64 << 10
)

// NewReader reads messages from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, shortBuffer), limit: MaxLine}
}

// ReadLine returns the next non-empty line without its end. At the end of
// the stream it returns io.EOF; a final line without a newline still counts.
func (r *Reader) ReadLine() ([]byte, error) {
	for {
		var line []byte
		for {
			chunk, err := r.r.ReadSlice('\n')
			if len(line)+len(chunk) > r.limit {
				return nil, ErrLineTooLong
			}
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				if r.r.Size() < longBuffer {
					// The small buffer is empty now (ReadSlice handed all of
					// it over), so the large one reads on from the stream
					// through it without copying.
					r.r = bufio.NewReaderSize(r.r, longBuffer)
				}
				continue
			}
			if err != nil {
				if err == io.EOF && len(bytes.TrimSpace(line)) > 0 {
					return bytes.TrimSpace(line), nil
				}
				return nil, err
			}
			break
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
	}
}

// Decode parses one line as a JSON-RPC 2.0 message.
func Decode(line []byte) (*Message, error) {
	var m Message
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	if m.JSONRPC != "2.0" {
		return nil, errors.New(`"jsonrpc" is not "2.0"`)
	}
	if m.Method == "" && len(m.ID) == 0 {
		return nil, errors.New("neither a method nor an id")
	}
	if m.Method == "" && m.Error == nil && len(m.Result) == 0 {
		return nil, errors.New("a response without result or error")
	}
	return &m, nil
}

// Writer writes messages, one per line; it is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter writes messages to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sends one message.
func (w *Writer) Write(m *Message) error {
	m.JSONRPC = "2.0"
	data, err := marshal(m)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.w.Write(data)
	return err
}

// Request sends a request.
func (w *Writer) Request(id any, method string, params any) error {
	rawID, err := marshal(id)
	if err != nil {
		return err
	}
	p, err := marshal(params)
	if err != nil {
		return err
	}
	return w.Write(&Message{ID: rawID, Method: method, Params: p})
}

// Notify sends a notification.
func (w *Writer) Notify(method string, params any) error {
	p, err := marshal(params)
	if err != nil {
		return err
	}
	return w.Write(&Message{Method: method, Params: p})
}

// Reply answers request id with a result.
func (w *Writer) Reply(id json.RawMessage, result any) error {
	r, err := marshal(result)
	if err != nil {
		return w.ReplyError(id, &Error{Code: CodeInternal, Message: fmt.Sprintf("the result is not JSON: %v", err)})
	}
	return w.Write(&Message{ID: id, Result: r})
}

// ReplyError answers request id with an error.
func (w *Writer) ReplyError(id json.RawMessage, e *Error) error {
	return w.Write(&Message{ID: id, Error: e})
}

// marshal encodes v on one line without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
