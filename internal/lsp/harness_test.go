package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/messages"
	"github.com/elemctl/elemctl/internal/testio"

	"go.lsp.dev/jsonrpc2"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/lsp"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

// note is one message the server sent to the client: a notification, a
// request (window/workDoneProgress/create) or – marked by method
// "<response>" – the moment a response arrived.
type note struct {
	method string
	params json.RawMessage
}

// setup shapes a test session.
type setup struct {
	standOptions stand.Options
	// noSeed leaves the stand without the demo.
	noSeed bool
	// apps seeds that many extra applications (all live).
	apps int
	// catalog replaces the core catalog.
	catalog *command.Catalog
	// refuseProgress makes the client refuse window/workDoneProgress/create.
	refuseProgress bool
	// adoptLocale lets the server follow the client's locale.
	adoptLocale bool
	// lang is the server's language until a client names its own
	// (Russian unless set).
	lang i18n.Lang
}

// session is an LSP client talking to an in-process server over two
// pipes with real Content-Length framing.
type session struct {
	t      *testing.T
	srv    *lsp.Server
	conn   jsonrpc2.Conn
	stderr *syncBuffer
	served chan error
	stand  *stand.Stand
	demo   stand.DemoInfo
	// ws is the workspace folder: a copy of examples/demo with a .env.
	ws, project string
	env         map[string]string

	mu    sync.Mutex
	notes []note
	// calls maps the workDoneToken (or command) of outgoing
	// executeCommand requests to their ids, for $/cancelRequest.
	calls map[string]jsonrpc2.ID

	closed bool
}

func TestMain(m *testing.M) {
	i18n.Register(messages.Operations()...)
	i18n.Register(lsp.Messages)
	os.Exit(m.Run())
}

func start(t *testing.T, o setup) *session {
	t.Helper()
	st := standtest.Start(t, o.standOptions)
	var demo stand.DemoInfo
	if !o.noSeed {
		var err error
		if demo, err = st.SeedDemo(); err != nil {
			t.Fatal(err)
		}
	}
	if o.apps > 0 {
		if err := st.SeedApps(o.apps, o.apps); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "workspace")
	testio.CopyTree(t, filepath.Join("..", "..", "examples", "demo"), ws)
	writeFile(t, filepath.Join(ws, ".env"), strings.Join([]string{
		"ELEMENT_BASE_URL=" + st.URL(),
		"ELEMENT_CLIENT_ID=" + st.ClientID(),
		"ELEMENT_CLIENT_SECRET=" + st.ClientSecret(),
		"ELEMENT_APP_ID=" + demo.AppID,
		"ELEMENT_PROJECT_ID=" + demo.ProjectID,
		"ELEMCTL_NO_PROXY=1",
	}, "\n")+"\n")
	env := map[string]string{
		"ELEMCTL_DATA_DIR":   filepath.Join(tmp, "data"),
		"ELEMCTL_POLL_SCALE": "0.001",
		"ELEMCTL_NO_PLUGINS": "1",
	}
	s := &session{t: t, stand: st, demo: demo, ws: ws, project: filepath.Join(ws, "Acme", "Tasks"), env: env,
		stderr: &syncBuffer{}, served: make(chan error, 1), calls: map[string]jsonrpc2.ID{}}
	cat := o.catalog
	if cat == nil {
		cat = catalog.Core()
	}
	lang := o.lang
	if lang == "" {
		lang = i18n.RU
	}
	s.srv = lsp.New(i18n.WithLang(context.Background(), lang), lsp.Options{
		Catalog: cat,
		Version: "test",
		// The server's own directory is not the workspace: every command
		// must run in its cwd.
		Dir:               filepath.Join(tmp),
		Getenv:            func(k string) string { return env[k] },
		ClientOptions:     platform.ClientOptions{TokenCacheDir: "-"},
		Stderr:            s.stderr,
		AdoptClientLocale: o.adoptLocale,
	})
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	go func() {
		s.served <- s.srv.Serve(context.Background(), toServerR, toClientW)
		toClientW.Close()
	}()
	stream := &recordingStream{Stream: jsonrpc2.NewStream(pipeRWC{r: toClientR, w: toServerW}), s: s}
	s.conn = jsonrpc2.NewConn(stream)
	s.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		s.record(req.Method(), req.Params())
		if _, isCall := req.(*jsonrpc2.Call); !isCall {
			return nil
		}
		if req.Method() == "window/workDoneProgress/create" && o.refuseProgress {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, "no progress here"))
		}
		if req.Method() == "window/workDoneProgress/create" {
			return reply(ctx, nil, nil)
		}
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, req.Method()))
	})
	t.Cleanup(func() {
		s.close()
		s.checkNoSecrets()
	})
	return s
}

// pipeRWC joins the two pipe ends of the client.
type pipeRWC struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (p pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRWC) Close() error {
	p.w.Close()
	return p.r.Close()
}

// recordingStream notes the ids of outgoing executeCommand requests and
// the arrival of responses, so tests can cancel by id and check order.
type recordingStream struct {
	jsonrpc2.Stream
	s *session
}

func (r *recordingStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if c, ok := msg.(*jsonrpc2.Call); ok && c.Method() == "workspace/executeCommand" {
		var p struct {
			Token   json.RawMessage `json:"workDoneToken"`
			Command string          `json:"command"`
		}
		_ = json.Unmarshal(c.Params(), &p)
		key := p.Command
		if len(p.Token) > 0 {
			key = string(p.Token)
		}
		r.s.mu.Lock()
		r.s.calls[key] = c.ID()
		r.s.mu.Unlock()
	}
	return r.Stream.Write(ctx, msg)
}

