package command

import (
	"context"

	"github.com/elemctl/elemctl/internal/jsonx"
)

func appsApplyCommand() *Command {
	return &Command{
		Path: []string{"apps", "apply"},
		Help: "cli.help.apps-apply", Slow: true, Destructive: true,
		Args: []Argument{
			AppArg(false),
			{Name: "version-id", Help: "cli.arg.apply-version-id", Type: String, Positional: true, Required: true, Metavar: "VERSION_ID"},
		},
		Run: runAppsApply,
	}
}

func applyBuildTool() *Command {
	return &Command{
		Tool: "apply_build", ToolHelp: "mcp.help.apply-build", Destructive: true,
		ToolArgs: []Argument{
			{Name: "app_id", Help: "mcp.arg.apply-app-id", Type: String, Required: true},
			{Name: "version_id", Help: "mcp.arg.apply-version-id", Type: String, Required: true},
		},
		Run: runApplyBuild,
	}
}

func runAppsApply(ctx context.Context, cc *Context, in Values) (any, error) {
	app, version := in.Str("app-id"), in.Str("version-id")
	cl, id, err := TargetApp(ctx, cc, app, true)
	if err != nil {
		return nil, err
	}
	r, err := DeployOps(cc, cl).ApplyAndVerify(ctx, id, version)
	if err != nil {
		return nil, err
	}
	return r.JSON(), nil
}

// runApplyBuild starts the apply and returns at once: the MCP tool leaves
// the wait to the caller (verify_deploy). The application id is used as
// given.
func runApplyBuild(ctx context.Context, cc *Context, in Values) (any, error) {
	cl, err := cc.Client()
	if err != nil {
		return nil, err
	}
	app, version := in.Str("app-id"), in.Str("version-id")
	v, err := DeployOps(cc, cl).StartApply(ctx, app, version)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return jsonx.New("ok", true, "app-id", app, "version-id", version), nil
	}
	return v, nil
}
