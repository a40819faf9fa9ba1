package catalog

import (
	"context"
	"net/url"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// branchesListInput are the arguments branchesListCommand reads.
type branchesListInput struct {
	ProjectID string `arg:"project-id"`
	Name      string `arg:"name"`
}

func branchesListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"branches", "list"}, Order: 1, Examples: []string{"elemctl branches list --project-id PROJECT_ID"}, Tool: "list_branches",
		Help: "cli.help.branches-list", ToolHelp: "mcp.help.list-branches", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "project-id", Help: "cli.arg.branches-project-id", Type: command.String, Metavar: "PROJECT_ID"},
			{Name: "name", Help: "cli.arg.branches-name", Type: command.String},
		},
		ToolArgs: []command.Argument{
			{Name: "project_id", Help: "mcp.arg.branches-project-id", Type: command.String, Default: ""},
			{Name: "name", Help: "mcp.arg.branches-name", Type: command.String, Default: ""},
		},
	}, func(ctx context.Context, cc *command.Context, in branchesListInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		q := url.Values{"project-id": {in.ProjectID}, "name": {in.Name}}
		branches, err := cl.List(ctx, platform.Request{Path: "/branches", Query: q}, "branches")
		if err != nil {
			return nil, err
		}
		return objectsToAny(branches), nil
	})
}

// branchesGetInput are the arguments branchesGetCommand reads.
type branchesGetInput struct {
	BranchID string `arg:"branch-id"`
}

func branchesGetCommand() *command.Command {
	branchID := command.Argument{Name: "branch-id", Help: "cli.arg.branch-id", Type: command.String, Positional: true, Required: true, Metavar: "ID"}
	return command.Handle(&command.Command{
		Path: []string{"branches", "get"}, Order: 2, Examples: []string{"elemctl branches get BRANCH_ID"},
		Help: "cli.help.branches-get", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{branchID},
	}, func(ctx context.Context, cc *command.Context, in branchesGetInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		return cl.Get(ctx, branchPath(in.BranchID), nil)
	})
}

func branchesCreateCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"branches", "create"}, Order: 3, Examples: []string{"elemctl branches create feature-x --project-id PROJECT_ID --app-id crm-dev"},
		Help: "cli.help.branches-create",
		Args: []command.Argument{
			{Name: "name", Help: "cli.arg.branch-name", Type: command.String, Positional: true, Required: true, Metavar: "NAME"},
			{Name: "project-id", Help: "cli.arg.branch-project-id", Type: command.String, Metavar: "PROJECT_ID"},
			{Name: "app-id", Help: "cli.arg.branch-app-id", Type: command.String, Metavar: "APP_ID"},
		},
	}, runBranchesCreate)
}

// branchesUpdateInput are the arguments branchesUpdateCommand reads.
type branchesUpdateInput struct {
	BranchID string `arg:"branch-id"`
	AppID    string `arg:"app-id"`
}

func branchesUpdateCommand() *command.Command {
	branchID := command.Argument{Name: "branch-id", Help: "cli.arg.branch-id", Type: command.String, Positional: true, Required: true, Metavar: "ID"}
	return command.Handle(&command.Command{
		Path: []string{"branches", "update"}, Order: 4, Examples: []string{"elemctl branches update BRANCH_ID --app-id crm-dev"},
		Help: "cli.help.branches-update",
		Args: []command.Argument{branchID, {Name: "app-id", Help: "cli.arg.branch-rebind-app-id", Type: command.String, Metavar: "APP_ID"}},
	}, func(ctx context.Context, cc *command.Context, in branchesUpdateInput) (any, error) {
		return writeBranch(ctx, cc, in.BranchID, in.AppID, false)
	})
}

// branchesDeleteInput are the arguments branchesDeleteCommand reads.
type branchesDeleteInput struct {
	BranchID string `arg:"branch-id"`
}

