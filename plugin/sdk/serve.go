package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/elemctl/elemctl/plugin/protocol"
)

// Context is what a command sees of elemctl.
type Context struct {
	// Surface is "cli", "mcp" or "lsp".
	Surface string
	// Features are what the host supports.
	Features []string
	// HostVersion is elemctl's version.
	HostVersion string

	s *server
}

// Log reports a progress line: on the CLI it goes to stderr (silenced by
// --quiet), on MCP into the answer's "log" list.
func (c *Context) Log(line string) {
	_ = c.s.w.Notify(protocol.MethodLog, protocol.LogParams{Message: line})
}

// Logf formats a progress line.
func (c *Context) Logf(format string, args ...any) { c.Log(fmt.Sprintf(format, args...)) }

// Status shows a transient status (a live terminal line on the CLI).
func (c *Context) Status(text string) {
	_ = c.s.w.Notify(protocol.MethodStatus, protocol.LogParams{Message: text})
}

// Has tells whether the host supports a feature.
func (c *Context) Has(feature string) bool {
	for _, f := range c.Features {
		if f == feature {
			return true
		}
	}
	return false
}

// Client reaches the platform through elemctl.
func (c *Context) Client() *Client { return &Client{s: c.s} }

// Client calls elemctl's core operations and the Console API. elemctl
// runs each call with its own client, in the environment of the command
// (the CLI's .env and flags, or the MCP call's env_file).
type Client struct{ s *server }

// Call runs a core operation by its MCP tool name with its MCP parameters
// ("get_app", {"app_id": "..."}) and returns its answer as that tool
// gives it.
func (c *Client) Call(ctx context.Context, tool string, params map[string]any) (any, error) {
	if params == nil {
		params = map[string]any{}
	}
	return c.s.call(ctx, tool, params)
}

// GetApp reads an application card by id or exact name (get_app).
func (c *Client) GetApp(ctx context.Context, app string) (*Object, error) {
	v, err := c.Call(ctx, "get_app", map[string]any{"app_id": app})
	if err != nil {
		return nil, err
	}
	o, _ := v.(*Object)
	return o, nil
}

// ListApps lists applications (list_apps): the answer holds total, live,
// shown, summary and applications.
func (c *Client) ListApps(ctx context.Context, params map[string]any) (*Object, error) {
	v, err := c.Call(ctx, "list_apps", params)
	if err != nil {
		return nil, err
	}
	o, _ := v.(*Object)
	return o, nil
}

// ConsoleRequest is a raw Console API call.
type ConsoleRequest struct {
	// Method defaults to GET.
	Method string `json:"method,omitempty"`
	// Path is relative to the API prefix: "/applications/ID".
	Path string `json:"path"`
	// API is "2.0" (default) or "2.1".
	API   string         `json:"api,omitempty"`
	Query map[string]any `json:"query,omitempty"`
	Body  any            `json:"body,omitempty"`
}

// Console makes a raw Console API call; the answer is the decoded body
// (nil when empty).
func (c *Client) Console(ctx context.Context, req ConsoleRequest) (any, error) {
	return c.s.call(ctx, protocol.MethodConsole, req)
}

// server is the plugin's side of one session.
type server struct {
	p       Plugin
	w       *protocol.Writer
	host    protocol.InitializeParams
	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[string]chan *protocol.Message
	ctx     context.Context
}

func serve(p Plugin, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &server{p: p, w: protocol.NewWriter(out), pending: map[string]chan *protocol.Message{}, ctx: ctx}
	r := protocol.NewReader(in)
	var runs sync.WaitGroup
	for {
		line, err := r.ReadLine()
		if err != nil {
			// elemctl closed stdin: it has its answer or gave up.
			cancel()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		m, err := protocol.Decode(line)
		if err != nil {
			_ = s.w.ReplyError(json.RawMessage("null"), &protocol.Error{Code: protocol.CodeParse, Message: err.Error()})
			continue
		}
		switch {
		case m.IsResponse():
			s.mu.Lock()
			ch := s.pending[string(m.ID)]
			delete(s.pending, string(m.ID))
			s.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method == protocol.MethodInitialize && m.IsRequest():
			_ = json.Unmarshal(m.Params, &s.host)
			name := p.Name
			if name == "" {
				name = programName()
			}
			_ = s.w.Reply(m.ID, protocol.InitializeResult{Protocol: protocol.Version, Name: name})
		case m.Method == protocol.MethodRun && m.IsRequest():
			runs.Add(1)
			go func() {
				defer runs.Done()
				s.run(ctx, m)
			}()
		case m.IsRequest():
			_ = s.w.ReplyError(m.ID, &protocol.Error{Code: protocol.CodeMethodNotFound, Message: "unknown method " + m.Method})
		}
	}
}

func (s *server) run(ctx context.Context, m *protocol.Message) {
	var params protocol.RunParams
	if err := json.Unmarshal(m.Params, &params); err != nil {
		_ = s.w.ReplyError(m.ID, &protocol.Error{Code: protocol.CodeInvalidParams, Message: err.Error()})
		return
	}
	var cmd *Command
	for i := range s.p.Commands {
		if s.p.Commands[i].Name == params.Command {
			cmd = &s.p.Commands[i]
		}
	}
	if cmd == nil || cmd.Run == nil {
		_ = s.w.ReplyError(m.ID, &protocol.Error{Code: protocol.CodeMethodNotFound, Message: "unknown command " + params.Command})
		return
	}
	args := Args{}
	if len(params.Arguments) > 0 {
		v, err := Decode(params.Arguments)
		o, ok := v.(*Object)
		if err != nil || !ok {
			_ = s.w.ReplyError(m.ID, &protocol.Error{Code: protocol.CodeInvalidParams, Message: "arguments are not an object"})
			return
		}
		for _, k := range o.Keys() {
			args[k] = o.Value(k)
		}
	}
	cc := &Context{Surface: params.Surface, Features: params.Features, HostVersion: s.host.Version, s: s}
	answer, err := safeRun(ctx, cmd.Run, cc, args)
	if err != nil {
		_ = s.w.ReplyError(m.ID, toProtocolError(err))
		return
	}
	_ = s.w.Reply(m.ID, answer)
}

func safeRun(ctx context.Context, h Handler, cc *Context, args Args) (answer any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return h(ctx, cc, args)
}

func toProtocolError(err error) *protocol.Error {
	var e *Error
	if errors.As(err, &e) {
		pe := &protocol.Error{Code: e.Code, Message: e.Message}
		if pe.Code == 0 {
			pe.Code = protocol.CodeElemctl
		}
		if e.Data != nil {
			pe.Data, _ = json.Marshal(e.Data)
		}
		return pe
	}
	return &protocol.Error{Code: protocol.CodeElemctl, Message: err.Error()}
}

// call sends a request to the host and waits for its answer.
func (s *server) call(ctx context.Context, method string, params any) (any, error) {
	id := "p" + strconv.FormatInt(s.nextID.Add(1), 10)
	rawID, _ := json.Marshal(id)
	ch := make(chan *protocol.Message, 1)
	s.mu.Lock()
	s.pending[string(rawID)] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, string(rawID))
		s.mu.Unlock()
	}()
	if err := s.w.Request(id, method, params); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.ctx.Done():
		return nil, errors.New("elemctl ended the session")
	case m := <-ch:
		if m.Error != nil {
			e := &Error{Message: m.Error.Message, Code: m.Error.Code}
			if len(m.Error.Data) > 0 {
				if v, err := Decode(m.Error.Data); err == nil {
					e.Data, _ = v.(*Object)
				}
			}
			return nil, e
		}
		return Decode(m.Result)
	}
}
