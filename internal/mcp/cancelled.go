package mcp

import (
	"context"
	"sync"
)

// inflight are the requests in progress that notifications/cancelled can
// reach: a session's (or the stdio connection's), whose ids are unique,
// or – without sessions – a token's, whose ids may repeat.
type inflight struct {
	mu    sync.Mutex
	calls map[string][]*call
}

func newInflight() *inflight { return &inflight{calls: map[string][]*call{}} }

// call is one request in progress. Whatever is sent of it is sent under
// mu, so a cancellation falls between two messages: once cancel returns,
// nothing more of the request leaves the server. The handler learns of
// the cancellation through its context; its cleanup still runs, and the
// lines it logs go to the server's stderr (see progress.notify).
type call struct {
	key      string
	mu       sync.Mutex
	dropped  bool
	silenced chan struct{}
	cancel   context.CancelFunc
}

// send runs deliver unless the request was cancelled; sent tells whether
// it ran.
func (c *call) send(deliver func() error) (sent bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dropped {
		return false, nil
	}
	return true, deliver()
}

// drop silences the request and cancels its handler.
func (c *call) drop() {
	c.mu.Lock()
	if !c.dropped {
		c.dropped = true
		close(c.silenced)
	}
	c.mu.Unlock()
	c.cancel()
}

// begin records a request in progress, which cancel stops; with
// exclusive an id already in progress is refused (ok false).
func (r *inflight) begin(key string, exclusive bool, cancel context.CancelFunc) (c *call, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if exclusive && len(r.calls[key]) > 0 {
		return nil, false
	}
	c = &call{key: key, silenced: make(chan struct{}), cancel: cancel}
	r.calls[key] = append(r.calls[key], c)
	return c, true
}

// end forgets a request whose handler returned.
func (r *inflight) end(c *call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := r.calls[c.key]
	for i, have := range list {
		if have == c {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(r.calls, c.key)
	} else {
		r.calls[c.key] = list
	}
}

// cancel drops the request in progress with the id key and returns how
// many have it. Only a single one is cancelled: two requests without a
// session may share an id, and then the cancellation cannot tell which
// one the client meant.
func (r *inflight) cancel(key string) int {
	r.mu.Lock()
	list := append([]*call(nil), r.calls[key]...)
	r.mu.Unlock()
	if len(list) == 1 {
		list[0].drop()
	}
	return len(list)
}

// dropAll silences and cancels every request in progress (a session ends).
func (r *inflight) dropAll() {
	r.mu.Lock()
	var all []*call
	for _, list := range r.calls {
		all = append(all, list...)
	}
	r.mu.Unlock()
	for _, c := range all {
		c.drop()
	}
}

// count is how many requests are in progress.
func (r *inflight) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, list := range r.calls {
		n += len(list)
	}
	return n
}
