package command

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
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
	v, err := cl.Put(ctx, "/applications/"+url.PathEscape(id)+"/status/"+action, nil)
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
func runAppsDelete(ctx context.Context, cc *Context, in Values) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.Str("app-id"), false)
	if err != nil {
		return nil, err
	}
	v, err := DeleteApp(ctx, cl, id)
	if err != nil {
		return nil, err
	}
	return orFallback(v, jsonx.New("deleted", true, "app-id", id)), nil
}

// DeleteApp asks the platform to delete an application (the deletion runs
// on in the background) and returns its answer (nil without a body). The
// refusal for unpublished development changes (400 FAILED_PRECONDITION)
// gets a hint, since no API call can force the deletion.
func DeleteApp(ctx context.Context, cl *platform.Client, id string) (any, error) {
	v, err := cl.Delete(ctx, "/applications/"+url.PathEscape(id))
	if err != nil {
		var ae *platform.APIError
		if errors.As(err, &ae) && ae.Status == 400 && strings.Contains(bodyString(ae.Body), "FAILED_PRECONDITION") {
			hint := i18n.T(ctx, "client.delete-precondition-hint")
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
