package command

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/platform"
	"github.com/elemctl/elemctl/platform/deploy"
)

func init() {
	core.Add(
		&Command{
			Path: []string{"apps", "apply"},
			Help: "cli.help.apps-apply", Slow: true,
			Args: []Argument{
				// [APP_ID] VERSION_ID: the application is optional in front of
				// the required build, so both arrive as one list and the
				// handler tells them apart by count.
				{Name: "ids", Help: "cli.arg.apply-ids", Type: String, Positional: true, Multiple: true, Required: true, Metavar: "[APP_ID] VERSION_ID"},
				{Name: "app-id", Help: "cli.arg.app-id", Type: String, Metavar: "APP_ID"},
			},
			Run: runAppsApply,
		},
		&Command{
			Tool: "apply_build", ToolHelp: "mcp.help.apply-build",
			ToolArgs: []Argument{
				{Name: "app_id", Help: "mcp.arg.apply-app-id", Type: String, Required: true},
				{Name: "version_id", Help: "mcp.arg.apply-version-id", Type: String, Required: true},
			},
			Run: runApplyBuild,
		},
	)
}

func runAppsApply(ctx context.Context, cc *Context, in Values) (any, error) {
	ids := in.Strings("ids")
	flagApp := strings.TrimSpace(in.Str("app-id"))
	var app, version string
	switch len(ids) {
	case 1:
		version = ids[0]
		app = flagApp
	case 2:
		app, version = ids[0], ids[1]
		if flagApp != "" && flagApp != app {
			return nil, platform.ConfigErrorf("cli.given-twice", "a", app, "b", flagApp, "flag", "--app-id")
		}
	default:
		return nil, platform.ConfigErrorf("cli.apply-ids")
	}
	cl, err := cc.Client()
	if err != nil {
		return nil, err
	}
	id, err := AppID(ctx, cc, cl, app, true)
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
	v, err := DeployOps(cc, cl).Apply(ctx, app, deploy.BuildSource(version))
	if err != nil {
		return nil, err
	}
	if v == nil {
		return jsonx.New("ok", true, "app-id", app, "version-id", version), nil
	}
	return v, nil
}
