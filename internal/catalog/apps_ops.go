package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/ops/readback"
)

func appsStartCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "start"}, Order: 8, Examples: []string{"elemctl apps start crm-test"}, Tool: "start_app",
		Help: "cli.help.apps-start", ToolHelp: "mcp.help.start-app", Idempotent: true,
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, func(ctx context.Context, cc *command.Context, in appInput) (any, error) {
		return switchApp(ctx, cc, in.AppID, "start")
	})
}

func appsStopCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "stop"}, Order: 9, Examples: []string{"elemctl apps stop crm-test"}, Tool: "stop_app",
		Help: "cli.help.apps-stop", ToolHelp: "mcp.help.stop-app", Idempotent: true,
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, func(ctx context.Context, cc *command.Context, in appInput) (any, error) {
		return switchApp(ctx, cc, in.AppID, "stop")
	})
}

func appsDeleteCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "delete"}, Order: 7, Examples: []string{"elemctl apps delete crm-old"}, Tool: "delete_app",
		Help: "cli.help.apps-delete", ToolHelp: "mcp.help.delete-app", Destructive: true, Slow: true,
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, runAppsDelete)
}

// switchApp starts or stops an application (default ELEMENT_APP_ID). The
// platform's answer is printed when it has a body; the console often
// answers with none, and then the answer says what was asked of whom.
func switchApp(ctx context.Context, cc *command.Context, appRef, action string) (any, error) {
	cl, id, err := TargetApp(ctx, cc, appRef, true)
	if err != nil {
		return nil, err
	}
	v, err := readback.SwitchApp(ctx, cl, id, action, cc.Log, cc.Hint(ctx, cards.AppHint(id)))
	if err != nil {
		return nil, err
	}
	return orFallback(v, jsonx.New("ok", true, "app-id", id)), nil
}

// orFallback is the platform's answer, or fallback when it came without a
// body.
func orFallback(v any, fallback *jsonx.Object) any {
	if v == nil {
		return fallback
	}
	return v
}

// runAppsDelete deletes an application. It takes no ELEMENT_APP_ID: a
// deletion must name its target.
func runAppsDelete(ctx context.Context, cc *command.Context, in appInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, false)
	if err != nil {
		return nil, err
	}
	v, err := cards.DeleteApp(ctx, cl, id, cc.Log, cc.Hint(ctx, cards.AppHint(id)))
	if err != nil {
		return nil, err
	}
	return orFallback(v, jsonx.New("deleted", true, "app-id", id)), nil
}
