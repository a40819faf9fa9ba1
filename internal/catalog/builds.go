package catalog

import (
	"context"
	"net/http"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/cards"
	"github.com/elemctl/elemctl/internal/platform"
)

func buildsListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"builds", "list"}, Order: 1, Examples: []string{"elemctl builds list --brief", "elemctl builds list --project-id PROJECT_ID --limit 0"}, Tool: "list_builds",
		Help: "cli.help.builds-list", ToolHelp: "mcp.help.list-builds", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: command.String, Metavar: "PROJECT_ID"},
			// N <= 0 lifts the cut, as the reference's scripts pass it.
			{Name: "limit", Help: "cli.arg.builds-limit", Type: command.Int, Default: 10, Metavar: "N"},
			{Name: "brief", Help: "cli.arg.builds-brief", Type: command.Bool},
		},
		ToolArgs: []command.Argument{
			{Name: "project_id", Help: "mcp.arg.builds-project-id", Type: command.String, Required: true},
			{Name: "limit", Help: "mcp.arg.builds-limit", Type: command.Int, Default: 10},
			{Name: "brief", Help: "mcp.arg.brief", Type: command.Bool, Default: true},
		},
	}, runBuildsList)
}

// buildsGetInput are the arguments buildsGetCommand reads.
type buildsGetInput struct {
	Version   string `arg:"version"`
	ProjectID string `arg:"project-id"`
}

func buildsGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"builds", "get"}, Order: 2, Examples: []string{"elemctl builds get 1.0-12"}, Tool: "get_build",
		Help: "cli.help.builds-get", ToolHelp: "mcp.help.get-build", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "version", Help: "cli.arg.build-version-ref", Type: command.String, Positional: true, Required: true, Metavar: "VERSION"},
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: command.String, Metavar: "PROJECT_ID"},
		},
		ToolArgs: []command.Argument{
			{Name: "project_id", Help: "mcp.arg.builds-project-id", Type: command.String, Required: true},
			{Name: "version", Help: "mcp.arg.build-version-ref", Type: command.String, Required: true},
		},
	}, func(ctx context.Context, cc *command.Context, in buildsGetInput) (any, error) {
		cl, project, err := buildsProject(ctx, cc, in.ProjectID)
		if err != nil {
			return nil, err
		}
		return cards.AddressBuild(ctx, cl, http.MethodGet, project, in.Version)
	})
}

// buildsDeleteInput are the arguments buildsDeleteCommand reads.
type buildsDeleteInput struct {
	Version   string `arg:"version"`
	ProjectID string `arg:"project-id"`
}

func buildsDeleteCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"builds", "delete"}, Order: 4, Examples: []string{"elemctl builds delete 1.0-12 --project-id PROJECT_ID"},
		Help: "cli.help.builds-delete", Destructive: true,
		Args: []command.Argument{
			{Name: "version", Help: "cli.arg.build-version-ref", Type: command.String, Positional: true, Required: true, Metavar: "VERSION"},
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: command.String, Metavar: "PROJECT_ID"},
		},
	}, func(ctx context.Context, cc *command.Context, in buildsDeleteInput) (any, error) {
		cl, project, err := buildsProject(ctx, cc, in.ProjectID)
		if err != nil {
			return nil, err
		}
		v, err := cards.AddressBuild(ctx, cl, http.MethodDelete, project, in.Version)
		if err != nil {
			return nil, err
		}
		return orFallback(v, jsonx.New("deleted", true, "version", in.Version)), nil
	})
}

// buildsProject is the client and the project a builds command addresses
// (--project-id, else ELEMENT_PROJECT_ID).
func buildsProject(ctx context.Context, cc *command.Context, given string) (*platform.Client, string, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, "", err
	}
	project, err := ProjectID(ctx, cl, given, false)
	if err != nil {
		return nil, "", err
	}
	return cl, project, nil
}

// projectKind is the kind of project the build cards say they belong to
// (project-kind), "" when they do not say: builds list reads the list
// alone, as the reference does, with no second request for the project
// card.
func projectKind(cards []*jsonx.Object) string {
	for _, c := range cards {
		if k := c.Str("project-kind"); k != "" {
			return k
		}
	}
	return ""
}

// buildsListInput are the arguments runBuildsList reads.
type buildsListInput struct {
	ProjectID string `arg:"project-id"`
	Limit     int    `arg:"limit"`
	Brief     bool   `arg:"brief"`
}

func runBuildsList(ctx context.Context, cc *command.Context, in buildsListInput) (any, error) {
	cl, project, err := buildsProject(ctx, cc, in.ProjectID)
	if err != nil {
		return nil, err
	}
	cards, err := cl.ListBuilds(ctx, project)
	if err != nil {
		return nil, err
	}
	buildlist.Sort(cards)
	shown := cards
	limit := in.Limit
	cut := limit > 0 && len(cards) > limit
	if cut {
		shown = cards[:limit]
	}
	entries := Registry(cc).Read()
	out := make([]any, len(shown))
	if in.Brief {
		byID := entries.ByAssembly()
		for i, c := range shown {
			out[i] = buildlist.Brief(c, byID)
		}
	} else {
		for i, c := range shown {
			out[i] = c
		}
	}
	extension := strings.EqualFold(projectKind(cards), "Extension")
	summary := buildlist.Summary(ctx, cards, len(shown), extension, project, entries)
	var notes []string
	if cut {
		notes = append(notes, buildlist.CutNote(ctx))
	}
	return listing{items: out, key: "builds", notes: append(notes, summary),
		counters: jsonx.New("total", len(cards), "shown", len(shown), "summary", summary)}, nil
}
