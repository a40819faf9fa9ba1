package command

import (
	"context"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

func projectsListCommand() *Command {
	return &Command{
		Path: []string{"projects", "list"}, Tool: "list_projects",
		Help: "cli.help.projects-list", ToolHelp: "mcp.help.list-projects", ReadOnly: true, Idempotent: true,
		Args: []Argument{
			{Name: "name", Help: "cli.arg.projects-name", Type: String},
			{Name: "include-deleted", Help: "cli.arg.include-deleted", Type: Bool},
		},
		ToolArgs: []Argument{
			{Name: "name", Help: "mcp.arg.projects-name", Type: String, Default: ""},
			{Name: "include_deleted", Help: "mcp.arg.include-deleted", Type: Bool, Default: false},
			{Name: "brief", Help: "mcp.arg.brief", Type: Bool, Default: true},
		},
		Run: runProjectsList,
	}
}

func projectsGetCommand() *Command {
	return &Command{
		Path: []string{"projects", "get"},
		Help: "cli.help.projects-get", ReadOnly: true, Idempotent: true,
		Args: []Argument{{Name: "project-id", Help: "cli.arg.project-id-positional", Type: String, Positional: true, Metavar: "PROJECT_ID"}},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			id, err := ProjectID(ctx, cl, in.Str("project-id"), true)
			if err != nil {
				return nil, err
			}
			return GetProject(ctx, cl, id)
		},
	}
}

func projectsDeleteCommand() *Command {
	return &Command{
		Path: []string{"projects", "delete"},
		Help: "cli.help.projects-delete", Destructive: true,
		Args: []Argument{{Name: "project-id", Help: "cli.arg.project-id-delete", Type: String, Positional: true, Required: true, Metavar: "PROJECT_ID"}},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			id := in.Str("project-id")
			v, err := cl.Delete(ctx, "/projects/"+url.PathEscape(id))
			if err != nil {
				return nil, err
			}
			return orFallback(v, jsonx.New("deleted", true, "project-id", id)), nil
		},
	}
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

func runProjectsList(ctx context.Context, cc *Context, in Values) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	projects, err := cl.ListProjects(ctx)
	if err != nil {
		return nil, err
	}
	name := strings.ToLower(in.Str("name"))
	brief := in.Bool("brief")
	out := []any{}
	for _, p := range projects {
		if platform.IsDeletedProject(p) && !in.Bool("include-deleted") {
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
