package deploy

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

// Goal is what a status wait waits for.
type Goal int

const (
	// GoalStable: Running, Stopped or Error (Error is returned, not failed).
	GoalStable Goal = iota
	// GoalRunning: Running; Error fails the wait at once.
	GoalRunning
	// GoalStopped: Stopped; Error fails the wait at once.
	GoalStopped
	// GoalReady: a new application is Running or Stopped and has its
	// address; Error fails the wait at once.
	GoalReady
)

func (g Goal) String() string {
	switch g {
	case GoalRunning:
		return platform.StatusRunning
	case GoalStopped:
		return platform.StatusStopped
	case GoalReady:
		return "Running|Stopped + uri"
	}
	return "Running|Stopped|Error"
}

// IsStable tells a status a wait may end on.
func IsStable(status string) bool {
	switch status {
	case platform.StatusRunning, platform.StatusStopped, platform.StatusError:
		return true
	}
	return false
}

func (g Goal) reached(card *jsonx.Object) bool {
	st := card.Str("status")
	switch g {
	case GoalRunning:
		return st == platform.StatusRunning
	case GoalStopped:
		return st == platform.StatusStopped
	case GoalReady:
		return (st == platform.StatusRunning || st == platform.StatusStopped) && strings.TrimSpace(card.Str("uri")) != ""
	}
	return IsStable(st)
}

// readCard reads an application card once, without the client's own
// retries: inside a wait a broken connection is just a missed poll.
func (o *Ops) readCard(ctx context.Context, appID string) (*jsonx.Object, error) {
	return o.getCard(ctx, appID, []time.Duration{})
}

// card reads an application card outside a wait, with the client's
// retries of a read that broke off or was turned away.
func (o *Ops) card(ctx context.Context, appID string) (*jsonx.Object, error) {
	return o.getCard(ctx, appID, nil)
}

func (o *Ops) getCard(ctx context.Context, appID string, retries []time.Duration) (*jsonx.Object, error) {
	var card *jsonx.Object
	err := o.call(ctx, func(ctx context.Context) error {
		v, err := o.Client.Call(ctx, platform.Request{Method: http.MethodGet,
			Path: "/applications/" + url.PathEscape(appID), ReadRetries: retries})
		if err != nil {
			return err
		}
		card, _ = v.(*jsonx.Object)
		if card == nil {
			card = &jsonx.Object{}
		}
		return nil
	})
	return card, err
}

// Wait waits for an application to reach goal within timeout. It polls
// with the backoff of the poll policy, shows the elapsed time and the
// status on the live line and logs each status change. A card read that
// breaks off on the network is a missed poll, until UnreachablePolls of
// them in a row say the platform is gone; UNKNOWN is tolerated for
// Limits.Unknown in a row. Failed tasks started at or after since (zero:
// all of them) complete the message of an Error status.
func (o *Ops) Wait(ctx context.Context, appID string, goal Goal, timeout time.Duration, since time.Time) (*jsonx.Object, error) {
	return o.wait(ctx, appID, goal, timeout, since, nil)
}

// UnreachablePolls is how many card reads in a row may break off on the
// network (or be turned away by a gateway) before a wait gives up on the
// platform: the broken reads back off from a quarter of a second, so that
// is about half a minute.
const UnreachablePolls = 12

// missedPoll tells a card read that failed on the way – the network, or a
// gateway or a server under load turning it away (502, 503, 504, 429) –
// from an answer of the platform: inside a wait it is a missed poll.
func missedPoll(err error) bool {
	return platform.IsTransport(err) || platform.IsTurnedAway(err)
}

