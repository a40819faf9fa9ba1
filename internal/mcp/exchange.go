package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Both transports (stdio and streamable HTTP) hand every message of a
// client to the same exchange: it reads what it needs of the message,
// refuses what must be refused before any work, runs the rest through
// the dispatcher with a session of the request's own, and delivers
// what the request produces – its notifications, then its response – to
// the transport in that order. Once the client cancels the request,
// nothing more of it is delivered.

// noteBuffer is how many notifications of one request may wait for the
// transport; more are dropped (progress is best effort; the answer's log
// keeps every line).
const noteBuffer = 64

// message is what the server reads of a client's JSON-RPC message before
// it dispatches it.
type message struct {
	raw     []byte
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
	params  messageParams
}

// messageParams are the parameters the exchange looks at: the tool or
// prompt name, the resource address, the request a cancellation names, a
// prompt's arguments and _meta.
type messageParams struct {
	Name      string                     `json:"name"`
	URI       string                     `json:"uri"`
	RequestID json.RawMessage            `json:"requestId"`
	Arguments json.RawMessage            `json:"arguments"`
	Meta      map[string]json.RawMessage `json:"_meta"`
}

var (
	errBatch       = errors.New("JSON-RPC batches are not supported")
	errNotAMessage = errors.New("the body is not a JSON-RPC message")
)

// parseMessage reads one JSON-RPC message. Parameters of an unexpected
// shape are left to the method to refuse.
func parseMessage(raw []byte) (*message, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil, errBatch
	}
	m := &message{raw: raw}
	if err := json.Unmarshal(trimmed, m); err != nil {
		return nil, errNotAMessage
	}
	if len(m.Params) > 0 {
		_ = json.Unmarshal(m.Params, &m.params)
	}
	return m, nil
}

func (m *message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// isRequest tells a request (method and id) from a notification (no id)
// and from a client's response to the server (no method).
func (m *message) isRequest() bool { return m.Method != "" && m.hasID() }

// isResponse is a client's answer to a server request.
func (m *message) isResponse() bool { return m.Method == "" && m.hasID() }

// key is the request id as the client's requests are told apart: its
// compact JSON (so 1 and "1" differ, as JSON-RPC says).
func (m *message) key() string { return string(compactJSON(m.ID)) }

// requestID is the id for a response.
func (m *message) requestID() mcpgo.RequestId {
	var id mcpgo.RequestId
	_ = json.Unmarshal(m.ID, &id)
	return id
}

// protocolVersion is the version the message declares in _meta (the
// protocol without sessions), or "".
func (m *message) protocolVersion() string {
	var v string
	if raw, ok := m.params.Meta[mcpgo.MetaKeyProtocolVersion]; ok {
		_ = json.Unmarshal(raw, &v)
	}
	return v
}

// errorResponse is a JSON-RPC error answering m.
func errorResponse(m *message, code int, text string) mcpgo.JSONRPCMessage {
	return mcpgo.NewJSONRPCError(m.requestID(), code, text, nil)
}

func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// clientState is what the server keeps of one MCP client between its
// requests: over stdio the connection, over HTTP one session (or, without
// sessions, one request). It receives the messages of no request (a
// changed tool list).
type clientState struct {
	broadcast chan mcpgo.JSONRPCNotification
	calls     *inflight
}

func newClientState(calls *inflight) *clientState {
	return &clientState{broadcast: make(chan mcpgo.JSONRPCNotification, 16), calls: calls}
}

// requestSession is the session the handlers of one request see: the
// client's state, with a notification channel of the request's own, so
// that its progress and log messages go where its response goes.
type requestSession struct {
	*clientState
	notes chan mcpgo.JSONRPCNotification
}

// sender is how a transport delivers what one request produces.
type sender interface {
	// note delivers a notification of the request.
	note(n mcpgo.JSONRPCNotification) error
	// answer delivers the request's response; nothing follows it.
	answer(m mcpgo.JSONRPCMessage) error
}

// calls counts the requests being handled, so that a stop can wait for
// their cleanup.
type calls struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0
}

func (c *calls) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		c.idle = make(chan struct{})
	}
	c.n++
}

func (c *calls) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n == 0 {
		close(c.idle)
	}
}

// running is how many requests are being handled.
func (c *calls) running() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// wait returns a channel closed when no request is being handled.
func (c *calls) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		done := make(chan struct{})
		close(done)
		return done
	}
	return c.idle
}

// request handles one request of cl: refused before any work when it must
// be, else run by mcp-go, its notifications delivered as they come
// (progress of a token only ever increasing), then its response. It
// returns once the response is delivered, the client cancelled the
// request, or the transport failed; the handler may still be cleaning up
// then, counted in running.
func (s *Server) request(ctx context.Context, cl *clientState, m *message, out sender, running *calls) {
	if run := s.begin(ctx, cl, m, out, running); run != nil {
		run()
	}
}

