package command

import (
	"context"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
)

func buildCommand() *Command {
	return &Command{
		Path: []string{"build"}, Help: "cli.help.build", Local: true, WritesFiles: true,
		Args: []Argument{
			{Name: "project-dir", Help: "cli.arg.project-dir", Type: String, Metavar: "DIR"},
			{Name: "output", Help: "cli.arg.build-output", Type: String, Metavar: "DIR"},
			{Name: "build-version", Help: "cli.arg.build-build-version", Type: String, Metavar: "VERSION"},
			{Name: "last-build", Help: "cli.arg.build-last-build", Type: String, Metavar: "VERSION"},
			{Name: "commit", Help: "cli.arg.commit", Type: String, Metavar: "COMMIT"},
			{Name: "branch", Help: "cli.arg.branch", Type: String, Metavar: "BRANCH"},
			// Not a closed choice: the Russian words are accepted too.
			{Name: "kind", Help: "cli.arg.build-kind", Type: String, Metavar: "{application,library,extension}"},
			{Name: "require-clean", Help: "cli.arg.require-clean", Type: Bool},
		},
		Run: runBuild,
	}
}

func buildAssemblyTool() *Command {
	return &Command{
		Tool: "build_assembly", ToolHelp: "mcp.help.build-assembly", Local: true, WritesFiles: true,
		ToolArgs: []Argument{
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: String, Default: ""},
			{Name: "output_dir", Key: "output", Help: "mcp.arg.build-output-dir", Type: String, Default: ""},
			{Name: "version", Key: "build-version", Help: "mcp.arg.build-version", Type: String, Default: ""},
		},
		Run: runBuildAssembly,
	}
}

func inspectCommand() *Command {
	return &Command{
		Path: []string{"inspect"}, Tool: "inspect_assembly",
		Help: "cli.help.inspect", ToolHelp: "mcp.help.inspect-assembly", Local: true, ReadOnly: true, Idempotent: true,
		Args: []Argument{
			{Name: "file", Help: "cli.arg.inspect-file", Type: String, Positional: true, Required: true, Metavar: "FILE"},
		},
		ToolArgs: []Argument{
			{Name: "file", Help: "mcp.arg.inspect-file", Type: String, Required: true},
		},
		Run: runInspect,
	}
}

// buildFromValues packs the project the way `build` does.
func buildFromValues(ctx context.Context, cc *Context, in Values) (*assembly.BuildResult, error) {
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
	if w := assembly.SkippedWarning(res.SkippedFiles); w != "" {
		cc.Log(w)
	}
	return res, nil
}

func runBuild(ctx context.Context, cc *Context, in Values) (any, error) {
	res, err := buildFromValues(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	return res.JSON(), nil
}

func runBuildAssembly(ctx context.Context, cc *Context, in Values) (any, error) {
	res, err := buildFromValues(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	return jsonx.New("file", res.File, "version", res.Version, "kind", res.Kind), nil
}

func runInspect(ctx context.Context, cc *Context, in Values) (any, error) {
	file := in.Str("file")
	out, err := assembly.Inspect(localPath(cc, file))
	if err != nil {
		return nil, err
	}
	// "file" is the path as the caller gave it.
	out.Set("file", file)
	return out, nil
}
