package dap

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/testio"
)

func TestMain(m *testing.M) {
	i18n.Register(Messages, platform.Messages)
	if isFakeAdapterInvocation() {
		os.Exit(runFakeAdapter())
	}
	if IsReaperLaunch(os.Args[1:]) {
		os.Exit(RunReaper(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(sleeperEnv) != "" {
		runSleeper()
	}
	// A race-enabled fake adapter would linger a second before exiting;
	// the exit timing is part of what these tests check.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	code := m.Run()
	for _, f := range afterTests {
		f()
	}
	os.Exit(code)
}

// afterTests are run once every test is done (removing what tests shared).
var afterTests []func()

// waitLimit bounds every wait in these tests; nothing should come close.
const waitLimit = 20 * time.Second

// fakeAdapterDir makes an adapter directory whose repo/ holds a jar with
// the adapter's name, as the proxy requires.
func fakeAdapterDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "repo", "com.e1c.g5rt.debugger.adapter-fake.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// testBinary is this test binary, which acts as "java" for the fast fake.
func testBinary(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// fastFakeOptions run the proxy in front of the fast fake adapter.
func fastFakeOptions(t testing.TB) Options {
	return Options{
		AdapterDir:  fakeAdapterDir(t),
		Java:        testBinary(t),
		Getenv:      func(string) string { return "" },
		GracePeriod: 200 * time.Millisecond,
	}
}

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

type runResult struct {
	code int
	err  error
}

// session is one proxy run with a test client on real OS pipes.
type session struct {
	t      testing.TB
	toProx *os.File // the proxy's stdin, our end
	stderr *syncBuffer
	result chan runResult
	client *testClient
	cancel context.CancelFunc
}

func startSession(t testing.TB, opts Options) *session {
	t.Helper()
	return startSessionIn(t, i18n.RU, opts)
}

// startSessionIn starts a session whose messages speak lang until the
// client names a locale of its own.
func startSessionIn(t testing.TB, lang i18n.Lang, opts Options) *session {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, toProx: inW, stderr: &syncBuffer{}, result: make(chan runResult, 1)}
	opts.Stdin, opts.Stdout, opts.Stderr = inR, outW, s.stderr
	ctx, cancel := context.WithCancel(i18n.WithLang(context.Background(), lang))
	s.cancel = cancel
	go func() {
		code, err := Run(ctx, opts)
		outW.Close()
		s.result <- runResult{code, err}
	}()
	s.client = newTestClient(t, inW, outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-s.result:
		case <-time.After(waitLimit):
			t.Errorf("the proxy did not stop")
		}
		cancel()
		inR.Close()
		outR.Close()
	})
	return s
}

// closeClient closes the proxy's stdin, as an editor does when it leaves.
func (s *session) closeClient() { s.toProx.Close() }

func (s *session) wait() runResult {
	s.t.Helper()
	select {
	case r := <-s.result:
		s.result <- r // keep it for Cleanup
		return r
	case <-time.After(waitLimit):
		s.t.Fatalf("the proxy did not return; stderr:\n%s", s.stderr)
		return runResult{}
	}
}

// message is one frame from the proxy, raw and decoded.
type message struct {
	raw []byte
	m   map[string]any
}

func (m message) str(key string) string { s, _ := m.m[key].(string); return s }
func (m message) num(key string) int    { f, _ := m.m[key].(float64); return int(f) }
func (m message) body() map[string]any  { b, _ := m.m["body"].(map[string]any); return b }

// testClient is a minimal DAP client. Its reader is strict on purpose: the
// proxy must write canonical frames.
type testClient struct {
	t    testing.TB
	w    io.Writer
	wmu  sync.Mutex
	seq  int
	in   chan message
	all  []message // everything read so far
	held []message // read but not yet asked for
}

func newTestClient(t testing.TB, w io.Writer, r io.Reader) *testClient {
	c := &testClient{t: t, w: w, in: make(chan message, 1024)}
	go func() {
		defer close(c.in)
		br := bufio.NewReaderSize(r, 1<<20)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Content-Length: "), "\r\n"))
			if err != nil || !strings.HasPrefix(line, "Content-Length: ") {
				panic(fmt.Sprintf("not a canonical header: %q", line))
			}
			if blank, _ := br.ReadString('\n'); blank != "\r\n" {
				panic(fmt.Sprintf("no blank line after the header: %q", blank))
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(br, body); err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				panic(fmt.Sprintf("the proxy sent a body that is not JSON: %q", body))
			}
			c.in <- message{raw: body, m: m}
		}
	}()
	return c
}

