package catalog

import (
	"context"
	"net/http"
	"net/url"
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
			{Name: "version", Help: "cli.arg.build-version-ref", Type: command.String, Positional: true, Required: true, Metavar: "VERSION", Complete: command.CompleteBuildVersions},
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
			{Name: "version", Help: "cli.arg.build-version-ref", Type: command.String, Positional: true, Required: true, Metavar: "VERSION", Complete: command.CompleteBuildVersions},
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

// isExtensionProject tells whether the project is an extension: its card
// says so, or its build cards do. A card that cannot be read counts as no
// extension (spec cli.md §2.16).
func isExtensionProject(card *jsonx.Object, builds []*jsonx.Object) bool {
	if strings.EqualFold(card.Str("project-kind"), "Extension") {
		return true
	}
	for _, c := range builds {
		if strings.EqualFold(c.Str("project-kind"), "Extension") {
			return true
		}
	}
	return false
}

// listBuildsWithCard reads the build list and the project card at once,
// so the answer costs one round trip; the card is nil when it could not
// be read.
func listBuildsWithCard(ctx context.Context, cl *platform.Client, project string) ([]*jsonx.Object, *jsonx.Object, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cardRead := make(chan *jsonx.Object, 1)
	go func() {
		card, err := cl.GetObject(ctx, "/projects/"+url.PathEscape(project))
		if err != nil {
			card = nil
		}
		cardRead <- card
	}()
	builds, err := cl.ListBuilds(ctx, project)
	if err != nil {
		// The card is of no use without the list: stop reading it.
		cancel()
		<-cardRead
		return nil, nil, err
	}
	return builds, <-cardRead, nil
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
	cards, projectCard, err := listBuildsWithCard(ctx, cl, project)
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
	summary := buildlist.Summary(ctx, cards, len(shown), isExtensionProject(projectCard, cards), project, entries)
	var notes []string
	if cut {
		notes = append(notes, buildlist.CutNote(ctx))
	}
	return listing{items: out, key: "builds", notes: append(notes, summary),
		counters: jsonx.New("total", len(cards), "shown", len(shown), "summary", summary)}, nil
}