func (r *recordingStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := r.Stream.Read(ctx)
	if resp, ok := msg.(*jsonrpc2.Response); ok {
		r.s.record("<response>", json.RawMessage(fmt.Sprintf("%q", resp.ID())))
	}
	return msg, n, err
}

func (s *session) record(method string, params json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, note{method: method, params: append(json.RawMessage(nil), params...)})
}

// messages lists the params of every message of a method, in order.
func (s *session) messages(method string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []json.RawMessage
	for _, n := range s.notes {
		if n.method == method {
			out = append(out, n.params)
		}
	}
	return out
}

func (s *session) allNotes() []note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]note(nil), s.notes...)
}

// initializeWith sends a raw initialize request.
func (s *session) initializeWith(params json.RawMessage) map[string]any {
	s.t.Helper()
	var res map[string]any
	if _, err := s.conn.Call(context.Background(), "initialize", params, &res); err != nil {
		s.t.Fatalf("initialize: %v", err)
	}
	if err := s.conn.Notify(context.Background(), "initialized", map[string]any{}); err != nil {
		s.t.Fatal(err)
	}
	return res
}

// vscodeInitialize is the initialize payload VS Code sends, pointed at the
// workspace, with initializationOptions replaced when given.
func (s *session) vscodeInitialize(initOptions any) json.RawMessage {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "vscode-initialize.json"))
	if err != nil {
		s.t.Fatal(err)
	}
	pathJSON, _ := json.Marshal(s.ws)
	text := strings.ReplaceAll(string(data), `"${WORKSPACE_PATH}"`, string(pathJSON))
	text = strings.ReplaceAll(text, "${WORKSPACE_URI}", lsp.URIFromPath(s.ws))
	if initOptions != nil {
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			s.t.Fatal(err)
		}
		m["initializationOptions"] = initOptions
		b, _ := json.Marshal(m)
		text = string(b)
	}
	return json.RawMessage(text)
}

// initialize starts the session the way VS Code does.
func (s *session) initialize() map[string]any {
	s.t.Helper()
	return s.initializeWith(s.vscodeInitialize(nil))
}

// execute runs a command with one argument object; token "" sends none.
func (s *session) execute(ctx context.Context, cmd string, arg map[string]any, token string) (json.RawMessage, error) {
	params := map[string]any{"command": cmd}
	if arg != nil {
		params["arguments"] = []any{arg}
	}
	if token != "" {
		params["workDoneToken"] = token
	}
	var res json.RawMessage
	_, err := s.conn.Call(ctx, "workspace/executeCommand", params, &res)
	return res, err
}

// run executes a command that must succeed and decodes its answer.
func (s *session) run(cmd string, arg map[string]any) map[string]any {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	raw, err := s.execute(ctx, cmd, arg, "")
	if err != nil {
		s.t.Fatalf("%s: %v", cmd, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		s.t.Fatalf("%s: the answer is not an object: %s", cmd, raw)
	}
	return out
}

// idOf is the request id of the executeCommand sent with token.
func (s *session) idOf(token string) (jsonrpc2.ID, bool) {
	key, _ := json.Marshal(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.calls[string(key)]
	return id, ok
}

// cancelRequest sends $/cancelRequest with the numeric id, as VS Code does.
func (s *session) cancelRequest(id jsonrpc2.ID) {
	s.t.Helper()
	raw := json.RawMessage(fmt.Sprintf(`{"id":%s}`, strings.TrimPrefix(fmt.Sprintf("%q", id), "#")))
	if err := s.conn.Notify(context.Background(), "$/cancelRequest", raw); err != nil {
		s.t.Fatal(err)
	}
}

func (s *session) waitServed() error {
	s.t.Helper()
	select {
	case err := <-s.served:
		s.closed = true
		return err
	case <-time.After(30 * time.Second):
		s.t.Fatal("the server did not end")
		return nil
	}
}

func (s *session) close() {
	if s.closed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = s.conn.Call(ctx, "shutdown", nil, nil)
	_ = s.conn.Notify(ctx, "exit", nil)
	select {
	case <-s.served:
	case <-time.After(30 * time.Second):
		s.t.Error("the server did not end after exit")
	}
	s.closed = true
	_ = s.conn.Close()
}

// checkNoSecrets scans everything the server sent and logged.
func (s *session) checkNoSecrets() {
	secret := s.stand.ClientSecret()
	for _, n := range s.allNotes() {
		if strings.Contains(string(n.params), secret) {
			s.t.Errorf("%s carries the client secret: %s", n.method, n.params)
		}
	}
	if strings.Contains(s.stderr.String(), secret) {
		s.t.Errorf("the server log carries the client secret")
	}
}

// waitFor polls cond for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rpcError is the wire error of a failed call.
func rpcError(t *testing.T, err error) *jsonrpc2.Error {
	t.Helper()
	var je *jsonrpc2.Error
	if !errors.As(err, &je) {
		t.Fatalf("not a JSON-RPC error: %v", err)
	}
	return je
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commandID is the LSP id of the catalog command at a CLI path, or a skip
// naming what is missing.
func commandID(t *testing.T, path ...string) string {
	t.Helper()
	c := catalog.Core().Path(path...)
	if c == nil || c.LSP == "" {
		t.Fatalf("the catalog's `%s` command must carry an LSP id", strings.Join(path, " "))
	}
	return "elemctl." + c.LSP
}

// liveApps are the applications of the stand that are not deleted.
func liveApps(st *stand.Stand) []stand.App {
	var out []stand.App
	for _, a := range st.Snapshot().Apps {
		if a.Status != "Deleted" {
			out = append(out, a)
		}
	}
	return out
}