func (c *testClient) writeRaw(frame []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(frame); err != nil {
		c.t.Fatalf("writing to the proxy: %v", err)
	}
}

func (c *testClient) sendBody(body []byte) {
	c.writeRaw(append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))), body...))
}

// request sends a request and returns its seq.
func (c *testClient) request(command string, args any) int {
	c.seq++
	m := map[string]any{"seq": c.seq, "type": "request", "command": command}
	if args != nil {
		m["arguments"] = args
	}
	body, _ := json.Marshal(m)
	c.sendBody(body)
	return c.seq
}

func (c *testClient) respond(req message, body any) {
	c.seq++
	m := map[string]any{"seq": c.seq, "type": "response", "request_seq": req.num("seq"), "success": true, "command": req.str("command"), "body": body}
	raw, _ := json.Marshal(m)
	c.sendBody(raw)
}

// next returns the first message (held or new) that match accepts.
func (c *testClient) next(what string, match func(message) bool) message {
	c.t.Helper()
	for i, m := range c.held {
		if match(m) {
			c.held = append(c.held[:i:i], c.held[i+1:]...)
			return m
		}
	}
	deadline := time.After(waitLimit)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("the proxy closed its stdout while waiting for %s", what)
			}
			c.all = append(c.all, m)
			if match(m) {
				return m
			}
			c.held = append(c.held, m)
		case <-deadline:
			c.t.Fatalf("no %s within %v", what, waitLimit)
		}
	}
}

func (c *testClient) response(seq int) message {
	c.t.Helper()
	return c.next(fmt.Sprintf("response to %d", seq), func(m message) bool {
		return m.str("type") == "response" && m.num("request_seq") == seq
	})
}

// call sends a request and expects a successful response.
func (c *testClient) call(command string, args any) message {
	c.t.Helper()
	resp := c.response(c.request(command, args))
	if resp.m["success"] != true {
		c.t.Fatalf("%s failed: %s", command, resp.raw)
	}
	return resp
}

func (c *testClient) event(name string) message {
	c.t.Helper()
	return c.next("event "+name, func(m message) bool {
		return m.str("type") == "event" && m.str("event") == name
	})
}

// drain reads until the proxy closes its stdout and returns everything
// ever read.
func (c *testClient) drain() []message {
	c.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				return c.all
			}
			c.all = append(c.all, m)
			c.held = append(c.held, m)
		case <-deadline:
			c.t.Fatalf("the proxy did not close its stdout")
		}
	}
}

// initialize starts the adapter and waits for its initialized event.
func (c *testClient) initialize() message {
	c.t.Helper()
	resp := c.call("initialize", map[string]any{"adapterID": "elemctl", "clientID": "test"})
	c.event("initialized")
	return resp
}

// fakeLog returns the requests the fast fake received.
func (c *testClient) fakeLog() []map[string]any {
	c.t.Helper()
	var out []map[string]any
	for _, r := range c.call("fake/log", nil).body()["requests"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// lastRequest is the last request of a command the fake received.
func lastRequest(log []map[string]any, command string) map[string]any {
	for i := len(log) - 1; i >= 0; i-- {
		if log[i]["command"] == command {
			return log[i]
		}
	}
	return nil
}

// checkVariablesSplit reads the children counts of reference 1 and asks
// for reference 10 without a filter, which an adapter fails (the platform
// would hang on it): the proxy must split the request and merge the
// answers, indexed children first.
func (c *testClient) checkVariablesSplit(t *testing.T, want ...string) {
	t.Helper()
	c.call("variables", map[string]any{"variablesReference": 1})
	merged := c.call("variables", map[string]any{"variablesReference": 10})
	if got := names(merged); !reflect.DeepEqual(got, want) {
		t.Errorf("merged variables = %v, want %v", got, want)
	}
}
