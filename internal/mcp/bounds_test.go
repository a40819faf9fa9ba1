package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// rawSession opens a session with raw posts and returns its headers.
func (hs *httpServer) rawSession(t *testing.T, token string) map[string]string {
	t.Helper()
	res := hs.post(t, map[string]string{"Authorization": "Bearer " + token}, initializeBody)
	id := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d", res.StatusCode)
	}
	return map[string]string{"Authorization": "Bearer " + token, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
}

func bodyOf(t *testing.T, res *http.Response) string {
	t.Helper()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// getStream opens a GET stream; stop closes it from the client's side.
func (hs *httpServer) getStream(t *testing.T, headers map[string]string) (res *http.Response, stop context.CancelFunc) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, hs.url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); res.Body.Close() })
	return res, stop
}

// TestHTTPIdleSessionsExpire: a session nobody uses is forgotten after the
// idle time (404, the client starts anew); one with its GET stream open or
// a call running is in use and stays.
func TestHTTPIdleSessionsExpire(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	catalog := catalogWith(&command.Command{
		Tool: "test_hold", Help: "holds until released", ReadOnly: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return jsonx.New("ok", true), nil
		},
	})
	h := start(t, setup{catalog: catalog})
	// A second: the sessions that are to stay are put to use as soon as
	// they are open, well within it even on a busy machine.
	hs := serveHTTP(t, h, HTTPOptions{SessionIdleTTL: time.Second})
	streaming := hs.rawSession(t, testToken)
	stream, _ := hs.getStream(t, streaming)
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", stream.StatusCode)
	}
	calling := hs.rawSession(t, testToken)
	done := make(chan string, 1)
	go func() {
		res := hs.post(t, calling, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_hold","arguments":{}}}`)
		done <- bodyOf(t, res)
	}()
	<-started
	idle := hs.rawSession(t, testToken)
	waitFor(t, "the idle session to expire", func() bool { return hs.srv.Sessions() == 2 })
	list := `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`
	if res := hs.post(t, idle, list); res.StatusCode != http.StatusNotFound {
		t.Errorf("the idle session: %d, want 404", res.StatusCode)
	}
	if res := hs.post(t, streaming, list); res.StatusCode != http.StatusOK {
		t.Errorf("the session with its stream open: %d", res.StatusCode)
	}
	close(release)
	if body := <-done; !strings.Contains(body, `\"ok\": true`) {
		t.Errorf("the held call: %s", body)
	}
	if res := hs.post(t, calling, list); res.StatusCode != http.StatusOK {
		t.Errorf("the session whose call ran: %d", res.StatusCode)
	}
}

// TestHTTPMemoryLimitRefusesCalls: while the live heap is over half the
// memory limit, calls are refused with 503 and Retry-After; cheap requests
// still pass.
func TestHTTPMemoryLimitRefusesCalls(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{MemoryLimit: 1 << 10})
	s := hs.rawSession(t, testToken)
	res := hs.post(t, s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`)
	if body := bodyOf(t, res); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" || !strings.Contains(body, "1 KiB") {
		t.Errorf("a call over the memory limit: %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res := hs.post(t, s, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != http.StatusOK {
		t.Errorf("tools/list: %d", res.StatusCode)
	}
}

// TestHTTPHugeResourceIDCostsNothing: an address with an id of a megabyte
// is refused before any work: the stand hears nothing of it.
func TestHTTPHugeResourceIDCostsNothing(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	s := hs.rawSession(t, testToken)
	before := len(h.stand.Calls())
	for _, id := range []string{strings.Repeat("x", 1<<20), "%zz", "%20%20", "a%0Ab"} {
		res := hs.post(t, s, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"elemctl://apps/`+id+`"}}`)
		var msg struct {
			Error struct{ Code int } `json:"error"`
		}
		body := bodyOf(t, res)
		if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Error.Code != mcpgo.INVALID_PARAMS {
			t.Errorf("%.20s: %.300s", id, body)
		}
	}
	if after := len(h.stand.Calls()); after != before {
		t.Errorf("the stand got %d requests for ids that name nothing", after-before)
	}
}

