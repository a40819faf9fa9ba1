package deploy

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

// BuildSource is the apply body naming a build by id (in an apply,
// image-id is a build id – in a create it is a project id).
func BuildSource(buildID string) *jsonx.Object {
	return jsonx.New("source", jsonx.New("type", "repository", "image-id", buildID))
}

// ProjectVersionSource is the apply body for an upload whose answer named
// no build id: the project and, when known, the version.
func ProjectVersionSource(projectID, version string) *jsonx.Object {
	src := jsonx.New("type", "repository", "project-id", projectID)
	if version != "" {
		src.Set("assembly-version", version)
	}
	return jsonx.New("source", src)
}

// ApplyNotSentError is an apply stopped before any request of it could
// have reached the platform: interrupted while the application was busy
// (every request so far refused) or while the server was starting.
// Nothing was applied.
type ApplyNotSentError struct{ Err error }

func (e *ApplyNotSentError) Error() string { return e.Err.Error() }
func (e *ApplyNotSentError) Unwrap() error { return e.Err }

// ApplyUnansweredError is an apply request that may have reached the
// platform: its answer was lost, it timed out, a gateway turned it away,
// or the caller stopped it under way. What happened is found by reading
// the application back.
type ApplyUnansweredError struct{ Err error }

func (e *ApplyUnansweredError) Error() string { return e.Err.Error() }
func (e *ApplyUnansweredError) Unwrap() error { return e.Err }

// Apply starts an apply (POST /applications/{id}/project/update). While the
// application is still busy with a previous operation the platform refuses
// with "is busy"; the call is then repeated with the poll policy's backoff
// for up to Limits.Busy (a refused request did nothing, so repeating it is
// safe). The answer is the platform's, possibly nil. A request that may
// have reached the platform without an answer is never repeated: the
// error is an ApplyUnansweredError, and the caller reads back; one stopped
// before any request could have arrived is an ApplyNotSentError.
func (o *Ops) Apply(ctx context.Context, appID string, body *jsonx.Object) (any, error) {
	clock := o.clock()
	var start time.Time
	var backoff *Backoff
	path := "/applications/" + url.PathEscape(appID) + "/project/update"
	for {
		if err := ctx.Err(); err != nil {
			return nil, &ApplyNotSentError{Err: err}
		}
		var answer any
		sent := false
		err := o.call(ctx, func(ctx context.Context) error {
			var e error
			sent = true
			answer, e = o.Client.Post(ctx, path, body)
			return e
		})
		switch {
		case err == nil:
			if backoff != nil {
				o.logf(ctx, "deploy.busy-over")
			}
			return answer, nil
		case !sent || isCanceled(err) && !platform.IsTransport(err):
			// Stopped in the server-start wait: the requests so far were
			// refused unprocessed.
			return nil, &ApplyNotSentError{Err: err}
		case readback.Uncertain(err) || ctx.Err() != nil:
			return nil, &ApplyUnansweredError{Err: err}
		case !platform.IsBusy(err):
			return nil, err
		}
		now := clock.Now()
		if backoff == nil {
			start, backoff = now, o.policy().Start()
			o.logf(ctx, "deploy.busy", "app", appID, "seconds", seconds(o.limits().Busy))
		}
		waited := now.Sub(start)
		if waited >= o.limits().Busy {
			return nil, err
		}
		o.status(i18n.T(ctx, "deploy.status-busy", "app", appID, "elapsed", seconds(waited)))
		if e := clock.Sleep(ctx, min(backoff.Next(), o.limits().Busy-waited)); e != nil {
			return nil, &ApplyNotSentError{Err: e}
		}
	}
}

// applied is what is known of an apply request once Apply returned.
type applied struct {
	// unanswered: the request may have reached the platform without an
	// answer; the verification tells what happened.
	unanswered bool
}

// startApply runs Apply for a deploy or apps apply and turns its failures
// into what the user is told: an apply interrupted before it was sent
// says the build is not applied and how to apply it; one interrupted
// under way says it may have reached the platform and how to check; a
// lost answer is logged as such and the caller goes on to the
// verification, which tells what really happened.
func (o *Ops) startApply(ctx context.Context, appID, buildID, buildLabel string, body *jsonx.Object, started time.Time) (applied, error) {
	_, err := o.Apply(ctx, appID, body)
	var notSent *ApplyNotSentError
	var unanswered *ApplyUnansweredError
	switch {
	case err == nil:
		return applied{}, nil
	case errors.As(err, &notSent) && ctx.Err() != nil:
		h := o.hint(ctx, applyHint(appID, buildID))
		return applied{}, &InterruptedError{Err: ctx.Err(), Hint: h, Message: i18n.T(ctx, "deploy.interrupted-before-apply",
			"app", appID, "build", buildLabel, "command", h)}
	case errors.As(err, &notSent):
		return applied{}, notSent.Err
	case errors.As(err, &unanswered) && ctx.Err() != nil:
		return applied{}, interruptedWith(ctx, "deploy.interrupted-apply-under-way", appID, o.hint(ctx, verifyHint(appID, buildID)))
	case errors.As(err, &unanswered):
		o.logf(ctx, "deploy.apply-may-have-reached", "error", unanswered.Err)
		// The platform may still be taking the request: look until the
		// apply shows or the settle time passes, so the verification does
		// not judge an apply that is only late.
		settle := readback.SettleAfter(unanswered.Err, readback.SettleOf(o.Client))
		if _, err := readback.Await(ctx, settle, o.applyShows(appID, buildID, started)); err != nil && ctx.Err() != nil {
			return applied{}, interruptedWith(ctx, "deploy.interrupted-apply-unknown", appID, o.hint(ctx, verifyHint(appID, buildID)))
		}
		return applied{unanswered: true}, nil
	}
	return applied{}, err
}

