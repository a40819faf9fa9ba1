package deploy

import (
	"context"
	"net/url"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
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

// Apply starts an apply (POST /applications/{id}/project/update). While the
// application is still busy with a previous operation the platform refuses
// with "is busy"; the call is then repeated with the poll policy's backoff
// for up to Limits.Busy. The answer is the platform's, possibly nil.
func (o *Ops) Apply(ctx context.Context, appID string, body *jsonx.Object) (any, error) {
	clock := o.clock()
	var start time.Time
	var backoff *Backoff
	path := "/applications/" + url.PathEscape(appID) + "/project/update"
	for {
		var answer any
		err := o.call(ctx, func(ctx context.Context) error {
			var e error
			answer, e = o.Client.Post(ctx, path, body)
			return e
		})
		if err == nil {
			if backoff != nil {
				o.logf(ctx, "deploy.busy-over")
			}
			return answer, nil
		}
		if !platform.IsBusy(err) {
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
			return nil, e
		}
	}
}

// ApplyAndVerify is `apps apply`: apply the build, bring the application
// to Running and verify that it runs the build (spec cli.md §2.6).
func (o *Ops) ApplyAndVerify(ctx context.Context, appID, buildID string) (*Report, error) {
	started := o.now().UTC()
	if _, err := o.Apply(ctx, appID, BuildSource(buildID)); err != nil {
		return nil, err
	}
	o.logf(ctx, "deploy.apply-started-id", "id", buildID)
	card, err := o.EnsureRunning(ctx, appID, started)
	if err != nil {
		return nil, o.interrupted(ctx, err, appID, buildID)
	}
	r, err := o.Verify(ctx, VerifyRequest{AppID: appID, Card: card, ExpectedID: buildID, Since: started})
	if err != nil {
		return nil, o.interrupted(ctx, err, appID, buildID)
	}
	return r, nil
}

// interrupted turns the caller's cancellation during a wait into an error
// that keeps the application id and says how to look later: the platform
// goes on with the apply whatever elemctl does. A platform that stopped
// answering (a network failure once the apply was accepted) gets the same
// command to run later, after the failure's own message.
func (o *Ops) interrupted(ctx context.Context, err error, appID, buildID string) error {
	if ctx.Err() == nil && platform.IsTransport(err) {
		return &platform.Error{Kind: platform.KindTransport, Err: err,
			Message: err.Error() + ". " + i18n.T(ctx, "deploy.check-later", "command", verifyCommand(appID, buildID))}
	}
	if ctx.Err() == nil || !isCanceled(err) {
		return err
	}
	return &InterruptedError{Message: i18n.T(ctx, "deploy.interrupted", "app", appID, "command", verifyCommand(appID, buildID)), Err: ctx.Err()}
}

// verifyCommand is the command that checks an apply's outcome later.
func verifyCommand(appID, buildID string) string {
	cmd := "elemctl verify-deploy " + appID
	if buildID != "" {
		cmd += " --version-id " + buildID
	}
	return cmd
}

// InterruptedError is a wait the caller stopped; it wraps the context's
// error so faces can tell an interruption, and its message keeps what the
// user needs to pick up where the run stopped.
type InterruptedError struct {
	Message string
	Err     error
}

func (e *InterruptedError) Error() string { return e.Message }
func (e *InterruptedError) Unwrap() error { return e.Err }
