package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/testio"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

// setup says how a test server is built.
type setup struct {
	catalog   *command.Catalog
	extra     []*command.Command
	failures  []PluginFailure
	overrides platform.Overrides
	// envFile is the startup --env-file (relative to the server's dir).
	envFile string
	// noDotEnv leaves the server's directory without a .env.
	noDotEnv bool
	// plainStand skips the demo seed.
	plainStand bool
	// standOptions tune the default stand (durations of operations).
	standOptions stand.Options
	// lang is the server's language (Russian unless set).
	lang i18n.Lang
}

// harness is a server over a catalog, an in-process client connected to
// it and the stand the server's .env points at.
type harness struct {
	t      *testing.T
	stand  *stand.Stand
	demo   stand.DemoInfo
	dir    string
	env    map[string]string
	srv    *Server
	cl     *client.Client
	stderr *syncBuffer

	notesMu sync.Mutex
	notes   []mcpgo.JSONRPCNotification
	// secrets must never appear in anything the server sends.
	secrets []string

	setup setup
}

// envText is a .env for a stand.
func envText(s *stand.Stand, extra ...string) string {
	text := fmt.Sprintf("ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=%s\nELEMCTL_NO_PROXY=1\n", s.URL(), s.ClientID(), s.ClientSecret())
	for _, line := range extra {
		text += line + "\n"
	}
	return text
}

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// newStand starts a stand; with seed it holds the demo.
func newStand(t *testing.T, seed bool, opts ...stand.Options) (*stand.Stand, stand.DemoInfo) {
	t.Helper()
	var o stand.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	s := standtest.Start(t, o)
	var demo stand.DemoInfo
	if seed {
		var err error
		if demo, err = s.SeedDemo(); err != nil {
			t.Fatal(err)
		}
	}
	return s, demo
}

func start(t *testing.T, o setup) *harness {
	t.Helper()
	h := &harness{t: t, dir: t.TempDir(), stderr: &syncBuffer{}}
	h.stand, h.demo = newStand(t, !o.plainStand, o.standOptions)
	h.secrets = append(h.secrets, h.stand.ClientSecret())
	if !o.noDotEnv {
		writeFile(t, filepath.Join(h.dir, ".env"), envText(h.stand))
	}
	state := t.TempDir()
	h.env = map[string]string{
		"HOME":             state,
		"XDG_STATE_HOME":   filepath.Join(state, "state"),
		"XDG_DATA_HOME":    filepath.Join(state, "data"),
		"XDG_CACHE_HOME":   filepath.Join(state, "cache"),
		"ELEMCTL_DATA_DIR": filepath.Join(state, "elemctl"),
		"LOCALAPPDATA":     filepath.Join(state, "local"),
		"TMPDIR":           state,
	}
	h.setup = o
	h.serve()
	return h
}

// speaking is a second server on the same stand, directory and
// environment, in language l, with a client of its own.
func (h *harness) speaking(l i18n.Lang) *harness {
	other := &harness{t: h.t, stand: h.stand, demo: h.demo, dir: h.dir, env: h.env, stderr: &syncBuffer{}, secrets: h.secrets, setup: h.setup}
	other.setup.lang = l
	other.serve()
	return other
}

// serve starts the server of h.setup and connects a client.
func (h *harness) serve() {
	o := h.setup
	cat := o.catalog
	if cat == nil {
		cat = catalog.Core()
	}
	lang := o.lang
	if lang == "" {
		lang = i18n.RU
	}
	h.srv = New(i18n.WithLang(context.Background(), lang), Options{
		Catalog:        cat,
		Extra:          o.extra,
		PluginFailures: o.failures,
		Version:        "0.0.0-test",
		Dir:            h.dir,
		Getenv:         func(k string) string { return h.env[k] },
		EnvFile:        o.envFile,
		Overrides:      o.overrides,
		ClientOptions: platform.ClientOptions{
			TokenCacheDir:   "-",
			ReadRetryPauses: []time.Duration{time.Millisecond, time.Millisecond},
		},
		Stderr: h.stderr,
	})
	h.t.Cleanup(h.srv.Close)
	h.cl = h.connect()
}