// applyShows is the look for an apply whose answer was lost: the
// application updating or on the build, or a task of it since the apply
// was sent.
func (o *Ops) applyShows(appID, buildID string, since time.Time) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		card, err := o.readCard(ctx, appID)
		if err != nil {
			return false, err
		}
		if card.Str("status") == "Updating" || buildID != "" && card.Obj("source").Str("project-version-id") == buildID {
			return true, nil
		}
		tasks, err := o.appTasks(ctx, appID)
		return err == nil && len(tasksSince(tasks, since)) > 0, err
	}
}

// ApplyAndVerify is `apps apply`: apply the build, bring the application
// to Running and verify that it runs the build (spec cli.md §2.6).
func (o *Ops) ApplyAndVerify(ctx context.Context, appID, buildID string) (*Report, error) {
	started := o.now().UTC()
	before := o.cardBeforeApply(ctx, appID, nil)
	a, err := o.startApply(ctx, appID, buildID, buildID, BuildSource(buildID), started)
	if err != nil {
		return nil, err
	}
	if !a.unanswered {
		o.logf(ctx, "deploy.apply-started-id", "id", buildID)
	}
	card, err := o.ensureRunning(ctx, applyTarget{appID: appID, before: before}, started)
	if err != nil {
		return nil, o.stopped(ctx, err, card, appID, buildID, a)
	}
	r, err := o.Verify(ctx, VerifyRequest{AppID: appID, Card: card, ExpectedID: buildID, Since: started,
		ApplyUnanswered: a.unanswered})
	if err != nil {
		return nil, o.stopped(ctx, err, nil, appID, buildID, a)
	}
	return r, nil
}

// StartApply is the apply_build tool: start the apply and return the
// platform's answer without waiting. A lost answer is read back: the
// application updating, or already on the build, means the apply
// arrived.
func (o *Ops) StartApply(ctx context.Context, appID, buildID string) (any, error) {
	answer, err := o.Apply(ctx, appID, BuildSource(buildID))
	var notSent *ApplyNotSentError
	var unanswered *ApplyUnansweredError
	switch {
	case err == nil:
		return answer, nil
	case errors.As(err, &notSent):
		return nil, notSent.Err
	case !errors.As(err, &unanswered):
		return nil, err
	}
	what := i18n.T(ctx, "deploy.what-apply", "build", buildID, "app", appID)
	if ctx.Err() != nil {
		return nil, readback.Interrupted(ctx, what, o.hint(ctx, verifyHint(appID, buildID)))
	}
	return readback.Change{
		Settle:   readback.SettleOf(o.Client),
		What:     what,
		Checking: func(err error) string { return i18n.T(ctx, "deploy.apply-may-have-reached", "error", err) },
		Send:     func(context.Context) (any, error) { return nil, unanswered.Err },
		Check: func(ctx context.Context) (bool, error) {
			card, err := o.Client.GetApp(ctx, appID)
			if err != nil {
				return false, err
			}
			return card.Str("status") == "Updating" || card.Obj("source").Str("project-version-id") == buildID, nil
		},
		Log: o.log,
	}.Do(ctx)
}

// stopped turns a wait or a verification that could not finish after the
// apply into the error the user sees. Interrupted, it keeps the
// application id and says how to look later; a platform that stopped
// answering, or a wait that ran out, gets the same command to run later
// after its own message. An application in status Error is a verdict of
// its own and gets none.
func (o *Ops) stopped(ctx context.Context, err error, card *jsonx.Object, appID, buildID string, a applied) error {
	if ctx.Err() != nil && isCanceled(err) {
		key := "deploy.interrupted"
		if a.unanswered {
			key = "deploy.interrupted-apply-unknown"
		}
		return interruptedWith(ctx, key, appID, o.hint(ctx, verifyHint(appID, buildID)))
	}
	if card != nil && card.Str("status") == platform.StatusError {
		return err
	}
	key := "deploy.check-later"
	if a.unanswered {
		key = "deploy.check-later-unknown"
	}
	h := o.hint(ctx, verifyHint(appID, buildID))
	return withHint(err, h, i18n.T(ctx, key, "command", h))
}

// withHint adds a sentence with a command to an error, keeping its kind
// (an API answer stays one).
func withHint(err error, command, sentence string) error {
	if ae, ok := err.(*platform.APIError); ok {
		ae.Hint = command
		ae.Message += ". " + sentence
		return err
	}
	kind := platform.KindGeneral
	if platform.IsTransport(err) {
		kind = platform.KindTransport
	}
	return &platform.Error{Kind: kind, Err: err, Hint: command, Message: err.Error() + ". " + sentence}
}

// InterruptedError is a wait the caller stopped; it wraps the context's
// error so faces can tell an interruption, and its message keeps what the
// user needs to pick up where the run stopped.
type InterruptedError struct {
	Message string
	Err     error
	// Hint is the command the message names, for the error's "hint".
	Hint string
}

func (e *InterruptedError) Error() string     { return e.Message }
func (e *InterruptedError) Unwrap() error     { return e.Err }
func (e *InterruptedError) ErrorHint() string { return e.Hint }

// interruptedWith is an interruption whose message (key, with the
// application) names command.
func interruptedWith(ctx context.Context, key, appID, command string) *InterruptedError {
	return &InterruptedError{Err: ctx.Err(), Hint: command, Message: i18n.T(ctx, key, "app", appID, "command", command)}
}
