package readback

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// AppStatusIn is the check of a start or stop: the application's card
// shows one of statuses (the change under way or done). A blank status,
// which the platform shows mid-transition, tells nothing: the check fails
// rather than guess.
func AppStatusIn(cl *platform.Client, appID string, statuses ...string) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		card, err := cl.GetApp(ctx, appID)
		if err != nil {
			return false, err
		}
		st := card.Str("status")
		if st == "" {
			return false, errors.New(i18n.T(ctx, "readback.status-blank", "app", appID))
		}
		return slices.Contains(statuses, st), nil
	}
}

// AppGoing is the check of a deletion: the card answers 404 or shows the
// deletion under way or done.
func AppGoing(cl *platform.Client, appID string) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		card, err := cl.GetApp(ctx, appID)
		switch {
		case platform.IsAPIStatus(err, http.StatusNotFound) && !platform.IsServerStarting(err) && !platform.IsBusy(err):
			return true, nil
		case err != nil:
			return false, err
		}
		return platform.IsDeletedApp(card) || card.Str("status") == "Deleting", nil
	}
}

// AppPath is the API path of an application.
func AppPath(appID string) string { return "/applications/" + url.PathEscape(appID) }

// SwitchApp asks the platform to start or stop an application (action
// "start" or "stop"); an answer lost on the way is read back: the
// application starting or running (stopping or stopped) means the request
// arrived. It returns the platform's answer, nil without a body; look is
// the command that shows the application (see Change.Look).
func SwitchApp(ctx context.Context, cl *platform.Client, appID, action string, log func(string), look string) (any, error) {
	done := []string{"Starting", platform.StatusRunning}
	if action == "stop" {
		done = []string{"Stopping", platform.StatusStopped}
	}
	return Change{
		Settle: SettleOf(cl),
		What:   i18n.T(ctx, "readback.what-"+action, "app", appID),
		Send:   func(ctx context.Context) (any, error) { return cl.Put(ctx, AppPath(appID)+"/status/"+action, nil) },
		Check:  AppStatusIn(cl, appID, done...),
		Look:   look,
		Log:    log,
	}.Do(ctx)
}
