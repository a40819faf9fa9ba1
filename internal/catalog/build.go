package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
)

func buildCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"build"}, Order: 6, Examples: []string{"elemctl build --project-dir src/Acme/CRM --output dist/", "elemctl build --kind library"}, Help: "cli.help.build", Local: true, WritesFiles: true,
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
	}, runBuild)
}

func buildAssemblyTool() *command.Command {
	return command.Handle(&command.Command{
		Tool: "build_assembly", ToolHelp: "mcp.help.build-assembly", Local: true, Slow: true, WritesFiles: true,
		ToolArgs: []command.Argument{
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: command.String, Default: ""},
			{Name: "output_dir", Key: "output", Help: "mcp.arg.build-output-dir", Type: command.String, Default: ""},
			{Name: "version", Key: "build-version", Help: "mcp.arg.build-version", Type: command.String, Default: ""},
		},
	}, runBuildAssembly)
}

func inspectCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"inspect"}, Order: 7, Examples: []string{"elemctl inspect \"dist/Acme CRM 1.0-12.xasm\""}, Tool: "inspect_assembly",
		Help: "cli.help.inspect", ToolHelp: "mcp.help.inspect-assembly", Local: true, ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "file", Help: "cli.arg.inspect-file", Type: command.String, Positional: true, Required: true, Metavar: "FILE"},
		},
		ToolArgs: []command.Argument{
			{Name: "file", Help: "mcp.arg.inspect-file", Type: command.String, Required: true},
		},
	}, runInspect)
}

// buildInput are the arguments of `build`.
type buildInput struct {
	ProjectDir   string `arg:"project-dir"`
	Output       string `arg:"output"`
	BuildVersion string `arg:"build-version"`
	LastBuild    string `arg:"last-build"`
	Kind         string `arg:"kind"`
	// Commit and Branch override the repository's even when given empty.
	Commit       *string `arg:"commit"`
	Branch       *string `arg:"branch"`
	RequireClean bool    `arg:"require-clean"`
}

// buildAssemblyInput are the arguments of the build_assembly tool.
type buildAssemblyInput struct {
	ProjectDir   string `arg:"project-dir"`
	Output       string `arg:"output"`
	BuildVersion string `arg:"build-version"`
}

// buildProject packs the project the way `build` does.
func buildProject(ctx context.Context, cc *command.Context, in buildInput) (*assembly.BuildResult, error) {
	if in.RequireClean {
		if err := requireClean(ctx, cc, in.ProjectDir); err != nil {
			return nil, err
		}
	}
	res, err := assembly.Build(ctx, assembly.BuildOptions{
		ProjectDir: localPath(cc, in.ProjectDir), OutputDir: localPath(cc, in.Output),
		Version: in.BuildVersion, LastBuild: in.LastBuild, Kind: in.Kind,
		Commit: in.Commit, Branch: in.Branch, Getenv: cc.Env,
	})
	if err != nil {
		return nil, err
	}
	if w := assembly.SkippedWarning(ctx, res.SkippedFiles); w != "" {
		cc.Log(w)
	}
	return res, nil
}

func runBuild(ctx context.Context, cc *command.Context, in buildInput) (any, error) {
	res, err := buildProject(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	return res.JSON(), nil
}

func runBuildAssembly(ctx context.Context, cc *command.Context, in buildAssemblyInput) (any, error) {
	res, err := buildProject(ctx, cc, buildInput{ProjectDir: in.ProjectDir, Output: in.Output, BuildVersion: in.BuildVersion})
	if err != nil {
		return nil, err
	}
	return jsonx.New("file", res.File, "version", res.Version, "kind", res.Kind), nil
}

// inspectInput are the arguments runInspect reads.
type inspectInput struct {
	File string `arg:"file"`
}

func runInspect(ctx context.Context, cc *command.Context, in inspectInput) (any, error) {
	file := in.File
	out, err := assembly.Inspect(ctx, localPath(cc, file), cc.Log)
	if err != nil {
		return nil, err
	}
	// "file" is the path as the caller gave it.
	out.Set("file", file)
	return out, nil
}
