package deploy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// Timeouts are the platform wait limits (spec cli.md §1.11).
type Timeouts struct {
	Stop    time.Duration // until Stopped
	Start   time.Duration // until a stable status / Running
	Ready   time.Duration // a new application: stable status and an address
	Delete  time.Duration // until the card is gone or Deleted
	Unknown time.Duration // UNKNOWN in a row before a wait gives up
	Busy    time.Duration // an apply refused as "busy"
	// Cleanup bounds the whole cleanup of an interrupted probe (it runs on a
	// fresh context after the caller's has ended).
	Cleanup time.Duration
}

// DefaultTimeouts are the limits of the reference tool; Cleanup is ours.
var DefaultTimeouts = Timeouts{
	Stop:    180 * time.Second,
	Start:   300 * time.Second,
	Ready:   600 * time.Second,
	Delete:  180 * time.Second,
	Unknown: 60 * time.Second,
	Busy:    180 * time.Second,
	Cleanup: 240 * time.Second,
}

// Ops runs the long operations of one call: deploy, apply, verify, probe,
// create/ensure. It talks to the platform only through Client, tells
// progress through Log and Status, and measures time with Clock.
type Ops struct {
	Client *platform.Client
	Clock  Clock
	Poll   PollPolicy
	Limits Timeouts
	// Log receives progress and warning lines; Status the transient line of
	// a long wait (elapsed time and the current status).
	Log    func(string)
	Status func(string)
	// Pending hears what a forced stop would leave behind and how to
	// finish it, "" once nothing would.
	Pending func(string)
	// Registry is the local registry of uploads; nil disables it.
	Registry *registry.Registry
	// Getenv reads the call's environment (CI variables of the build).
	Getenv func(string) string
	// Version is elemctl's own version, written to registry lines.
	Version string
	// Hint spells the commands the operations suggest (to check later, to
	// finish a cleanup, to apply what was not applied) for the face that
	// runs them, with the user's connection options; nil spells them plain.
	Hint hint.Renderer
	// Arg spells giving an argument of the running command (by its key)
	// the way its caller would, for the messages that tell what to pass;
	// ok is false when the caller's face lacks it. Nil spells the command
	// line's option.
	Arg func(key string) (string, bool)
	// ServerStart is how long a request refused with "console not found"
	// is repeated per outage; 0 fails at once (only deploy waits).
	ServerStart time.Duration

	outage time.Time // start of the current server-start outage
	// measured is the apply the last wait saw end, until the
	// verification measures it better (see refineApply).
	measured *measuredApply
}

// arg spells giving the argument stored under key for the caller (see
// Ops.Arg); ok is false when the caller's face lacks it.
func (o *Ops) arg(key string) (string, bool) {
	if o.Arg == nil {
		return "--" + key, true
	}
	return o.Arg(key)
}

// argOr is arg, or the command line's option when the face lacks it.
func (o *Ops) argOr(key string) string {
	if a, ok := o.arg(key); ok {
		return a
	}
	return "--" + key
}

func (o *Ops) clock() Clock {
	if o.Clock == nil {
		return RealClock
	}
	return o.Clock
}

func (o *Ops) policy() PollPolicy {
	if o.Poll.First <= 0 {
		return DefaultPolicy
	}
	return o.Poll
}

func (o *Ops) limits() Timeouts {
	l := o.Limits
	def := DefaultTimeouts
	for _, p := range []struct{ v, d *time.Duration }{
		{&l.Stop, &def.Stop}, {&l.Start, &def.Start}, {&l.Ready, &def.Ready}, {&l.Delete, &def.Delete},
		{&l.Unknown, &def.Unknown}, {&l.Busy, &def.Busy}, {&l.Cleanup, &def.Cleanup},
	} {
		if *p.v <= 0 {
			*p.v = *p.d
		}
	}
	return l
}

func (o *Ops) log(line string) {
	if o.Log != nil && line != "" {
		o.Log(line)
	}
}

func (o *Ops) logf(ctx context.Context, key string, args ...any) { o.log(i18n.T(ctx, key, args...)) }

// deleteApp deletes an application as `apps delete` does.
func (o *Ops) deleteApp(ctx context.Context, appID string) error {
	_, err := cards.DeleteApp(ctx, o.Client, appID, o.log, o.hint(ctx, cards.AppHint(appID)))
	return err
}

