package catalog

import (
	"context"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

func projectsListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"projects", "list"}, Order: 1, Examples: []string{"elemctl projects list --name crm"}, Tool: "list_projects",
		Help: "cli.help.projects-list", ToolHelp: "mcp.help.list-projects", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "name", Help: "cli.arg.projects-name", Type: command.String},
			{Name: "include-deleted", Help: "cli.arg.include-deleted", Type: command.Bool},
		},
		ToolArgs: []command.Argument{
			{Name: "name", Help: "mcp.arg.projects-name", Type: command.String, Default: ""},
			{Name: "include_deleted", Help: "mcp.arg.include-deleted", Type: command.Bool, Default: false},
			{Name: "brief", Help: "mcp.arg.brief", Type: command.Bool, Default: true},
		},
	}, runProjectsList)
}

// projectsGetInput are the arguments projectsGetCommand reads.
type projectsGetInput struct {
	ProjectID string `arg:"project-id"`
}

func projectsGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"projects", "get"}, Order: 2, Examples: []string{"elemctl projects get PROJECT_ID"},
		Help: "cli.help.projects-get", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{{Name: "project-id", Help: "cli.arg.project-id-positional", Type: command.String, Positional: true, Metavar: "PROJECT_ID"}},
	}, func(ctx context.Context, cc *command.Context, in projectsGetInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		id, err := ProjectID(ctx, cl, in.ProjectID, true)
		if err != nil {
			return nil, err
		}
		return GetProject(ctx, cl, id)
	})
}

// projectsDeleteInput are the arguments projectsDeleteCommand reads.
type projectsDeleteInput struct {
	ProjectID string `arg:"project-id"`
}

func projectsDeleteCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"projects", "delete"}, Order: 3, Examples: []string{"elemctl projects delete PROJECT_ID"},
		Help: "cli.help.projects-delete", Destructive: true,
		Args: []command.Argument{{Name: "project-id", Help: "cli.arg.project-id-delete", Type: command.String, Positional: true, Required: true, Metavar: "PROJECT_ID"}},
	}, func(ctx context.Context, cc *command.Context, in projectsDeleteInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		id := in.ProjectID
		v, err := cl.Delete(ctx, "/projects/"+url.PathEscape(id))
		if err != nil {
			return nil, err
		}
		return orFallback(v, jsonx.New("deleted", true, "project-id", id)), nil
	})
}

// GetProject reads a project card.
func GetProject(ctx context.Context, cl *platform.Client, id string) (*jsonx.Object, error) {
	return cl.GetObject(ctx, "/projects/"+url.PathEscape(id))
}

// BriefProject is the short project card of MCP listings.
func BriefProject(card *jsonx.Object) *jsonx.Object {
	return jsonx.New("id", card.Value("id"), "name", card.Value("name"), "project-kind", card.Value("project-kind"),
		"space-id", card.Value("space-id"), "application-count", card.Value("application-count"), "deleted", card.Value("deleted"))
}

// projectsListInput are the arguments runProjectsList reads.
type projectsListInput struct {
	Name           string `arg:"name"`
	Brief          bool   `arg:"brief"`
	IncludeDeleted bool   `arg:"include-deleted"`
}

func runProjectsList(ctx context.Context, cc *command.Context, in projectsListInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	projects, err := cl.ListProjects(ctx)
	if err != nil {
		return nil, err
	}
	name := strings.ToLower(in.Name)
	brief := in.Brief
	out := []any{}
	for _, p := range projects {
		if platform.IsDeletedProject(p) && !in.IncludeDeleted {
			continue
		}
		if name != "" && !anyContains(p, name, "name", "presentation") {
			continue
		}
		if brief {
			out = append(out, BriefProject(p))
		} else {
			out = append(out, p)
		}
	}
	return out, nil
}