// begin is the first half of request: the refusals and the record of the
// request in progress (counted in running), so that a cancellation read
// after it finds it. The rest runs when run is called (nil: nothing more
// to do).
func (s *Server) begin(ctx context.Context, cl *clientState, m *message, out sender, running *calls) (run func()) {
	ctx = s.withLang(ctx)
	if refusal := s.refusal(ctx, m); refusal != nil {
		_ = out.answer(refusal)
		return nil
	}
	transport := ctx
	ctx, cancel := context.WithCancel(ctx)
	c, ok := cl.calls.begin(m.key(), cancel)
	if !ok {
		cancel()
		_ = out.answer(errorResponse(m, mcpgo.INVALID_REQUEST, fmt.Sprintf("the request id %s is already in progress", m.ID)))
		return nil
	}
	running.add()
	return func() { s.exchange(transport, ctx, cancel, cl, c, m, out, running) }
}

// exchange runs a request that began and delivers what it produces.
func (s *Server) exchange(transport, ctx context.Context, cancel context.CancelFunc, cl *clientState, c *call, m *message, out sender, running *calls) {
	rs := &requestSession{clientState: cl, notes: make(chan mcpgo.JSONRPCNotification, noteBuffer)}
	ctx = withSession(ctx, rs)
	code := &errorCode{}
	ctx = context.WithValue(ctx, errorCodeKey{}, code)

	answered := make(chan mcpgo.JSONRPCMessage, 1)
	go func() {
		defer running.done()
		defer cl.calls.end(c)
		defer cancel()
		if ctx.Err() != nil {
			// Cancelled before it ran.
			answered <- nil
			return
		}
		answered <- s.mcp.handle(ctx, m)
	}()

	order := progressOrder{}
	deliver := func(n mcpgo.JSONRPCNotification) bool {
		if !order.allows(n) {
			return true
		}
		sent, err := c.send(func() error { return out.note(n) })
		return sent && err == nil
	}
	for {
		select {
		case n := <-rs.notes:
			if !deliver(n) {
				cancel()
				return
			}
		case resp := <-answered:
			// Every notification the handler sent is queued by now: they
			// go first.
			for drained := false; !drained; {
				select {
				case n := <-rs.notes:
					if !deliver(n) {
						return
					}
				default:
					drained = true
				}
			}
			if resp == nil {
				return
			}
			resp = code.apply(resp)
			_, _ = c.send(func() error { return out.answer(resp) })
			return
		case <-c.silenced:
			return
		case <-transport.Done():
			// The transport went away (or the server is stopping): the
			// handler sees the same cancellation and cleans up.
			return
		}
	}
}

// notification handles a client's notification: a cancellation silences
// and stops its request; the server needs nothing of any other
// (notifications/initialized, roots and the like).
func (s *Server) notification(cl *clientState, m *message) {
	if m.Method == string(mcpgo.MethodNotificationCancelled) {
		if len(m.params.RequestID) == 0 {
			return
		}
		key := string(compactJSON(m.params.RequestID))
		if n := cl.calls.cancel(key); n > 1 {
			s.diagnostic(fmt.Sprintf("mcp: notifications/cancelled names the request %s, which %d clients without a session have in progress: none is cancelled", m.params.RequestID, n))
		}
	}
}

// progressOrder keeps a request's progress notifications increasing, as
// MCP requires: one that does not go beyond the last one sent for its
// token is dropped.
type progressOrder map[string]float64

func (p progressOrder) allows(n mcpgo.JSONRPCNotification) bool {
	if n.Method != string(mcpgo.MethodNotificationProgress) {
		return true
	}
	token, err := json.Marshal(n.Params.AdditionalFields["progressToken"])
	if err != nil {
		return true
	}
	var value float64
	switch v := n.Params.AdditionalFields["progress"].(type) {
	case int:
		value = float64(v)
	case int64:
		value = float64(v)
	case float64:
		value = v
	default:
		return true
	}
	if last, seen := p[string(token)]; seen && value <= last {
		return false
	}
	p[string(token)] = value
	return true
}

// errorCode is the JSON-RPC code a handler of the server chose for its
// failure; the dispatcher answers every handler error with -32603.
type errorCode struct {
	mu   sync.Mutex
	code int
}

type errorCodeKey struct{}

// failWith makes the request's error response carry code (resource not
// found, invalid params) when the handler fails.
func failWith(ctx context.Context, code int) {
	if c, ok := ctx.Value(errorCodeKey{}).(*errorCode); ok {
		c.mu.Lock()
		c.code = code
		c.mu.Unlock()
	}
}

func (c *errorCode) apply(resp mcpgo.JSONRPCMessage) mcpgo.JSONRPCMessage {
	c.mu.Lock()
	code := c.code
	c.mu.Unlock()
	if e, ok := resp.(mcpgo.JSONRPCError); ok && code != 0 && e.Error.Code == mcpgo.INTERNAL_ERROR {
		e.Error.Code = code
		return e
	}
	return resp
}