// deleteBuildCard deletes a build named by its version or its id, as
// `builds delete` does.
func (o *Ops) deleteBuildCard(ctx context.Context, projectID, ref string) error {
	_, err := cards.AddressBuild(ctx, o.Client, http.MethodDelete, projectID, ref)
	return err
}

// deleteListedBuild is deleteBuildCard with the project's list read
// before, beside another wait (see buildsAhead); without it (a failed
// read, or one used already: an attempt made again), the list is read
// now.
func (o *Ops) deleteListedBuild(ctx context.Context, projectID, ref string, listed *buildsAhead) error {
	read, first := listed.take()
	if !first || read.err != nil {
		return o.deleteBuildCard(ctx, projectID, ref)
	}
	_, err := cards.AddressListedBuild(ctx, o.Client, http.MethodDelete, projectID, ref, read.builds)
	return err
}

func (o *Ops) pending(text string) {
	if o.Pending != nil {
		o.Pending(text)
	}
}

// lineRepeats logs a line once and counts its repeats in a row, so a wait
// that sees the same failure poll after poll shows it once with a count.
type lineRepeats struct {
	o    *Ops
	last string
	n    int
}

func (o *Ops) repeatedLines() *lineRepeats { return &lineRepeats{o: o} }

// logAs logs line unless the previous line logged was of the same kind:
// a card read that breaks off one way, then another (the connection cut,
// then refused) is one failure repeating.
func (r *lineRepeats) logAs(ctx context.Context, kind, line string) {
	if kind == r.last {
		r.n++
		return
	}
	r.flush(ctx)
	r.last = kind
	r.o.log(line)
}

// flush ends the run of repeats, writing their count.
func (r *lineRepeats) flush(ctx context.Context) {
	if r.n > 0 {
		r.o.logf(ctx, "deploy.repeated", "count", r.n)
	}
	r.last, r.n = "", 0
}

func (o *Ops) status(text string) {
	if o.Status != nil {
		o.Status(text)
	}
}

func (o *Ops) now() time.Time { return o.clock().Now() }

// call runs one request (or a short sequence that is safe to repeat)
// inside the server-start wait: while the console answers "console not
// found" the request is repeated, up to ServerStart per outage. A refused
// request was never processed, so repeating it is safe.
func (o *Ops) call(ctx context.Context, fn func(ctx context.Context) error) error {
	var backoff *Backoff
	for {
		err := fn(ctx)
		if err == nil || !platform.IsServerStarting(err) || o.ServerStart <= 0 {
			if err == nil && !o.outage.IsZero() {
				o.outage = time.Time{}
				o.logf(ctx, "deploy.server-up")
			}
			return err
		}
		now := o.now()
		if o.outage.IsZero() {
			o.outage = now
			o.logf(ctx, "deploy.server-starting", "seconds", seconds(o.ServerStart))
		}
		waited := now.Sub(o.outage)
		if waited >= o.ServerStart {
			return &serverStartTimeout{platform.NewError(ctx, platform.KindGeneral, "deploy.server-start-timeout",
				"seconds", seconds(o.ServerStart), "console", o.Client.Config().BaseURL+"/console", "option", o.argOr("server-start-timeout"))}
		}
		if backoff == nil {
			backoff = o.policy().Start()
		}
		o.status(i18n.T(ctx, "deploy.status-server-starting", "elapsed", seconds(waited)))
		pause := min(backoff.Next(), o.ServerStart-waited)
		if err := o.clock().Sleep(ctx, pause); err != nil {
			return err
		}
	}
}

// seconds renders a duration as whole seconds, or with a fraction when
// shorter than ten seconds (accelerated tests).
func seconds(d time.Duration) string {
	s := d.Seconds()
	if s >= 10 || s == float64(int64(s)) {
		return fmt.Sprintf("%d", int64(s+0.5))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", s), "0"), ".")
}

// serverStartTimeout is the error of a server-start wait that ran out; it
// reads as the platform error it wraps. Reads that may fail quietly (the
// schema guard's) still end the call on it: the server is not there.
type serverStartTimeout struct{ err error }

func (e *serverStartTimeout) Error() string { return e.err.Error() }
func (e *serverStartTimeout) Unwrap() error { return e.err }

// serverAbsent tells whether err says the server is starting or did not
// come up within the server-start wait.
func serverAbsent(err error) bool {
	var st *serverStartTimeout
	return platform.IsServerStarting(err) || errors.As(err, &st)
}
