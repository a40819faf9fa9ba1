package deploy

import (
	"context"

	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/ops/hint"
)

// The commands the operations suggest, as hints every face spells its own
// way (see Ops.Hint).

func (o *Ops) hint(ctx context.Context, c hint.Command) string { return o.Hint.Render(ctx, c) }

// verifyHint checks an apply's outcome later.
func verifyHint(appID, buildID string) hint.Command {
	return hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", appID), hint.Opt("version-id", buildID)}}
}

// applyHint applies a build and verifies it; a tool face starts the apply
// with apply_build and checks it with verify_deploy.
func applyHint(appID, buildID string) hint.Command {
	then := verifyHint(appID, buildID)
	return hint.Command{Path: []string{"apps", "apply"}, Args: []hint.Arg{hint.Pos("app-id", appID), hint.Pos("version-id", buildID)},
		Tool: "apply_build", Then: &then}
}

// probeCleanupHint removes what a probe left, by its application's id or
// name.
func probeCleanupHint(app string) hint.Command {
	return hint.Command{Path: []string{"probe"}, Args: []hint.Arg{hint.Opt("cleanup", app)}, Tool: "probe_cleanup"}
}

func deleteAppHint(appID string) hint.Command {
	return hint.Command{Path: []string{"apps", "delete"}, Args: []hint.Arg{hint.Pos("app-id", appID)}}
}

func deleteBuildHint(version, projectID string) hint.Command {
	return hint.Command{Path: []string{"builds", "delete"}, Args: []hint.Arg{hint.Pos("version", version), hint.Opt("project-id", projectID)}}
}

func deleteProjectHint(projectID string) hint.Command {
	return hint.Command{Path: []string{"projects", "delete"}, Args: []hint.Arg{hint.Pos("project-id", projectID)}}
}

// appHint shows an application's card.
func appHint(app string) hint.Command { return cards.AppHint(app) }
