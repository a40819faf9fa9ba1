package mcp

import (
	"context"
	"io"
	"math"
	"net"
	"net/http"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// callGate bounds the calls in flight: a fixed number run, a short queue
// waits for a place (at most a few seconds), and everything beyond is
// refused with 503 and Retry-After at once. While the live heap passes
// half of the server's memory limit, new calls are refused the same way:
// a call holds a platform answer (a listing of thousands of applications
// is megabytes), and the limit is what the server must stay under.
type callGate struct {
	slots    chan struct{}
	queue    chan struct{}
	wait     time.Duration
	memLimit int64 // bytes; 0 none
}

func newCallGate(calls, queue int, wait time.Duration, memLimit int64) *callGate {
	if memLimit == 0 {
		memLimit = debug.SetMemoryLimit(-1)
	}
	if memLimit < 0 || memLimit == math.MaxInt64 {
		memLimit = 0
	}
	return &callGate{slots: make(chan struct{}, calls), queue: make(chan struct{}, queue), wait: wait, memLimit: memLimit}
}

// enter takes a place for a call, waiting in the queue if need be; leave
// gives it back. A refusal says why and when to come back.
func (g *callGate) enter(ctx context.Context) (leave func(), refused *refusal) {
	if g.memLimit > 0 && liveHeap() > g.memLimit/2 {
		return nil, &refusal{status: http.StatusServiceUnavailable, retryAfter: 5,
			reason: i18n.T(ctx, "mcp.http.memory-full", "limit", byteSize(g.memLimit))}
	}
	leave = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return leave, nil
	default:
	}
	busy := &refusal{status: http.StatusServiceUnavailable, retryAfter: 1,
		reason: i18n.T(ctx, "mcp.http.calls-full", "count", cap(g.slots), "queue", cap(g.queue))}
	select {
	case g.queue <- struct{}{}:
	default:
		return nil, busy
	}
	defer func() { <-g.queue }()
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
		return leave, nil
	case <-timer.C:
		busy.retryAfter = max(1, int(g.wait/time.Second))
		return nil, busy
	case <-ctx.Done():
		return nil, busy
	}
}

// liveSample reads the heap that survived the last collection: garbage
// waiting for the next one does not count.
var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

func liveHeap() int64 {
	s := []metrics.Sample{liveSample[0]}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// smallBody is the size up to which a request body is read without a
// place of its own: tool arguments are small. Larger ones (up to the
// body limit) take one of largeBodies places while they are read, so that
// many clients sending large bodies at once cannot add up past the
// memory limit.
const (
	smallBody   = 64 << 10
	largeBodies = 4
)

// bodyGate holds the places of large bodies.
type bodyGate struct {
	slots chan struct{}
	wait  time.Duration
}

func newBodyGate(wait time.Duration) *bodyGate {
	return &bodyGate{slots: make(chan struct{}, largeBodies), wait: wait}
}

// read reads a body of at most limit bytes (see smallBody). A refusal says
// why it was not read; err is a failure of the body itself.
func (g *bodyGate) read(ctx context.Context, body io.Reader, length, limit int64) (data []byte, refused *refusal, err error) {
	if length <= smallBody {
		data, err = io.ReadAll(io.LimitReader(body, smallBody+1))
		if err != nil || len(data) <= smallBody {
			return data, nil, err
		}
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-timer.C:
		return nil, &refusal{status: http.StatusServiceUnavailable, retryAfter: 1, reason: i18n.T(ctx, "mcp.http.bodies-full", "count", largeBodies)}, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-g.slots }()
	rest, err := io.ReadAll(io.LimitReader(body, limit+1))
	return append(data, rest...), nil, err
}

// limitListener bounds the connections open at once: past the bound,
// Accept waits for one to close (the new ones wait in the system's
// queue), so idle connections cannot pile up past the memory limit.
type limitListener struct {
	net.Listener
	slots  chan struct{}
	closed chan struct{}
	once   sync.Once
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), closed: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.slots })}, nil
}

func (l *limitListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
