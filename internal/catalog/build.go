package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
)

func buildCommand() *command.Command {
	return &command.Command{
		Path: []string{"build"}, Order: 6, Examples: []string{"elemctl build --project-dir src/Acme/CRM --output dist/", "elemctl build --kind library"}, Help: "cli.help.build", Local: true,
		Args: []command.Argument{
			{Name: "project-dir", Help: "cli.arg.project-dir", Type: command.String, Metavar: "DIR"},
			{Name: "output", Help: "cli.arg.build-output", Type: command.String, Metavar: "DIR"},
			{Name: "build-version", Help: "cli.arg.build-build-version", Type: command.String, Metavar: "VERSION"},
			{Name: "last-build", Help: "cli.arg.build-last-build", Type: command.String, Metavar: "VERSION"},
			{Name: "commit", Help: "cli.arg.commit", Type: command.String, Metavar: "COMMIT"},
			{Name: "branch", Help: "cli.arg.branch", Type: command.String, Metavar: "BRANCH"},
			// Not a closed choice: the Russian words are accepted too.
			{Name: "kind", Help: "cli.arg.build-kind", Type: command.String, Metavar: "{application,library,extension}"},
			{Name: "require-clean", Help: "cli.arg.require-clean", Type: command.Bool},
		},
		Run: runBuild,
	}
}

func buildAssemblyTool() *command.Command {
	return &command.Command{
		Tool: "build_assembly", ToolHelp: "mcp.help.build-assembly", Local: true, Slow: true,
		ToolArgs: []command.Argument{
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: command.String, Default: ""},
			{Name: "output_dir", Key: "output", Help: "mcp.arg.build-output-dir", Type: command.String, Default: ""},
			{Name: "version", Key: "build-version", Help: "mcp.arg.build-version", Type: command.String, Default: ""},
		},
		Run: runBuildAssembly,
	}
}

func inspectCommand() *command.Command {
	return &command.Command{
		Path: []string{"inspect"}, Order: 7, Examples: []string{"elemctl inspect \"dist/Acme CRM 1.0-12.xasm\""}, Tool: "inspect_assembly",
		Help: "cli.help.inspect", ToolHelp: "mcp.help.inspect-assembly", Local: true, ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "file", Help: "cli.arg.inspect-file", Type: command.String, Positional: true, Required: true, Metavar: "FILE"},
		},
		ToolArgs: []command.Argument{
			{Name: "file", Help: "mcp.arg.inspect-file", Type: command.String, Required: true},
		},
		Run: runInspect,
	}
}

// buildFromValues packs the project the way `build` does.
func buildFromValues(ctx context.Context, cc *command.Context, in command.Values) (*assembly.BuildResult, error) {
	if in.Bool("require-clean") {
		if err := requireClean(ctx, cc, in.Str("project-dir")); err != nil {
			return nil, err
		}
	}
	res, err := assembly.Build(ctx, assembly.BuildOptions{
		ProjectDir: localPath(cc, in.Str("project-dir")), OutputDir: localPath(cc, in.Str("output")),
		Version: in.Str("build-version"), LastBuild: in.Str("last-build"), Kind: in.Str("kind"),
		Commit: optionalString(in, "commit"), Branch: optionalString(in, "branch"), Getenv: cc.Env,
	})
	if err != nil {
		return nil, err
	}
	if w := assembly.SkippedWarning(ctx, res.SkippedFiles); w != "" {
		cc.Log(w)
	}
	return res, nil
}

func runBuild(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
	res, err := buildFromValues(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	return res.JSON(), nil
}

func runBuildAssembly(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
	res, err := buildFromValues(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	return jsonx.New("file", res.File, "version", res.Version, "kind", res.Kind), nil
}

func runInspect(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
	file := in.Str("file")
	out, err := assembly.Inspect(ctx, localPath(cc, file))
	if err != nil {
		return nil, err
	}
	// "file" is the path as the caller gave it.
	out.Set("file", file)
	return out, nil
}