// connect starts a client speaking to the server over a pair of pipes (the
// stdio transport) and initializes it.
func (h *harness) connect() *client.Client {
	t := h.t
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = h.srv.Serve(context.Background(), serverIn, serverOut)
		serverOut.Close()
	}()
	t.Cleanup(func() {
		clientOut.Close()
		<-served
	})
	cl := client.NewClient(transport.NewIO(clientIn, clientOut, nil))
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cl.OnNotification(func(n mcpgo.JSONRPCNotification) {
		h.notesMu.Lock()
		defer h.notesMu.Unlock()
		h.notes = append(h.notes, n)
	})
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "elemctl-test", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// callWith calls a tool; meta may carry a progress token.
func (h *harness) callWith(ctx context.Context, tool string, args map[string]any, meta *mcpgo.Meta) (*mcpgo.CallToolResult, error) {
	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	if args != nil {
		req.Params.Arguments = args
	}
	req.Params.Meta = meta
	res, err := h.cl.CallTool(ctx, req)
	if err == nil {
		h.checkNoSecrets(res)
	}
	return res, err
}

// call calls a tool and fails the test on a protocol error.
func (h *harness) call(tool string, args map[string]any) *mcpgo.CallToolResult {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := h.callWith(ctx, tool, args, nil)
	if err != nil {
		h.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its answer, read from the
// text block so that the key order on the wire shows.
func (h *harness) ok(tool string, args map[string]any) *jsonx.Object {
	h.t.Helper()
	res := h.call(tool, args)
	if res.IsError {
		h.t.Fatalf("%s %v: unexpected error: %s", tool, args, textOf(res))
	}
	obj, isObj := decodeText(h.t, textOf(res)).(*jsonx.Object)
	if !isObj {
		h.t.Fatalf("%s: the answer is not an object: %s", tool, textOf(res))
	}
	return obj
}

// fails calls a tool that must fail and returns its error text.
func (h *harness) fails(tool string, args map[string]any) string {
	h.t.Helper()
	res := h.call(tool, args)
	if !res.IsError {
		h.t.Fatalf("%s %v: expected an error, got %s", tool, args, textOf(res))
	}
	checkErrorShape(h.t, tool, res)
	return textOf(res)
}

// checkErrorShape: an error result is the elemctl error object, never a
// Go struct dump.
func checkErrorShape(t *testing.T, tool string, res *mcpgo.CallToolResult) {
	t.Helper()
	text := textOf(res)
	for _, bad := range []string{"&{", "%!", "map[", "goroutine "} {
		if strings.Contains(text, bad) {
			t.Errorf("%s: error text looks like a Go dump (%q): %s", tool, bad, text)
		}
	}
	obj := structured(t, res)
	if obj.Str("error") == "" {
		t.Errorf("%s: error result without an error message: %s", tool, text)
	}
}

func (h *harness) checkNoSecrets(res *mcpgo.CallToolResult) {
	raw, _ := json.Marshal(res)
	for _, s := range h.secrets {
		if s != "" && bytes.Contains(raw, []byte(s)) {
			h.t.Errorf("a secret appeared in a tool result: %s", raw)
		}
	}
}

// textOf is the first text block of a result.
func textOf(res *mcpgo.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	return mcpgo.GetTextFromContent(res.Content[0])
}

// texts are all text blocks of a result.
func texts(res *mcpgo.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		out = append(out, mcpgo.GetTextFromContent(c))
	}
	return out
}

// structured is a result's structuredContent as an ordered object.
func structured(t *testing.T, res *mcpgo.CallToolResult) *jsonx.Object {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
	obj, ok := v.(*jsonx.Object)
	if !ok {
		t.Fatalf("structuredContent is not an object: %s", raw)
	}
	return obj
}

// decodeText parses a text block as JSON.
func decodeText(t *testing.T, text string) any {
	t.Helper()
	v, err := jsonx.Decode([]byte(text))
	if err != nil {
		t.Fatalf("text is not JSON: %v\n%s", err, text)
	}
	return v
}

// progressNotes are the progress notifications received so far.
func (h *harness) progressNotes() []map[string]any {
	h.notesMu.Lock()
	defer h.notesMu.Unlock()
	var out []map[string]any
	for _, n := range h.notes {
		if n.Method == string(mcpgo.MethodNotificationProgress) {
			out = append(out, n.Params.AdditionalFields)
		}
	}
	return out
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// platformClient connects to a stand directly, for arranging data.
func platformClient(t *testing.T, s *stand.Stand) *platform.Client {
	t.Helper()

	ctx := context.Background()
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: 10 * time.Second}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// tokenRequests counts the token requests a stand answered.
func tokenRequests(s *stand.Stand) int { return s.TokenCalls() }
