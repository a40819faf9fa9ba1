package command

import (
	"context"
	"errors"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

func appsStartCommand() *Command {
	return &Command{
		Path: []string{"apps", "start"}, Tool: "start_app",
		Help: "cli.help.apps-start", ToolHelp: "mcp.help.start-app", Idempotent: true,
		Args:     []Argument{AppArg(false)},
		ToolArgs: []Argument{ToolAppArg()},
		Run:      func(ctx context.Context, cc *Context, in Values) (any, error) { return switchApp(ctx, cc, in, "start") },
	}
}

func appsStopCommand() *Command {
	return &Command{
		Path: []string{"apps", "stop"}, Tool: "stop_app",
		Help: "cli.help.apps-stop", ToolHelp: "mcp.help.stop-app", Idempotent: true,
		Args:     []Argument{AppArg(false)},
		ToolArgs: []Argument{ToolAppArg()},
		Run:      func(ctx context.Context, cc *Context, in Values) (any, error) { return switchApp(ctx, cc, in, "stop") },
	}
}

func appsDeleteCommand() *Command {
	return &Command{
		Path: []string{"apps", "delete"}, Tool: "delete_app",
		Help: "cli.help.apps-delete", ToolHelp: "mcp.help.delete-app", Destructive: true,
		Args:     []Argument{AppArg(false)},
		ToolArgs: []Argument{ToolAppArg()},
		Run:      runAppsDelete,
	}
}

// switchApp starts or stops an application (default ELEMENT_APP_ID). The
// platform's answer is printed when it has a body; the console often
// answers with none, and then the answer says what was asked of whom.
func switchApp(ctx context.Context, cc *Context, in Values, action string) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.Str("app-id"), true)
	if err != nil {
		return nil, err
	}
	v, err := readback.SwitchApp(ctx, cl, id, action, cc.Log, cc.Hint(appHint(id)))
	if err != nil {
		return nil, err
	}
	return orFallback(v, jsonx.New("ok", true, "app-id", id)), nil
}

// appHint shows an application's card.
func appHint(id string) hint.Command {
	return hint.Command{Path: []string{"apps", "get"}, Args: []hint.Arg{hint.Pos("app-id", id)}}
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
func runAppsDelete(ctx context.Context, cc *Context, in Values) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.Str("app-id"), false)
	if err != nil {
		return nil, err
	}
	v, err := DeleteApp(ctx, cl, id, cc.Log, cc.Hint(appHint(id)))
	if err != nil {
		return nil, err
	}
	return orFallback(v, jsonx.New("deleted", true, "app-id", id)), nil
}

// DeleteApp asks the platform to delete an application (the deletion runs
// on in the background) and returns its answer (nil without a body). The
// refusal for unpublished development changes (400 FAILED_PRECONDITION)
// gets a hint, since no API call can force the deletion. An answer lost on
// the way is read back: the card gone, or deleting, means it arrived.
func DeleteApp(ctx context.Context, cl *platform.Client, id string, log func(string), look string) (any, error) {
	v, err := readback.Change{
		Settle: readback.SettleOf(cl),
		What:   i18n.T("readback.what-delete", "app", id),
		Send:   func(ctx context.Context) (any, error) { return cl.Delete(ctx, readback.AppPath(id)) },
		Check:  readback.AppGoing(cl, id),
		Look:   look,
		Log:    log,
	}.Do(ctx)
	if err != nil {
		var ae *platform.APIError
		if errors.As(err, &ae) && ae.Status == 400 && strings.Contains(bodyString(ae.Body), "FAILED_PRECONDITION") {
			hint := i18n.T("client.delete-precondition-hint")
			ae.Message += " – " + hint
			ae.Hint = hint
		}
		return nil, err
	}
	return v, nil
}

// bodyString is an error body as text, for looking for markers in it.
func bodyString(body any) string {
	switch b := body.(type) {
	case nil:
		return ""
	case string:
		return b
	}
	raw, err := jsonx.Compact(body)
	if err != nil {
		return ""
	}
	return string(raw)
}