// wait is Wait; plan, when set, places the polls around the end an apply
// is expected at and measures when it really ended.
func (o *Ops) wait(ctx context.Context, appID string, goal Goal, timeout time.Duration, since time.Time, plan *applyPlan) (*jsonx.Object, error) {
	clock := o.clock()
	start := clock.Now()
	deadline := start.Add(timeout)
	backoff := o.policy().Start()
	if err := o.awaitFirstRead(ctx, plan, start, deadline, i18n.T(ctx, "deploy.status-wait", "app", appID,
		"goal", goal.String(), "status", statusWord(""), "elapsed", seconds(0))); err != nil {
		return nil, err
	}
	var unknownSince time.Time
	var lastErr error
	var last *jsonx.Object
	lastStatus := "\x00"
	// A platform that stopped answering: the broken reads in a row, their
	// own backoff, and their lines collapsed into one with a count.
	broken := 0
	var brokenBackoff *Backoff
	repeats := o.repeatedLines()
	defer repeats.flush(ctx)
	for {
		sent := clock.Now()
		card, err := o.readCard(ctx, appID)
		now := clock.Now()
		switch {
		case err != nil && ctx.Err() != nil:
			return last, ctx.Err()
		case err != nil && missedPoll(err):
			lastErr = err
			if broken++; broken == 1 {
				brokenBackoff = o.policy().Start()
			}
			repeats.logAs(ctx, "deploy.wait-read-broke", i18n.T(ctx, "deploy.wait-read-broke", "error", err))
			if broken >= UnreachablePolls {
				return last, &platform.Error{Kind: platform.KindTransport, Err: err,
					Message: i18n.T(ctx, "deploy.wait-unreachable", "count", broken, "app", appID, "error", err)}
			}
		case err != nil:
			return last, err
		default:
			broken, brokenBackoff = 0, nil
			repeats.flush(ctx)
			last, lastErr = card, nil
			st := card.Str("status")
			if st != lastStatus {
				lastStatus = st
				o.logf(ctx, "deploy.wait-status", "app", appID, "status", statusWord(st), "elapsed", seconds(now.Sub(start)))
			}
			plan.observe(sent, now, IsStable(st))
			if goal.reached(card) {
				return card, nil
			}
			if st == platform.StatusError && goal != GoalStable {
				return card, o.errorStatus(ctx, appID, card, since)
			}
			if st == platform.StatusUnknown {
				if unknownSince.IsZero() {
					unknownSince = now
				}
				if now.Sub(unknownSince) >= o.limits().Unknown {
					return card, &platform.APIError{Message: i18n.T(ctx, "client.wait-status-unknown",
						"app", appID, "seconds", seconds(o.limits().Unknown)), Body: card}
				}
			} else {
				unknownSince = time.Time{}
			}
		}
		if !now.Before(deadline) {
			return last, o.timeoutError(ctx, appID, goal, timeout, last, lastErr)
		}
		var pause time.Duration
		switch {
		case broken > 0:
			o.status(i18n.T(ctx, "deploy.status-unreachable", "app", appID, "count", broken, "elapsed", seconds(now.Sub(start))))
			pause = brokenBackoff.Next()
		default:
			pause = plan.next(now, backoff)
		}
		if broken == 0 {
			o.status(i18n.T(ctx, "deploy.status-wait", "app", appID, "goal", goal.String(),
				"status", statusWord(last.Str("status")), "elapsed", seconds(now.Sub(start))))
		}
		if err := clock.Sleep(ctx, min(pause, deadline.Sub(now))); err != nil {
			return last, err
		}
	}
}

// awaitFirstRead fixes plan (nil: none) to a wait that starts at start,
// its reads sent a round trip sooner (see applyPlan.sendAhead), and, with
// a forecast, sleeps until its first read, showing status meanwhile: the
// operation has only just begun.
func (o *Ops) awaitFirstRead(ctx context.Context, plan *applyPlan, start, deadline time.Time, status string) error {
	plan.begin(start)
	plan.sendAhead(o.Client.RoundTrip())
	clock := o.clock()
	pause, ok := plan.firstRead(clock.Now())
	if !ok {
		return nil
	}
	o.status(status)
	return clock.Sleep(ctx, min(pause, deadline.Sub(clock.Now())))
}

