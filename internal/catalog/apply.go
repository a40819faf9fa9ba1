package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

func appsApplyCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "apply"}, Order: 6, Examples: []string{"elemctl apps apply crm-test BUILD_ID"},
		Help: "cli.help.apps-apply", Slow: true, Destructive: true,
		Args: []command.Argument{
			AppArg(false),
			{Name: "version-id", Help: "cli.arg.apply-version-id", Type: command.String, Positional: true, Required: true, Metavar: "VERSION_ID"},
		},
	}, runAppsApply)
}

func applyBuildTool() *command.Command {
	return command.Handle(&command.Command{
		Tool: "apply_build", ToolHelp: "mcp.help.apply-build", Destructive: true, Slow: true,
		ToolArgs: []command.Argument{
			{Name: "app_id", Help: "mcp.arg.apply-app-id", Type: command.String, Required: true},
			{Name: "version_id", Help: "mcp.arg.apply-version-id", Type: command.String, Required: true},
		},
	}, runApplyBuild)
}

// appsApplyInput are the arguments runAppsApply reads.
type appsApplyInput struct {
	AppID     string `arg:"app-id"`
	VersionID string `arg:"version-id"`
}

func runAppsApply(ctx context.Context, cc *command.Context, in appsApplyInput) (any, error) {
	app, version := in.AppID, in.VersionID
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

// applyBuildInput are the arguments runApplyBuild reads.
type applyBuildInput struct {
	AppID     string `arg:"app-id"`
	VersionID string `arg:"version-id"`
}

// runApplyBuild starts the apply and returns at once: the MCP tool leaves
// the wait to the caller (verify_deploy). The application id is used as
// given.
func runApplyBuild(ctx context.Context, cc *command.Context, in applyBuildInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	app, version := in.AppID, in.VersionID
	v, err := DeployOps(cc, cl).StartApply(ctx, app, version)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return jsonx.New("ok", true, "app-id", app, "version-id", version), nil
	}
	return v, nil
}