// TestHTTPRequestIDsOfASession: an id already in progress in the session
// is refused; another session may use it.
func TestHTTPRequestIDsOfASession(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	catalog := catalogWith(&command.Command{
		Tool: "test_hold", Help: "holds until released", ReadOnly: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			<-release
			return jsonx.New("ok", true), nil
		},
	})
	h := start(t, setup{catalog: catalog})
	hs := serveHTTP(t, h, HTTPOptions{})
	a, b := hs.rawSession(t, testToken), hs.rawSession(t, testToken)
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_hold","arguments":{}}}`
	done := make(chan int, 2)
	go func() { done <- hs.post(t, a, call).StatusCode }()
	<-started
	go func() { done <- hs.post(t, b, call).StatusCode }()
	<-started
	res := hs.post(t, a, call)
	if body := bodyOf(t, res); !strings.Contains(body, `"code":-32600`) || !strings.Contains(body, "7") {
		t.Errorf("the id again in the same session: %s", body)
	}
	close(release)
	<-done
	<-done
}

// TestHTTPSecondStreamReplacesTheFirst: a session has one GET stream; a
// new one (a client that reconnected) ends the old.
func TestHTTPSecondStreamReplacesTheFirst(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	s := hs.rawSession(t, testToken)
	first, _ := hs.getStream(t, s)
	second, _ := hs.getStream(t, s)
	if first.StatusCode != http.StatusOK || second.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d %d", first.StatusCode, second.StatusCode)
	}
	if _, err := io.Copy(io.Discard, first.Body); err != nil {
		t.Errorf("the first stream did not end cleanly: %v", err)
	}
	if res := hs.post(t, map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Session-Id": s["Mcp-Session-Id"]}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); res.StatusCode != http.StatusOK {
		t.Errorf("the session after the second stream: %d", res.StatusCode)
	}
}

// TestHTTPCancelWithoutSessions: without sessions notifications/cancelled
// reaches the call of the same token with that id; when two calls of the
// token share the id, neither is cancelled (the server cannot tell which
// one was meant) and the log says so.
func TestHTTPCancelWithoutSessions(t *testing.T) {
	started := make(chan struct{}, 2)
	cancelled := make(chan struct{}, 2)
	release := make(chan struct{})
	catalog := catalogWith(&command.Command{
		Tool: "test_hold", Help: "holds until released or cancelled", ReadOnly: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				cancelled <- struct{}{}
				return nil, ctx.Err()
			case <-release:
				return jsonx.New("ok", true), nil
			}
		},
	})
	h := start(t, setup{catalog: catalog})
	hs := serveHTTP(t, h, HTTPOptions{Stateless: true})
	auth := map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Protocol-Version": "2025-06-18"}
	call := func(id int) <-chan string {
		out := make(chan string, 1)
		go func() {
			res := hs.post(t, auth, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"method":"tools/call","params":{"name":"test_hold","arguments":{}}}`)
			out <- bodyOf(t, res)
		}()
		return out
	}
	cancel := func(id int) {
		if res := hs.post(t, auth, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+strconv.Itoa(id)+`}}`); res.StatusCode != http.StatusAccepted {
			t.Fatalf("cancel: %d", res.StatusCode)
		}
	}
	one := call(1)
	<-started
	cancel(1)
	<-cancelled
	if body := <-one; strings.Contains(body, `"id":1`) {
		t.Errorf("the cancelled call was answered: %s", body)
	}
	a, b := call(2), call(2)
	<-started
	<-started
	cancel(2)
	waitFor(t, "the log line about the ambiguous cancellation", func() bool {
		return strings.Contains(h.stderr.String(), "none is cancelled")
	})
	close(release)
	for _, answer := range []<-chan string{a, b} {
		if body := <-answer; !strings.Contains(body, `\"ok\": true`) {
			t.Errorf("a call whose id two calls share: %s", body)
		}
	}
}

