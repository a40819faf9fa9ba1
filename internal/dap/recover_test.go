package dap

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

// panickingSession panics on its first lookups, each in its own way, and
// then answers as the platform does.
type panickingSession struct {
	mu    sync.Mutex
	calls int
	fixed fixedSession
}

func (p *panickingSession) lookup(ctx context.Context, req SessionRequest) (*SessionInfo, error) {
	p.mu.Lock()
	p.calls++
	call := p.calls
	p.mu.Unlock()
	switch call {
	case 1:
		// A panic that carries a debug token the proxy has not seen.
		panic(fmt.Sprintf("the lookup broke holding %s", secretToken))
	case 2:
		// A runtime error: "tasks" has no fourth part.
		_ = strings.Split(req.AppRef, "/")[3]
	}
	return p.fixed.lookup(ctx, req)
}

// TestAPanickingRewriteLeavesTheSessionAlive: the attach rewrite panics
// twice; each time the client gets an ErrorResponse for that attach, the
// log tells the panic with its stack and no debug token, and the session
// goes on: other requests are answered, the third attach is completed,
// and the session ends as usual.
func TestAPanickingRewriteLeavesTheSessionAlive(t *testing.T) {
	_, projectDir := projectTree(t)
	lookups := &panickingSession{}
	opts := fastFakeOptions(t)
	opts.Session = lookups.lookup
	s := startSession(t, opts)
	s.client.initialize()
	attach := map[string]any{"type": "elemctl", "request": "attach", "appId": "tasks", "cwd": projectDir}

	reply := i18n.TL(i18n.RU, "dap.panic-reply", "command", "attach")
	for round := 1; round <= 2; round++ {
		resp := s.client.response(s.client.request("attach", attach))
		if resp.m["success"] != false || resp.str("command") != "attach" || resp.str("message") != reply {
			t.Fatalf("attach %d after a panic: %s", round, resp.raw)
		}
		if got := s.client.call("threads", nil); got.str("command") != "threads" {
			t.Fatalf("threads after panic %d: %s", round, got.raw)
		}
	}
	for _, m := range s.client.all {
		if strings.Contains(string(m.raw), secretToken) {
			t.Errorf("the client got the debug token: %s", m.raw)
		}
	}
	s.client.call("attach", attach)
	if got := lastRequest(s.client.fakeLog(), "attach")["arguments"].(map[string]any)["debugToken"]; got != secretToken {
		t.Errorf("the third attach reached the adapter with debugToken %v", got)
	}
	s.client.response(s.client.request("disconnect", nil))
	if r := s.wait(); r.err != nil || r.code != 0 {
		t.Errorf("the session ended with %d %v", r.code, r.err)
	}

	log := s.stderr.String()
	for _, want := range []string{
		i18n.TL(i18n.RU, "dap.panic", "side", i18n.TL(i18n.RU, "dap.side-client"), "type", "request", "message", "attach", "seq", 2,
			"panic", i18n.TL(i18n.RU, "dap.panic-withheld", "type", "string")),
		"index out of range [3] with length 1",
		"prepareAttach", // the stack
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, secretToken) {
		t.Errorf("the log shows the debug token:\n%s", log)
	}
}

// TestAPanicOnAnAdapterMessageCostsThatMessageOnly: a response of the
// adapter whose handling panics becomes an ErrorResponse to the client's
// request, and the messages after it pass as usual.
func TestAPanicOnAnAdapterMessageCostsThatMessageOnly(t *testing.T) {
	ctx := context.Background()
	fromAdapterR, fromAdapterW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	toClientR, toClientW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer toClientR.Close()
	stderr := &syncBuffer{}
	p := newProxy(ctx, Options{Stdout: toClientW, Stderr: stderr})
	p.vars = nil // a broken rewrite: recording a response's child counts panics
	client := newTestClient(t, io.Discard, toClientR)
	done := make(chan struct{})
	go func() {
		p.adapterLoop(ctx, fromAdapterR)
		toClientW.Close()
		close(done)
	}()

	adapter := newTestClient(t, fromAdapterW, strings.NewReader(""))
	adapter.sendBody([]byte(`{"seq":7,"type":"response","request_seq":5,"success":true,"command":"evaluate","body":{"result":"1","variablesReference":3,"namedVariables":2}}`))
	adapter.sendBody([]byte(`{"seq":8,"type":"event","event":"output","body":{"category":"console","output":"after\n"}}`))
	adapter.sendBody([]byte(`{"seq":9,"type":"response","request_seq":6,"success":true,"command":"threads","body":{"threads":[]}}`))
	fromAdapterW.Close()
	<-done

	failed := client.response(5)
	if failed.m["success"] != false || failed.str("command") != "evaluate" {
		t.Errorf("the response whose handling panicked: %s", failed.raw)
	}
	if out := client.event("output"); out.body()["output"] != "after\n" {
		t.Errorf("the event after it: %s", out.raw)
	}
	if next := client.response(6); next.m["success"] != true {
		t.Errorf("the response after it: %s", next.raw)
	}
	if log := stderr.String(); !strings.Contains(log, "nil pointer dereference") || !strings.Contains(log, "evaluate") {
		t.Errorf("the log:\n%s", log)
	}
}
