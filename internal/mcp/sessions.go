package mcp

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"
)

// errUnknownSession is a session id the server did not issue or has
// forgotten (terminated or idle too long); the transport answers 404, and
// the client starts a new session.
var errUnknownSession = errors.New("unknown session")

// sessionIDs issues and checks the Mcp-Session-Id values of the HTTP
// transport: 192 random bits, base64url (visible ASCII as the MCP spec
// asks), valid from initialize until DELETE or the idle sweep. Unlike
// mcp-go's stateful manager it forgets a terminated id instead of keeping
// it forever: an unknown id gets the same 404.
type sessionIDs struct {
	mu   sync.Mutex
	live map[string]struct{}
}

func newSessionIDs() *sessionIDs { return &sessionIDs{live: map[string]struct{}{}} }

func (m *sessionIDs) Generate() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	m.mu.Lock()
	m.live[id] = struct{}{}
	m.mu.Unlock()
	return id
}

func (m *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.live[id]; !ok {
		return false, errUnknownSession
	}
	return false, nil
}

func (m *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	m.mu.Lock()
	delete(m.live, id)
	m.mu.Unlock()
	return false, nil
}

// Live is how many sessions are open.
func (m *sessionIDs) Live() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.live)
}