func statusWord(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func (o *Ops) timeoutError(ctx context.Context, appID string, goal Goal, timeout time.Duration, last *jsonx.Object, lastErr error) error {
	msg := i18n.T(ctx, "client.wait-timeout", "app", appID, "goal", goal.String(), "seconds", seconds(timeout),
		"status", statusWord(last.Str("status")))
	if lastErr != nil {
		msg += ": " + lastErr.Error()
	}
	e := &platform.APIError{Message: msg}
	if last != nil {
		e.Body = last
	}
	return e
}

// errorStatus is the failure of an application in status Error: the card's
// error text and the failed tasks' texts, freshest first.
func (o *Ops) errorStatus(ctx context.Context, appID string, card *jsonx.Object, since time.Time) error {
	parts := []string{}
	if e := strings.TrimSpace(card.Str("error")); e != "" {
		parts = append(parts, e)
	}
	if tasks, err := o.appTasks(ctx, appID); err == nil {
		for _, t := range failedTasks(tasks, since) {
			parts = append(parts, taskLine(ctx, t))
		}
	}
	detail := strings.Join(parts, "\n")
	if detail == "" {
		detail = i18n.T(ctx, "deploy.no-error-text")
	}
	return &platform.APIError{Message: i18n.T(ctx, "client.app-error-status", "app", appID, "detail", detail), Body: card}
}

// WaitGone waits until an application whose deletion was just accepted
// answers 404 or says Deleted. It reports false when the time is up. Its
// polls are planned by the stand's recent deletions, and it records its
// own (see opwaits.go).
func (o *Ops) WaitGone(ctx context.Context, appID string, timeout time.Duration) (bool, error) {
	clock := o.clock()
	start := clock.Now()
	deadline := start.Add(timeout)
	backoff := o.policy().Start()
	history := o.applyHistory()
	key := deleteKey(o.Client.Config().BaseURL)
	plan := o.planBy(history, key)
	gone := func() (bool, error) {
		if s, ok := plan.sample(); ok {
			history.record(key, "", s, o.now(), false)
		}
		return true, nil
	}
	if err := o.awaitFirstRead(ctx, plan, start, deadline, i18n.T(ctx, "deploy.status-delete", "app", appID,
		"status", statusWord(""), "elapsed", seconds(0))); err != nil {
		return false, err
	}
	repeats := o.repeatedLines()
	defer repeats.flush(ctx)
	for {
		sent := clock.Now()
		card, err := o.readCard(ctx, appID)
		now := clock.Now()
		switch {
		case err != nil && ctx.Err() != nil:
			return false, ctx.Err()
		case platform.IsAPIStatus(err, http.StatusNotFound) && !platform.IsServerStarting(err) && !platform.IsBusy(err):
			plan.observe(sent, now, true)
			return gone()
		case err != nil && missedPoll(err):
			repeats.logAs(ctx, "deploy.wait-read-broke", i18n.T(ctx, "deploy.wait-read-broke", "error", err))
		case err != nil:
			return false, err
		case platform.IsDeletedApp(card):
			plan.observe(sent, now, true)
			return gone()
		default:
			plan.observe(sent, now, false)
			repeats.flush(ctx)
			o.status(i18n.T(ctx, "deploy.status-delete", "app", appID, "status", statusWord(card.Str("status")),
				"elapsed", seconds(now.Sub(start))))
		}
		if !now.Before(deadline) {
			return false, nil
		}
		if err := clock.Sleep(ctx, min(plan.next(now, backoff), deadline.Sub(now))); err != nil {
			return false, err
		}
	}
}

// EnsureRunning brings an application to Running after an apply (spec
// cli.md §3.2 step 9): wait for a stable status; Running is done; Error
// fails with the card's and the tasks' texts; any other stable status is
// cured by a stop (unless Stopped) and a start.
//
// The wait for the apply's end polls around the end the application's
// earlier applies suggest (see applyPlan) and remembers when this one
// ended.
func (o *Ops) EnsureRunning(ctx context.Context, appID string, since time.Time) (*jsonx.Object, error) {
	return o.ensureRunning(ctx, applyTarget{appID: appID}, since)
}

// ensureRunning is EnsureRunning for an apply of which more may be known.
func (o *Ops) ensureRunning(ctx context.Context, t applyTarget, since time.Time) (*jsonx.Object, error) {
	appID := t.appID
	l := o.limits()
	// The apply was accepted a moment ago: the plan counts from here, the
	// forecast's own read included.
	accepted := o.now()
	history := o.applyHistory()
	key := applyKey(o.Client.Config().BaseURL, appID)
	forecast, ok := o.forecastApply(ctx, history, t)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if ok {
		o.logForecast(ctx, forecast)
	}
	plan := newApplyPlan(forecast, ok, o.policy())
	plan.begin(accepted)
	card, err := o.wait(ctx, appID, GoalStable, l.Start, since, plan)
	if err != nil {
		return card, err
	}
	if sample, ok := plan.sample(); ok {
		project := t.projectID
		if id := card.Obj("project").Str("id"); id != "" {
			project = id
		}
		history.record(key, project, sample, o.now(), false)
		if history != nil {
			o.measured = &measuredApply{history: history, key: key, sample: sample, settled: card}
		}
	}
	switch card.Str("status") {
	case platform.StatusRunning:
		return card, nil
	case platform.StatusError:
		return card, o.errorStatus(ctx, appID, card, since)
	}
	if card.Str("status") != platform.StatusStopped {
		o.logf(ctx, "deploy.stopping", "app", appID, "status", card.Str("status"))
		if err := o.switchApp(ctx, appID, "stop"); err != nil {
			return card, err
		}
		if card, err = o.Wait(ctx, appID, GoalStopped, l.Stop, since); err != nil {
			return card, err
		}
	}
	o.logf(ctx, "deploy.starting", "app", appID)
	if err := o.switchApp(ctx, appID, "start"); err != nil {
		return card, err
	}
	return o.Wait(ctx, appID, GoalRunning, l.Start, since)
}

// switchApp starts or stops the application inside the server-start wait;
// a lost answer is read back (see readback.SwitchApp).
func (o *Ops) switchApp(ctx context.Context, appID, action string) error {
	return o.call(ctx, func(ctx context.Context) error {
		_, err := readback.SwitchApp(ctx, o.Client, appID, action, o.log, o.hint(ctx, appHint(appID)))
		return err
	})
}

// isCanceled tells an interruption of the caller from a failure.
func isCanceled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
