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
	// unique: an id in progress is refused, and a cancellation that
	// comes before its request (the two raced on their way in) is kept
	// for it.
	unique bool
	early  []string
}

// maxEarly bounds the cancellations kept for requests not seen yet.
const maxEarly = 32

func newInflight(unique bool) *inflight {
	return &inflight{calls: map[string][]*call{}, unique: unique}
}

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

// begin records a request in progress, which cancel stops. Where ids are
// unique an id already in progress is refused (ok false), and a request
// the client cancelled before it arrived begins silenced.
func (r *inflight) begin(key string, cancel context.CancelFunc) (c *call, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unique && len(r.calls[key]) > 0 {
		return nil, false
	}
	c = &call{key: key, silenced: make(chan struct{}), cancel: cancel}
	r.calls[key] = append(r.calls[key], c)
	for i, k := range r.early {
		if k == key {
			r.early = append(r.early[:i], r.early[i+1:]...)
			c.dropped = true
			close(c.silenced)
			cancel()
			break
		}
	}
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
	if len(list) == 0 && r.unique {
		if len(r.early) == maxEarly {
			r.early = r.early[1:]
		}
		r.early = append(r.early, key)
	}
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
