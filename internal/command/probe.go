package command

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/platform"
)

func probeCommand() *Command {
	return &Command{
		Path: []string{"probe"}, Tool: "probe", LSP: "probe",
		Help: "cli.help.probe", ToolHelp: "mcp.help.probe", Slow: true, WritesFiles: true,
		Args: []Argument{
			{Name: "project-dir", Help: "cli.arg.project-dir", Type: String, Metavar: "DIR"},
			{Name: "output", Help: "cli.arg.probe-output", Type: String, Metavar: "DIR"},
			{Name: "build-version", Help: "cli.arg.probe-build-version", Type: String, Metavar: "VERSION"},
			{Name: "name", Help: "cli.arg.probe-name", Type: String, Metavar: "NAME"},
			{Name: "space-id", Help: "cli.arg.probe-space-id", Type: String, Metavar: "SPACE_ID"},
			{Name: "keep", Help: "cli.arg.probe-keep", Type: Bool},
			{Name: "require-clean", Help: "cli.arg.require-clean", Type: Bool},
			{Name: "cleanup", Help: "cli.arg.probe-cleanup", Type: String, Multiple: true, Metavar: "APP_ID"},
		},
		ToolArgs: []Argument{
			{Name: "project_dir", Help: "mcp.arg.project-dir", Type: String, Default: ""},
			{Name: "space_id", Help: "mcp.arg.probe-space-id", Type: String, Default: ""},
			{Name: "keep", Help: "mcp.arg.probe-keep", Type: Bool, Default: false},
		},
		Run: runProbe,
	}
}

func probeCleanupTool() *Command {
	return &Command{
		Tool: "probe_cleanup", ToolHelp: "mcp.help.probe-cleanup", Destructive: true, Slow: true,
		ToolArgs: []Argument{
			{Name: "app_id", Key: "cleanup", Help: "mcp.arg.probe-cleanup-app-id", Type: String, Required: true, OrList: true},
		},
		Run: runProbeCleanup,
	}
}

// probeRunFlags are the flags of a probe run; the cleanup mode refuses
// them, so a mistyped command never builds and cleans up at once.
var probeRunFlags = []string{"project-dir", "output", "build-version", "name", "space-id", "keep", "require-clean"}

func runProbe(ctx context.Context, cc *Context, in Values) (any, error) {
	if len(in.Strings("cleanup")) > 0 {
		var given []string
		for _, f := range probeRunFlags {
			if in.Given(f) && (in.Bool(f) || in.Str(f) != "" && in.Str(f) != "false") {
				given = append(given, "--"+f)
			}
		}
		if len(given) > 0 {
			return nil, platform.ConfigErrorf("cli.probe-cleanup-run-flags", "flags", strings.Join(given, ", "))
		}
		return runProbeCleanup(ctx, cc, in)
	}
	if in.Bool("require-clean") {
		if err := requireClean(ctx, cc, in.Str("project-dir")); err != nil {
			return nil, err
		}
	}
	cl, err := cc.Client()
	if err != nil {
		return nil, err
	}
	// ELEMENT_APP_ID and ELEMENT_PROJECT_ID are never read for a run; the
	// space is.
	space := in.Str("space-id")
	if space == "" {
		space = cl.Config().SpaceID
	}
	output := in.Str("output")
	if output != "" {
		output = localPath(cc, output)
	}
	r, err := DeployOps(cc, cl).Probe(ctx, deploy.ProbeOptions{
		ProjectDir: localPath(cc, in.Str("project-dir")), OutputDir: output, Version: in.Str("build-version"),
		Name: in.Str("name"), SpaceID: space, Keep: in.Bool("keep"),
	})
	if err != nil {
		return nil, err
	}
	return r.JSON(), nil
}

// runProbeCleanup removes what earlier probes left: one application gives
// its report, several give {ok, cleanups} where a refusal stops none of
// the others.
func runProbeCleanup(ctx context.Context, cc *Context, in Values) (any, error) {
	var refs []string
	seen := map[string]bool{}
	for _, r := range in.Strings("cleanup") {
		if r = strings.TrimSpace(r); r != "" && !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil, platform.ConfigErrorf("cli.probe-cleanup-empty")
	}
	cl, err := cc.Client()
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
			cc.Log(i18n.T("probe.cleanup-not-removed", "app", ref, "error", err))
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
