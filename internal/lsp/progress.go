package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// statusEvery limits how often a changing wait status becomes a progress
// report.
const statusEvery = 250 * time.Millisecond

// createTimeout bounds the wait for the editor to accept a progress token.
const createTimeout = 10 * time.Second

// progress is the work-done progress of one command: begin, one report per
// log line (and per changed wait status), end. Without a token it sends
// nothing; the log still goes to window/logMessage.
type progress struct {
	s     *Server
	token json.RawMessage
	key   string

	mu         sync.Mutex
	ended      bool
	lastStatus string
	statusAt   time.Time
}

// progressParams is $/progress with the token as the client wrote it (a
// number or a string; protocol.ProgressToken cannot tell 0 from "").
type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value any             `json:"value"`
}

// startProgress begins the progress of a command: on the client's token
// when the request carried one, else – for a long command, when the client
// supports it – on a token created with window/workDoneProgress/create.
// cancel stops the command when the user presses the progress's cancel
// button (window/workDoneProgress/cancel).
func (s *Server) startProgress(ctx context.Context, clientToken json.RawMessage, title string, create bool, cancel context.CancelFunc) *progress {
	p := &progress{s: s}
	s.mu.Lock()
	supported := s.clientProgress
	s.mu.Unlock()
	switch {
	case !isNull(clientToken):
		p.token = clientToken
	case create && supported:
		token, _ := json.Marshal(fmt.Sprintf("elemctl-%d", s.tokenSeq.Add(1)))
		cctx, stop := context.WithTimeout(ctx, createTimeout)
		_, err := s.conn.Call(cctx, protocol.MethodWorkDoneProgressCreate, progressParams{Token: token}, nil)
		stop()
		if err != nil {
			s.diagnostic(fmt.Sprintf("lsp: the editor refused a progress token: %v", err))
			return p
		}
		p.token = token
	default:
		return p
	}
	p.key = tokenKey(p.token)
	s.mu.Lock()
	s.progress[p.key] = cancel
	s.mu.Unlock()
	p.send(&protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: title, Cancellable: true})
	return p
}

// send writes one $/progress notification; after end nothing more goes out.
func (p *progress) send(value any) {
	_ = p.s.conn.Notify(context.Background(), protocol.MethodProgress, progressParams{Token: p.token, Value: value})
}

// report sends a log line.
func (p *progress) report(line string) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.send(&protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Message: line})
}

// status sends a changed wait status, at most every statusEvery.
func (p *progress) status(text string) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended || text == p.lastStatus || time.Since(p.statusAt) < statusEvery {
		return
	}
	p.lastStatus, p.statusAt = text, time.Now()
	p.send(&protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Message: text})
}

// end closes the progress with a final message.
func (p *progress) end(message string) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.send(&protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: message})
	p.s.mu.Lock()
	delete(p.s.progress, p.key)
	p.s.mu.Unlock()
}