func branchesDeleteCommand() *command.Command {
	branchID := command.Argument{Name: "branch-id", Help: "cli.arg.branch-id", Type: command.String, Positional: true, Required: true, Metavar: "ID"}
	return command.Handle(&command.Command{
		Path: []string{"branches", "delete"}, Order: 5, Examples: []string{"elemctl branches delete BRANCH_ID"},
		Help: "cli.help.branches-delete", Destructive: true,
		Args: []command.Argument{branchID},
	}, func(ctx context.Context, cc *command.Context, in branchesDeleteInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		id := in.BranchID
		v, err := cl.Delete(ctx, branchPath(id))
		if err != nil {
			return nil, err
		}
		return orFallback(v, jsonx.New("deleted", true, "branch-id", id)), nil
	})
}

// branchesMergeInput are the arguments branchesMergeCommand reads.
type branchesMergeInput struct {
	BranchID string `arg:"branch-id"`
}

func branchesMergeCommand() *command.Command {
	branchID := command.Argument{Name: "branch-id", Help: "cli.arg.branch-id", Type: command.String, Positional: true, Required: true, Metavar: "ID"}
	return command.Handle(&command.Command{
		Path: []string{"branches", "merge"}, Order: 6, Examples: []string{"elemctl branches merge BRANCH_ID"}, Tool: "merge_branch",
		Help: "cli.help.branches-merge", ToolHelp: "mcp.help.merge-branch", Slow: true,
		Args:     []command.Argument{branchID},
		ToolArgs: []command.Argument{{Name: "branch_id", Help: "mcp.arg.branch-id", Type: command.String, Required: true}},
	}, func(ctx context.Context, cc *command.Context, in branchesMergeInput) (any, error) {
		return writeBranch(ctx, cc, in.BranchID, "", true)
	})
}

func branchPath(id string) string { return "/branches/" + url.PathEscape(id) }

// branchesCreateInput are the arguments runBranchesCreate reads.
type branchesCreateInput struct {
	ProjectID string `arg:"project-id"`
	Name      string `arg:"name"`
	AppID     string `arg:"app-id"`
}

func runBranchesCreate(ctx context.Context, cc *command.Context, in branchesCreateInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	project, err := ProjectID(ctx, cl, in.ProjectID, false)
	if err != nil {
		return nil, err
	}
	body := jsonx.New("name", in.Name, "kind", "development", "project", jsonx.New("id", project))
	if ref := in.AppID; ref != "" {
		app, err := cl.ResolveApp(ctx, ref)
		if err != nil {
			return nil, err
		}
		body.Set("application", jsonx.New("id", app))
	}
	return cl.Post(ctx, "/branches", body)
}

// writeBranch rewrites a branch card: update (optionally binding it to
// another application) or merge ("accept the branch's changes"). The
// card's version-stamp goes back verbatim, so a branch changed by someone
// else since the read is refused by the platform instead of overwritten.
func writeBranch(ctx context.Context, cc *command.Context, id, appRef string, merge bool) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	card, err := cl.GetObject(ctx, branchPath(id))
	if err != nil {
		return nil, err
	}
	deletionMark := card.Value("deletion-mark")
	if deletionMark == nil {
		deletionMark = false
	}
	body := jsonx.New("name", card.Value("name"), "kind", card.Value("kind"), "deletion-mark", deletionMark,
		"version-stamp", card.Value("version-stamp"))
	if ref := collapseRef(card.Obj("source-branch")); ref != nil {
		body.Set("source-branch", ref)
	}
	if appRef != "" {
		app, err := cl.ResolveApp(ctx, appRef)
		if err != nil {
			return nil, err
		}
		body.Set("application", jsonx.New("id", app))
	} else if ref := collapseRef(card.Obj("application")); ref != nil {
		body.Set("application", ref)
	}
	if merge {
		body.Set("write-parameters", jsonx.New("merge", true))
	}
	v, err := cl.Put(ctx, branchPath(id), body)
	if err != nil {
		return nil, err
	}
	if merge {
		return orFallback(v, jsonx.New("merged", true, "branch-id", id)), nil
	}
	return orFallback(v, jsonx.New("updated", true, "branch-id", id)), nil
}

// collapseRef reduces a reference object to {"id"}, or {"name"} when it
// has no id; nil when it names nothing.
func collapseRef(ref *jsonx.Object) *jsonx.Object {
	if id := ref.Value("id"); id != nil && id != "" {
		return jsonx.New("id", id)
	}
	if name := ref.Value("name"); name != nil && name != "" {
		return jsonx.New("name", name)
	}
	return nil
}
