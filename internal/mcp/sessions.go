package mcp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// httpSession is one Mcp-Session-Id: the client's state, the token that
// opened it (no other token may use it), when it was last heard of, and
// its GET stream.
type httpSession struct {
	*clientState
	id       string
	token    *Token
	lastSeen atomic.Int64 // unix nanoseconds
	gone     chan struct{}

	mu      sync.Mutex
	stream  chan struct{} // closed to end the open GET stream
	streams int
}

func (s *httpSession) touch() { s.lastSeen.Store(time.Now().UnixNano()) }

// attachStream makes a new GET stream the session's one: an older one is
// told to end (replaced). release detaches it.
func (s *httpSession) attachStream() (replaced <-chan struct{}, release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stream != nil {
		close(s.stream)
	}
	mine := make(chan struct{})
	s.stream = mine
	s.streams++
	s.touch()
	return mine, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.stream == mine {
			s.stream = nil
		}
		s.streams--
		s.touch()
	}
}

// busy tells whether the session is in use: a call running or a stream
// open.
func (s *httpSession) busy() bool {
	s.mu.Lock()
	streams := s.streams
	s.mu.Unlock()
	return streams > 0 || s.calls.count() > 0
}

// sessionTable holds the sessions of the HTTP transport: ids of 192
// random bits (base64url, visible ASCII as the MCP spec asks), bounded in
// number per token and in all, forgotten after DELETE or when idle too
// long. An unknown id gets 404, and the client starts a new session.
type sessionTable struct {
	mu          sync.Mutex
	byID        map[string]*httpSession
	perToken    map[*Token]int
	max, perTok int
	idle        time.Duration
	ended       func(*httpSession)
}

func newSessionTable(max, perToken int, idle time.Duration, ended func(*httpSession)) *sessionTable {
	return &sessionTable{byID: map[string]*httpSession{}, perToken: map[*Token]int{}, max: max, perTok: perToken, idle: idle, ended: ended}
}

// open starts a session for tok, or says why not: the token's sessions
// (429) or all sessions (503) are at their bound. Retry-After is when the
// first of the sessions in the way may expire.
func (t *sessionTable) open(ctx context.Context, tok *Token) (*httpSession, *refusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.perToken[tok] >= t.perTok {
		return nil, &refusal{status: http.StatusTooManyRequests, retryAfter: t.retryAfterLocked(tok),
			reason: i18n.T(ctx, "mcp.http.sessions-token", "token", tok.Name, "count", t.perTok, "minutes", minutes(t.idle))}
	}
	if len(t.byID) >= t.max {
		return nil, &refusal{status: http.StatusServiceUnavailable, retryAfter: t.retryAfterLocked(nil),
			reason: i18n.T(ctx, "mcp.http.sessions-full", "count", t.max, "minutes", minutes(t.idle))}
	}
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	sess := &httpSession{clientState: newClientState(newInflight(true)), id: id, token: tok, gone: make(chan struct{})}
	sess.touch()
	t.byID[id] = sess
	t.perToken[tok]++
	return sess, nil
}

// retryAfterLocked is the seconds until the soonest idle expiry among the
// sessions of tok (all sessions for nil), at least one.
func (t *sessionTable) retryAfterLocked(tok *Token) int {
	now := time.Now().UnixNano()
	soonest := t.idle
	for _, s := range t.byID {
		if tok != nil && s.token != tok {
			continue
		}
		if left := time.Duration(s.lastSeen.Load() + int64(t.idle) - now); left < soonest {
			soonest = left
		}
	}
	return max(1, int((soonest+time.Second-1)/time.Second))
}

// find is the session of an id, if it belongs to tok; it counts as heard
// of now.
func (t *sessionTable) find(id string, tok *Token) *httpSession {
	t.mu.Lock()
	sess := t.byID[id]
	t.mu.Unlock()
	if sess == nil || sess.token != tok {
		return nil
	}
	sess.touch()
	return sess
}

// end forgets a session: its calls are cancelled, its stream ends.
func (t *sessionTable) end(id string) {
	t.mu.Lock()
	sess := t.byID[id]
	if sess != nil {
		delete(t.byID, id)
		if t.perToken[sess.token]--; t.perToken[sess.token] <= 0 {
			delete(t.perToken, sess.token)
		}
	}
	t.mu.Unlock()
	if sess != nil {
		close(sess.gone)
		t.ended(sess)
	}
}

// sweep forgets the sessions idle longer than the limit: nothing heard
// of them, no call running, no stream open.
func (t *sessionTable) sweep() {
	cutoff := time.Now().Add(-t.idle).UnixNano()
	var idle []string
	t.mu.Lock()
	for id, s := range t.byID {
		if s.lastSeen.Load() < cutoff && !s.busy() {
			idle = append(idle, id)
		}
	}
	t.mu.Unlock()
	for _, id := range idle {
		t.end(id)
	}
}

// sweepEvery sweeps until stop closes, then closes done.
func (t *sessionTable) sweepEvery(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	every := min(max(t.idle/4, 10*time.Millisecond), 30*time.Second)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			t.sweep()
		case <-stop:
			return
		}
	}
}

// closeAll ends every session (the server stops).
func (t *sessionTable) closeAll() {
	t.mu.Lock()
	ids := make([]string, 0, len(t.byID))
	for id := range t.byID {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	for _, id := range ids {
		t.end(id)
	}
}

// live is how many sessions are open.
func (t *sessionTable) live() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}

// minutes is a duration in whole minutes for messages, at least 1.
func minutes(d time.Duration) int { return max(1, int(d/time.Minute)) }
