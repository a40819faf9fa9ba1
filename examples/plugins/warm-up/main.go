// Command warm-up is an example elemctl plugin written with the Go SDK:
// `elemctl warm-up [--stand APP] [--force]` makes an application ready for
// its first user. A stopped application is started, and the command waits
// until it runs; with --force a running one is restarted (stopped, then
// started) and one in status Error is started again. It reaches the
// platform only through elemctl (get_app, start_app, stop_app). Build it
// into its plugin directory and write the manifest:
//
//	go build -o ~/.local/share/elemctl/plugins/warm-up/ ./examples/plugins/warm-up
//	~/.local/share/elemctl/plugins/warm-up/warm-up manifest > ~/.local/share/elemctl/plugins/warm-up/elemctl-plugin.json
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/elemctl/elemctl/plugin/sdk"
)

func main() {
	sdk.Serve(sdk.Command{
		Name: "warm-up",
		Help: "start an application if it is stopped (with --force restart it) and wait until it runs",
		Arguments: []sdk.Argument{
			{Name: "--stand", Help: "the application: id or exact name (default ELEMENT_APP_ID)"},
			{Name: "--force", Type: sdk.Bool, Help: "restart a running application, start one in status Error"},
		},
		Run: warmUp,
	})
}

// waitLimit bounds each wait for a status (the platform's own stop and
// start limits are three and five minutes).
const waitLimit = 5 * time.Minute

func warmUp(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
	app, err := cc.Client().GetApp(ctx, in.Str("stand"))
	if err != nil {
		return nil, err
	}
	id, name, status := app.Str("id"), app.Str("name"), app.Str("status")
	force := in.Bool("force")
	answer := func(started, restarted bool, now string) any {
		return sdk.NewObject("id", id, "name", name, "status", status,
			"started", started, "restarted", restarted, "status-now", now)
	}
	switch {
	case status == "Running" && force:
		cc.Log("restarting " + name)
		if _, err := cc.Client().Call(ctx, "stop_app", map[string]any{"app_id": id}); err != nil {
			return nil, err
		}
		if _, err := waitFor(ctx, cc, id, "Stopped"); err != nil {
			return nil, err
		}
	case status == "Stopped", status == "Error" && force:
		cc.Log("starting " + name)
	default:
		// Running already, or busy with something the platform finishes
		// on its own, or Error without --force.
		return answer(false, false, status), nil
	}
	if _, err := cc.Client().Call(ctx, "start_app", map[string]any{"app_id": id}); err != nil {
		return nil, err
	}
	now, err := waitFor(ctx, cc, id, "Running")
	if err != nil {
		return nil, err
	}
	return answer(true, status == "Running", now), nil
}

// waitFor polls the card until the status is want and fails on Error or
// after waitLimit. It asks often at first and then every two seconds.
func waitFor(ctx context.Context, cc *sdk.Context, id, want string) (string, error) {
	deadline := time.Now().Add(waitLimit)
	pause := 100 * time.Millisecond
	for {
		app, err := cc.Client().GetApp(ctx, id)
		if err != nil {
			return "", err
		}
		switch status := app.Str("status"); {
		case status == want:
			return status, nil
		case status == "Error":
			return status, fmt.Errorf("application %s went into status Error: %s", id, app.Str("error"))
		case time.Now().After(deadline):
			return status, fmt.Errorf("application %s is %s, not %s, after %v", id, status, want, waitLimit)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}
