package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/i18n"
)

// Serve speaks MCP over a pair of streams (stdin/stdout), one JSON-RPC
// message per line, until the input ends or ctx is cancelled.
// Diagnostics go to Stderr, never to out. Each request runs on its own,
// so a long call does not hold up the others; its notifications and its
// response leave in order, and after notifications/cancelled nothing more
// of it is written. When the input ends the calls still running finish
// and answer; when ctx is cancelled they are cancelled, and Serve waits up
// to DefaultShutdownGrace for their cleanup (a probe deletes its
// application).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx = s.withLang(ctx)
	w := &messageWriter{out: out}
	cl := newClientState(newInflight(true))
	s.mcp.join(cl)
	defer s.mcp.leave(cl)

	callCtx, stopCalls := context.WithCancel(ctx)
	defer stopCalls()
	var running calls
	var deliveries sync.WaitGroup

	go func() {
		for {
			select {
			case n := <-cl.broadcast:
				_ = w.write(n)
			case <-callCtx.Done():
				return
			}
		}
	}()

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReader(in)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case lines <- line:
				case <-callCtx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()

	var err error
loop:
	for {
		select {
		case line := <-lines:
			m, perr := parseMessage(line)
			switch {
			case perr != nil:
				code := mcpgo.PARSE_ERROR
				if errors.Is(perr, errBatch) {
					code = mcpgo.INVALID_REQUEST
				}
				_ = w.write(mcpgo.NewJSONRPCError(mcpgo.NewRequestId(nil), code, perr.Error(), nil))
			case m.isRequest():
				// Recorded here, before the next line is read: a
				// cancellation that follows finds the request.
				if run := s.begin(callCtx, cl, m, stdioSender{w}, &running); run != nil {
					deliveries.Add(1)
					go func() {
						defer deliveries.Done()
						run()
					}()
				}
			case m.Method != "":
				s.notification(cl, m)
			case m.isResponse():
				// An answer to a server request: the server sends none.
			default:
				_ = w.write(errorResponse(m, mcpgo.INVALID_REQUEST, "the message has neither a method nor an id"))
			}
			if w.failed() {
				break loop
			}
		case rerr := <-readErr:
			if !errors.Is(rerr, io.EOF) {
				err = rerr
			}
			break loop
		case <-ctx.Done():
			break loop
		}
	}

	// The input ended: the calls still running finish and answer (the
	// client may still read). A stop (ctx) cancels them instead, and
	// they clean up.
	finished := make(chan struct{})
	go func() {
		deliveries.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-ctx.Done():
		if n := running.running(); n > 0 {
			s.diagnostic(i18n.T(ctx, "mcp.server.stdio-stopping", "count", n, "seconds", int(DefaultShutdownGrace.Seconds())))
		}
		cl.calls.dropAll()
	}
	stopCalls()
	select {
	case <-running.wait():
	case <-time.After(DefaultShutdownGrace):
		s.diagnostic(i18n.T(ctx, "mcp.server.stdio-timeout", "seconds", int(DefaultShutdownGrace.Seconds())))
	}
	<-finished
	return err
}

// stdioSender writes a request's messages as lines.
type stdioSender struct{ w *messageWriter }

func (o stdioSender) note(n mcpgo.JSONRPCNotification) error { return o.w.write(n) }
func (o stdioSender) answer(m mcpgo.JSONRPCMessage) error    { return o.w.write(m) }

// messageWriter writes whole messages, one per line, one at a time. After
// a failed write (the client is gone) it writes nothing more.
type messageWriter struct {
	mu  sync.Mutex
	out io.Writer
	err error
}

func (w *messageWriter) write(v any) error {
	data, err := encodeMessage(v)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	_, w.err = w.out.Write(data)
	return w.err
}

func (w *messageWriter) failed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err != nil
}
