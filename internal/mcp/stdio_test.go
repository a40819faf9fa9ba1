package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// TestStdioWire drives Serve over real pipes with the stdio client:
// progress notifications cross the wire, notifications/cancelled cancels
// the running handler at once, the server keeps serving, and the end of
// the input ends Serve cleanly.
func TestStdioWire(t *testing.T) {
	started := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	catalog := catalogWith(&command.Command{
		Tool: "test_block", Help: "blocks until cancelled", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			cc.Log("waiting for the application")
			started <- struct{}{}
			select {
			case <-ctx.Done():
				stopped <- ctx.Err()
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				stopped <- nil
				return jsonx.New("ok", false), nil
			}
		},
	})
	h := start(t, setup{catalog: catalog})

	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(context.Background(), serverIn, serverOut) }()

	cl := client.NewClient(transport.NewIO(clientIn, clientOut, nil))
	var notesMu sync.Mutex
	var notes []mcpgo.JSONRPCNotification
	cl.OnNotification(func(n mcpgo.JSONRPCNotification) {
		notesMu.Lock()
		defer notesMu.Unlock()
		notes = append(notes, n)
	})
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcpgo.Implementation{Name: "wire-test", Version: "1"}
	res, err := cl.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Instructions, "откатывает") {
		t.Errorf("instructions over the wire: %s", res.Instructions)
	}

	callCtx, cancelCall := context.WithCancel(ctx)
	callDone := make(chan error, 1)
	go func() {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "test_block"
		req.Params.Meta = &mcpgo.Meta{ProgressToken: "wire"}
		_, err := cl.CallTool(callCtx, req)
		callDone <- err
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool did not start")
	}
	waitFor(t, "a progress notification over the wire", func() bool {
		notesMu.Lock()
		defer notesMu.Unlock()
		for _, n := range notes {
			if n.Method == string(mcpgo.MethodNotificationProgress) && n.Params.AdditionalFields["message"] == "waiting for the application" {
				return true
			}
		}
		return false
	})
	cancelCall()
	select {
	case err := <-stopped:
		if err == nil {
			t.Fatal("the handler ran to its end instead of being cancelled")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("notifications/cancelled did not stop the handler")
	}
	<-callDone

	// The server keeps serving.
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "list_apps"
	listed, err := cl.CallTool(ctx, req)
	if err != nil || listed.IsError {
		t.Fatalf("list_apps after the cancellation: %v %v", err, listed)
	}
	if !strings.Contains(textOf(listed), `"summary": "живых 1 из 1"`) {
		t.Errorf("list_apps over the wire: %s", textOf(listed))
	}

	// The end of the input ends Serve without an error.
	clientOut.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after the input ended: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the input ended")
	}
	cl.Close()
}

// After notifications/cancelled the client hears nothing more of the
// call: no progress notification of its token, no response to its id. The
// call's cleanup still runs, and what it logs goes to the server's stderr.
func TestCancelledCallSendsNothingMore(t *testing.T) {
	started := make(chan struct{}, 1)
	ended := make(chan struct{})
	catalog := catalogWith(&command.Command{
		Tool: "test_cleanup", Help: "blocks until cancelled, then cleans up", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			defer close(ended)
			cc.Log("working")
			started <- struct{}{}
			<-ctx.Done()
			cc.Log("removing the probe application")
			return nil, ctx.Err()
		},
	})
	h := start(t, setup{catalog: catalog})
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(context.Background(), serverIn, serverOut) }()
	lines := make(chan string, 64)
	go func() {
		r := bufio.NewReader(clientIn)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- line
		}
	}()
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(clientOut, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	// until reads messages until one contains want.
	until := func(want string) {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the output ended before %s (seen %q)", want, seen)
				}
				seen = append(seen, line)
				if strings.Contains(line, want) {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no %s within 10 s (seen %q)", want, seen)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	until(`"id":1`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_cleanup","arguments":{},"_meta":{"progressToken":"tok"}}}`)
	<-started
	until(`"message":"working"`)
	before := len(seen)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user"}}`)
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end after notifications/cancelled")
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	until(`"id":3`)
	for _, line := range seen[before:] {
		if strings.Contains(line, `"id":2`) || strings.Contains(line, `"tok"`) {
			t.Errorf("sent after the cancellation: %s", line)
		}
	}
	waitFor(t, "the cleanup's lines on stderr", func() bool {
		log := h.stderr.String()
		return strings.Contains(log, "test_cleanup: removing the probe application") && strings.Contains(log, "test_cleanup")
	})
	clientOut.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestStdioProgressComesBeforeTheResponse: over stdio too, a call's
// progress notifications leave before its response, in order.
func TestStdioProgressComesBeforeTheResponse(t *testing.T) {
	catalog := catalogWith(&command.Command{
		Tool: "test_chatty", Help: "logs many lines at once", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			for i := 0; i < 40; i++ {
				cc.Log("line")
			}
			return jsonx.New("ok", true), nil
		},
	})
	h := start(t, setup{catalog: catalog})
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(context.Background(), serverIn, serverOut) }()
	lines := bufio.NewScanner(clientIn)
	send := func(msg string) {
		if _, err := io.WriteString(clientOut, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	lines.Scan()
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_chatty","arguments":{},"_meta":{"progressToken":"p"}}}`)
	last := 0.0
	for lines.Scan() {
		var m struct {
			ID     any `json:"id"`
			Params struct {
				Progress float64 `json:"progress"`
			} `json:"params"`
		}
		json.Unmarshal(lines.Bytes(), &m)
		if m.ID != nil {
			break
		}
		if m.Params.Progress <= last {
			t.Errorf("progress %v after %v", m.Params.Progress, last)
		}
		last = m.Params.Progress
	}
	if last != 40 {
		t.Errorf("%v progress notifications before the response, want 40", last)
	}
	clientOut.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestStdioStopCancelsCallsAndWaitsForTheirCleanup: the end of the input
// lets a running call finish and answer; a stop (an interrupt) cancels it
// and Serve returns only after its cleanup.
func TestStdioStopCancelsCallsAndWaitsForTheirCleanup(t *testing.T) {
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	var cleanedUp atomic.Bool
	catalog := catalogWith(&command.Command{
		Tool: "test_hold", Help: "holds until released or cancelled", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			select {
			case <-release:
				return jsonx.New("ok", true), nil
			case <-ctx.Done():
				time.Sleep(100 * time.Millisecond) // the cleanup takes a while
				cleanedUp.Store(true)
				return nil, ctx.Err()
			}
		},
	})
	h := start(t, setup{catalog: catalog})
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_hold","arguments":{}}}` + "\n"

	// The input ends while the call runs: it still answers.
	var out syncBuffer
	served := make(chan error, 1)
	go func() { served <- h.srv.Serve(context.Background(), strings.NewReader(call), &out) }()
	<-started
	close(release)
	if err := <-served; err != nil || !strings.Contains(out.String(), `"id":2`) {
		t.Errorf("after the input ended: %v %s", err, out.String())
	}

	// A stop cancels it, and Serve waits for the cleanup.
	release = make(chan struct{})
	in, feed := io.Pipe()
	defer feed.Close()
	ctx, stop := context.WithCancel(context.Background())
	go func() { served <- h.srv.Serve(ctx, in, io.Discard) }()
	io.WriteString(feed, call)
	<-started
	stop()
	if err := <-served; err != nil || !cleanedUp.Load() {
		t.Errorf("Serve returned (%v) before the call cleaned up", err)
	}
}
