package deploy

import (
	"context"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Clock is the time source of waits. Production uses RealClock; tests
// inject a fake one so a ten-minute wait takes microseconds.
type Clock interface {
	Now() time.Time
	// Sleep pauses for d or until ctx ends, whichever comes first, and
	// returns ctx.Err() in the latter case.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
var RealClock Clock = realClock{}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// FakeClock is a clock whose time moves only when someone sleeps on it:
// Sleep advances it by the duration at once. It records every pause, so
// tests can check the poll rhythm.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	// OnSleep, when set, runs after each pause with the new time (a test
	// can change the world the wait observes).
	OnSleep func(now time.Time)
}

// NewFakeClock starts a fake clock at t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now is the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep advances the fake time by d, unless ctx has already ended.
func (c *FakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	c.sleeps = append(c.sleeps, d)
	now, hook := c.now, c.OnSleep
	c.mu.Unlock()
	if hook != nil {
		hook(now)
	}
	return ctx.Err()
}

// Advance moves the fake time forward without a pause being recorded.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Sleeps lists the pauses taken so far.
func (c *FakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// PollPolicy is the rhythm of a wait: the first pause, the factor each
// further pause grows by, and the cap. Asking fast at first and backing off
// reports a quick operation within a fraction of a second after it ends,
// while a long one costs the platform at most one request per Max.
type PollPolicy struct {
	First  time.Duration
	Factor float64
	Max    time.Duration
	// Window is the spacing of polls around an end that is expected (see
	// applyPlan); zero takes First × 1.6.
	Window time.Duration
	// Budget is the period of the poll whose count of reads a wait with
	// an expected end stays within until that end (see applyPlan.schedule);
	// zero takes First × 40.
	Budget time.Duration
}

// DefaultPolicy starts at a quarter of a second and grows by half each
// time up to five seconds: at most four requests in the first second, and
// a report at most Max after a long operation ends (the reference polls
// every ten seconds).
//
// Around the expected end of an apply it polls every 0.4 s, so the end is
// reported within half a second, and before it no more often than the
// reference's poll every 10 s (see applyPlan).
var DefaultPolicy = PollPolicy{First: 250 * time.Millisecond, Factor: 1.5, Max: 5 * time.Second, Window: 400 * time.Millisecond,
	Budget: 10 * time.Second}

// PollScaleVar scales the poll pauses (not the deadlines): tests running
// the binary against an accelerated stand set it to a small fraction.
const PollScaleVar = "ELEMCTL_POLL_SCALE"

// PolicyFromEnv is DefaultPolicy, scaled by ELEMCTL_POLL_SCALE when that
// holds a positive number below 1 (a larger value would only make the
// platform wait for elemctl).
func PolicyFromEnv(getenv func(string) string) PollPolicy {
	if getenv == nil {
		return DefaultPolicy
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(getenv(PollScaleVar)), 64)
	if err != nil || f <= 0 || f >= 1 || math.IsNaN(f) {
		return DefaultPolicy
	}
	return DefaultPolicy.Scaled(f)
}

// Scaled multiplies the pauses by f.
func (p PollPolicy) Scaled(f float64) PollPolicy {
	p.First = time.Duration(float64(p.First) * f)
	p.Max = time.Duration(float64(p.Max) * f)
	p.Window = time.Duration(float64(p.Window) * f)
	p.Budget = time.Duration(float64(p.Budget) * f)
	return p
}

func (p PollPolicy) normalized() PollPolicy {
	if p.First <= 0 {
		p.First = DefaultPolicy.First
	}
	if p.Max < p.First {
		p.Max = p.First
	}
	if p.Factor < 1 {
		p.Factor = 1
	}
	if p.Window <= 0 {
		p.Window = p.First * 8 / 5
	}
	if p.Budget <= 0 {
		p.Budget = p.First * 40
	}
	return p
}

// Backoff hands out the pauses of one wait.
type Backoff struct {
	p    PollPolicy
	next time.Duration
}

// Start begins a wait.
func (p PollPolicy) Start() *Backoff {
	p = p.normalized()
	return &Backoff{p: p, next: p.First}
}

// Next is the pause before the next request.
func (b *Backoff) Next() time.Duration {
	d := b.next
	grown := time.Duration(float64(b.next) * b.p.Factor)
	if grown > b.p.Max || grown < b.next {
		grown = b.p.Max
	}
	b.next = grown
	return d
}
