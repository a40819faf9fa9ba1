package catalog

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/platform"
)

func probeCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"probe"}, Order: 10, Examples: []string{"elemctl probe --project-dir src/Acme/CRM", "elemctl probe --cleanup APP_ID"}, Tool: "probe", LSP: "probe",
		Help: "cli.help.probe", ToolHelp: "mcp.help.probe", Slow: true, WritesFiles: true, Lens: "lsp.lens-probe",
		Args: []command.Argument{
			{Name: "project-dir", Help: "cli.arg.project-dir", Type: command.String, Metavar: "DIR"},
			{Name: "output", Help: "cli.arg.probe-output", Type: command.String, Metavar: "DIR"},
			{Name: "build-version", Help: "cli.arg.probe-build-version", Type: command.String, Metavar: "VERSION"},
			{Name: "name", Help: "cli.arg.probe-name", Type: command.String, Metavar: "NAME"},
			{Name: "space-id", Help: "cli.arg.probe-space-id", Type: command.String, Metavar: "SPACE_ID"},
			{Name: "keep", Help: "cli.arg.probe-keep", Type: command.Bool},
			{Name: "require-clean", Help: "cli.arg.require-clean", Type: command.Bool},
			{Name: "cleanup", Help: "cli.arg.probe-cleanup", Type: command.String, Multiple: true, Metavar: "APP_ID"},
		},
		ToolArgs: []command.Argument{
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: command.String, Default: ""},
			{Name: "space_id", Help: "mcp.arg.probe-space-id", Type: command.String, Default: ""},
			{Name: "keep", Help: "mcp.arg.probe-keep", Type: command.Bool, Default: false},
		},
	}, runProbe)
}

func probeCleanupTool() *command.Command {
	return command.Handle(&command.Command{
		Tool: "probe_cleanup", ToolHelp: "mcp.help.probe-cleanup", Destructive: true, Slow: true,
		ToolArgs: []command.Argument{
			{Name: "app_id", Key: "cleanup", Help: "mcp.arg.probe-cleanup-app-id", Type: command.String, Required: true, OrList: true},
		},
	}, runProbeCleanup)
}

// probeInput are the arguments runProbe reads.
type probeInput struct {
	Cleanup      []string `arg:"cleanup"`
	RequireClean bool     `arg:"require-clean"`
	ProjectDir   string   `arg:"project-dir"`
	SpaceID      string   `arg:"space-id"`
	Output       string   `arg:"output"`
	BuildVersion string   `arg:"build-version"`
	Name         string   `arg:"name"`
	Keep         bool     `arg:"keep"`
}

func runProbe(ctx context.Context, cc *command.Context, in probeInput) (any, error) {
	if len(in.Cleanup) > 0 {
		// The cleanup mode refuses the flags of a run, so a mistyped
		// command never builds and cleans up at once.
		var given []string
		for _, f := range []struct {
			key string
			set bool
		}{
			{"project-dir", in.ProjectDir != ""}, {"output", in.Output != ""}, {"build-version", in.BuildVersion != ""},
			{"name", in.Name != ""}, {"space-id", in.SpaceID != ""}, {"keep", in.Keep}, {"require-clean", in.RequireClean},
		} {
			if f.set {
				given = append(given, cc.ArgName(f.key))
			}
		}
		if len(given) > 0 {
			return nil, platform.ConfigErrorf(ctx, "cli.probe-cleanup-run-flags", "flags", strings.Join(given, ", "))
		}
		return runProbeCleanup(ctx, cc, probeCleanupInput{Cleanup: in.Cleanup})
	}
	if in.RequireClean {
		if err := requireClean(ctx, cc, in.ProjectDir); err != nil {
			return nil, err
		}
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	// ELEMENT_APP_ID and ELEMENT_PROJECT_ID are never read for a run; the
	// space is.
	space := in.SpaceID
	if space == "" {
		space = cl.Config().SpaceID
	}
	output := in.Output
	if output != "" {
		output = localPath(cc, output)
	}
	r, err := DeployOps(cc, cl).Probe(ctx, deploy.ProbeOptions{
		ProjectDir: localPath(cc, in.ProjectDir), OutputDir: output, Version: in.BuildVersion,
		Name: in.Name, SpaceID: space, Keep: in.Keep,
	})
	if err != nil {
		return nil, err
	}
	return probed(ctx, r), nil
}

// probed is a probe's report with its headline; its compile errors, none
// included, replace what was shown for the project.
func probed(ctx context.Context, r *deploy.ProbeReport) reported {
	out := reported{report: r.JSON(),
		diagnostics: &command.Diagnostics{ProjectDir: r.ProjectDir, Vendor: r.Vendor, Name: r.Name, Errors: r.Errors}}
	switch {
	case r.OK:
		out.headline = i18n.T(ctx, "verdict.probe-ok", "project", r.Vendor+"/"+r.Name)
	case len(r.Errors) > 0:
		first := jsonx.Objects(out.report.Value("errors"))[0]
		out.headline, out.severity = i18n.T(ctx, "verdict.probe-errors", "count", len(r.Errors), "problem", command.CompileErrorLine(first)), command.Failure
	}
	return out
}

// probeCleanupInput are the arguments runProbeCleanup reads.
type probeCleanupInput struct {
	Cleanup []string `arg:"cleanup"`
}

// runProbeCleanup removes what earlier probes left: one application gives
// its report, several give {ok, cleanups} where a refusal stops none of
// the others.
func runProbeCleanup(ctx context.Context, cc *command.Context, in probeCleanupInput) (any, error) {
	var refs []string
	seen := map[string]bool{}
	for _, r := range in.Cleanup {
		if r = strings.TrimSpace(r); r != "" && !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil, platform.ConfigErrorf(ctx, "cli.probe-cleanup-empty")
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config()
	guard := deploy.CleanupGuard{AppID: cfg.AppID, ProjectID: cfg.ProjectID}
	ops := DeployOps(cc, cl)
	if len(refs) == 1 {
		r, err := ops.CleanupLeftover(ctx, refs[0], guard)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	all := true
	var reports []any
	for _, ref := range refs {
		r, err := ops.CleanupLeftover(ctx, ref, guard)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			cc.Log(i18n.T(ctx, "probe.cleanup-not-removed", "app", ref, "error", err))
			item := jsonx.New("ok", false, "app-id", ref)
			eo := platform.ErrorObject(err)
			for _, k := range eo.Keys() {
				item.Set(k, eo.Value(k))
			}
			r = item
		}
		if ok, _ := r.Value("ok").(bool); !ok {
			all = false
		}
		reports = append(reports, r)
	}
	return jsonx.New("ok", all, "cleanups", reports), nil
}
