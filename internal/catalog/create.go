package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/platform"
)

// createArgs are the command-line arguments apps create and apps ensure
// share.
func createArgs() []command.Argument {
	return []command.Argument{
		{Name: "name", Help: "cli.arg.create-name", Type: command.String, Positional: true, Required: true, Metavar: "NAME"},
		{Name: "project-id", Help: "cli.arg.create-project-id", Type: command.String, Metavar: "PROJECT_ID"},
		{Name: "version-id", Help: "cli.arg.create-version-id", Type: command.String, Metavar: "VERSION_ID"},
		{Name: "latest-build", Help: "cli.arg.create-latest-build", Type: command.Bool},
		{Name: "space-id", Help: "cli.arg.create-space-id", Type: command.String, Metavar: "SPACE_ID"},
		{Name: "tech-version", Help: "cli.arg.create-tech-version", Type: command.String, Metavar: "VERSION"},
		{Name: "no-dev-mode", Help: "cli.arg.create-no-dev-mode", Type: command.Bool},
		{Name: "wait", Help: "cli.arg.create-wait", Type: command.Bool},
		{Name: "verify", Help: "cli.arg.create-verify", Type: command.Bool},
		{Name: "no-verify", Help: "cli.arg.create-no-verify", Type: command.Bool},
	}
}

// createToolArgs are the tool parameters of create_app and ensure_app. A
// tool creates from the project's newest build unless a build is named:
// latest-build is fixed on.
func createToolArgs() []command.Argument {
	return []command.Argument{
		{Name: "name", Help: "mcp.arg.create-name", Type: command.String, Required: true},
		{Name: "project_id", Help: "mcp.arg.create-project-id", Type: command.String, Default: ""},
		{Name: "version_id", Help: "mcp.arg.create-version-id", Type: command.String, Default: ""},
		{Name: "space_id", Help: "mcp.arg.create-space-id", Type: command.String, Default: ""},
		{Name: "development_mode", Help: "mcp.arg.create-development-mode", Type: command.Bool, Default: true},
		{Name: "verify", Help: "mcp.arg.create-verify", Type: command.Bool, Default: false},
		{Key: "latest-build", Type: command.Bool, Default: true, Fixed: true},
	}
}

func appsCreateCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "create"}, Order: 4, Examples: []string{"elemctl apps create crm-test --project-id PROJECT_ID --latest-build --verify"}, Tool: "create_app",
		Help: "cli.help.apps-create", ToolHelp: "mcp.help.create-app", Slow: true,
		Args:     createArgs(),
		ToolArgs: createToolArgs(),
	}, runAppsCreate)
}

func appsEnsureCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "ensure"}, Order: 5, Examples: []string{"elemctl apps ensure crm-test --version-id BUILD_ID --apply"}, Tool: "ensure_app",
		Help: "cli.help.apps-ensure", ToolHelp: "mcp.help.ensure-app", Slow: true, Idempotent: true,
		Args:     append(createArgs(), command.Argument{Name: "apply", Help: "cli.arg.ensure-apply", Type: command.Bool}),
		ToolArgs: createToolArgs(),
	}, runAppsEnsure)
}

// createInput are the arguments apps create (create_app) reads.
type createInput struct {
	Name            string `arg:"name"`
	ProjectID       string `arg:"project-id"`
	VersionID       string `arg:"version-id"`
	SpaceID         string `arg:"space-id"`
	TechVersion     string `arg:"tech-version"`
	NoDevMode       bool   `arg:"no-dev-mode"`
	DevelopmentMode *bool  `arg:"development-mode"`
	LatestBuild     bool   `arg:"latest-build"`
	// LatestBuildGiven: the caller asked for the newest build (a tool has
	// it fixed on).
	LatestBuildGiven bool `arg:"latest-build,given"`
	Wait             bool `arg:"wait"`
	Verify           bool `arg:"verify"`
	NoVerify         bool `arg:"no-verify"`
}

// ensureInput are the arguments apps ensure (ensure_app) reads.
type ensureInput struct {
	createInput
	Apply bool `arg:"apply"`
}

// createOptions reads the inputs of create/ensure. The development mode is
// --no-dev-mode's opposite, or a tool's development_mode; a tool starts
// from the newest build unless a build is named (its latest-build is fixed
// on), and without a project it is told what it may pass instead.
func createOptions(ctx context.Context, cc *command.Context, in createInput, projectEnv, spaceEnv string) deploy.CreateOptions {
	o := deploy.CreateOptions{
		Name: in.Name, ProjectID: in.ProjectID, VersionID: in.VersionID,
		SpaceID: in.SpaceID, TechVersion: in.TechVersion,
	}
	if o.ProjectID == "" && projectEnv != "" {
		o.ProjectID, o.ProjectFromEnv = projectEnv, true
	}
	if o.SpaceID == "" {
		o.SpaceID = spaceEnv
	}
	o.DevMode = !in.NoDevMode
	if in.DevelopmentMode != nil {
		o.DevMode = *in.DevelopmentMode
	}
	o.LatestBuild = in.LatestBuild
	if o.LatestBuild && !in.LatestBuildGiven {
		o.NoSource = platform.ConfigErrorf(ctx, "cli.create-needs-source", "version", cc.ArgName("version-id"), "project", cc.ArgName("project-id"))
	}
	o.Wait, o.Verify, o.NoVerify = in.Wait, in.Verify, in.NoVerify
	return o
}

func runAppsCreate(ctx context.Context, cc *command.Context, in createInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	opts := createOptions(ctx, cc, in, cfg.ProjectID, cfg.SpaceID)
	ops := DeployOps(cc, cl)
	src, err := ops.SelectSource(ctx, opts)
	if err != nil {
		return nil, err
	}
	created, err := ops.Create(ctx, opts, src)
	if err != nil {
		return nil, err
	}
	answer, failed := ops.CreateAnswer(ctx, created)
	return Outcome{Value: answer, Failed: failed}, nil
}

func runAppsEnsure(ctx context.Context, cc *command.Context, in ensureInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	opts := createOptions(ctx, cc, in.createInput, cfg.ProjectID, cfg.SpaceID)
	opts.Apply = in.Apply
	answer, failed, err := DeployOps(cc, cl).Ensure(ctx, opts)
	if err != nil {
		return nil, err
	}
	return Outcome{Value: answer, Failed: failed}, nil
}
