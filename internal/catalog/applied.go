package catalog

import (
	"context"
	"runtime"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// Registry is the local registry of uploads of a call's environment.
func Registry(cc *command.Context) *registry.Registry { return registry.New(cc.Env, runtime.GOOS) }

// AppliedBuild is the brief card of the build an application runs
// (source.project-version-id), looked up in its project's build list and
// completed from the local registry; when the list cannot be read, the
// registry alone answers. nil when the card names no build.
func AppliedBuild(ctx context.Context, cc *command.Context, cl *platform.Client, card *jsonx.Object) any {
	src := card.Obj("source")
	buildID := src.Str("project-version-id")
	if buildID == "" {
		return nil
	}
	reg := Registry(cc).ByAssembly()
	if project := platform.AppProjectID(card); project != "" {
		if builds, err := cl.ListBuilds(ctx, project); err == nil {
			if b := buildlist.Find(builds, buildID, ""); b != nil {
				return buildlist.Brief(b, reg)
			}
		}
	}
	stub := jsonx.New("id", buildID, "assembly-version", src.Value("project-version"), "project-version", src.Value("project-version"))
	return buildlist.Brief(stub, reg)
}