// TestProgressOnlyIncreases: whatever a handler sends, the client sees the
// progress of a token increase.
func TestProgressOnlyIncreases(t *testing.T) {
	order := progressOrder{}
	note := func(token any, progress any) mcpgo.JSONRPCNotification {
		n := mcpgo.JSONRPCNotification{JSONRPC: "2.0"}
		n.Method = string(mcpgo.MethodNotificationProgress)
		n.Params.AdditionalFields = map[string]any{"progressToken": token, "progress": progress}
		return n
	}
	var got []string
	for _, n := range []mcpgo.JSONRPCNotification{note("a", 1), note("a", 3), note("a", 2), note(7, 1), note("a", 3), note("a", 4.5), note(7, 1), note("7", 1)} {
		if order.allows(n) {
			got = append(got, jsonString(n.Params.AdditionalFields))
		}
	}
	want := []string{`{"progress":1,"progressToken":"a"}`, `{"progress":3,"progressToken":"a"}`, `{"progress":1,"progressToken":7}`, `{"progress":4.5,"progressToken":"a"}`, `{"progress":1,"progressToken":"7"}`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sent %v, want %v", got, want)
	}
}

func jsonString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// TestHTTPCancellationBeforeItsRequest: a cancellation that overtook its
// request on the way in (two POSTs race) still silences it: the request
// never runs and is never answered.
func TestHTTPCancellationBeforeItsRequest(t *testing.T) {
	ran := make(chan struct{}, 1)
	catalog := catalogWith(&command.Command{
		Tool: "test_mark", Help: "marks that it ran", ReadOnly: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			ran <- struct{}{}
			return jsonx.New("ok", true), nil
		},
	})
	h := start(t, setup{catalog: catalog})
	hs := serveHTTP(t, h, HTTPOptions{})
	s := hs.rawSession(t, testToken)
	if res := hs.post(t, s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	res := hs.post(t, s, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_mark","arguments":{}}}`)
	if body := bodyOf(t, res); strings.Contains(body, `"id":9`) {
		t.Errorf("the cancelled request was answered: %s", body)
	}
	res = hs.post(t, s, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"test_mark","arguments":{}}}`)
	if body := bodyOf(t, res); !strings.Contains(body, `"id":10`) {
		t.Errorf("the next request: %s", body)
	}
	if len(ran) != 1 {
		t.Errorf("the tool ran %d times, want once (for id 10)", len(ran))
	}
}

// TestConnectionsAreBounded: past the bound a new connection waits to be
// accepted until one closes; closing the listener ends the wait.
func TestConnectionsAreBounded(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 2)
	accepted := make(chan net.Conn, 3)
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			accepted <- c
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case c := <-accepted:
		t.Fatalf("a third connection was accepted past the bound: %v", c.RemoteAddr())
	default:
	}
	first.Close()
	third := <-accepted
	second.Close()
	third.Close()
	ln.Close()
	if err := <-acceptErr; err == nil {
		t.Error("Accept after Close")
	}
}

// TestLargeBodiesTakeAPlace: bodies over smallBody are read only in one of
// a few places; when all are taken a large body is refused with 503 and
// Retry-After, a small one still passes.
func TestLargeBodiesTakeAPlace(t *testing.T) {
	g := newBodyGate(20 * time.Millisecond)
	for i := 0; i < largeBodies; i++ {
		g.slots <- struct{}{}
	}
	large := strings.Repeat("x", smallBody+1)
	if _, refused, err := g.read(context.Background(), strings.NewReader(large), -1, 1<<20); refused == nil || refused.status != http.StatusServiceUnavailable || refused.retryAfter < 1 || err != nil {
		t.Errorf("a large body with every place taken: %+v %v", refused, err)
	}
	if data, refused, err := g.read(context.Background(), strings.NewReader("small"), 5, 1<<20); string(data) != "small" || refused != nil || err != nil {
		t.Errorf("a small body: %q %+v %v", data, refused, err)
	}
	<-g.slots
	if data, refused, err := g.read(context.Background(), strings.NewReader(large), -1, 1<<20); len(data) != len(large) || refused != nil || err != nil {
		t.Errorf("a large body with a place free: %d %+v %v", len(data), refused, err)
	}
}
