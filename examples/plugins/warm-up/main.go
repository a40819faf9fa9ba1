// Command warm-up is an example elemctl plugin written with the Go SDK:
// `elemctl warm-up [APP]` reads the application card through elemctl and
// starts the application when it is stopped, so its first user does not
// wait. Build it into its plugin directory and write the manifest:
//
//	go build -o ~/.local/share/elemctl/plugins/warm-up/ ./examples/plugins/warm-up
//	~/.local/share/elemctl/plugins/warm-up/warm-up manifest > ~/.local/share/elemctl/plugins/warm-up/elemctl-plugin.json
package main

import (
	"context"

	"github.com/elemctl/elemctl/plugin/sdk"
)

func main() {
	sdk.Serve(sdk.Command{
		Name:      "warm-up",
		Help:      "start an application if it is stopped and report its status",
		Arguments: []sdk.Argument{{Name: "app", Help: "id or exact name (default ELEMENT_APP_ID)", Optional: true, CLIAlias: "--app-id"}},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			app, err := cc.Client().GetApp(ctx, in.Str("app"))
			if err != nil {
				return nil, err
			}
			started := app.Str("status") == "Stopped"
			if started {
				cc.Log("starting " + app.Str("name"))
				if _, err := cc.Client().Call(ctx, "start_app", map[string]any{"app_id": app.Str("id")}); err != nil {
					return nil, err
				}
			}
			return sdk.NewObject("id", app.Value("id"), "name", app.Value("name"), "status", app.Value("status"), "started", started), nil
		},
	})
}
