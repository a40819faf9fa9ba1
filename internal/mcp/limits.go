package mcp

import (
	"context"
	"math"
	"net/http"
	"runtime/debug"
	"runtime/metrics"
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
			reason: i18n.T("mcp.http.memory-full", "limit", byteSize(g.memLimit))}
	}
	leave = func() { <-g.slots }
	select {
	case g.slots <- struct{}{}:
		return leave, nil
	default:
	}
	busy := &refusal{status: http.StatusServiceUnavailable, retryAfter: 1,
		reason: i18n.T("mcp.http.calls-full", "count", cap(g.slots), "queue", cap(g.queue))}
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
