package command

import (
	"context"
	"net/http"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/platform"
)

func buildsListCommand() *Command {
	return &Command{
		Path: []string{"builds", "list"}, Tool: "list_builds",
		Help: "cli.help.builds-list", ToolHelp: "mcp.help.list-builds", ReadOnly: true, Idempotent: true,
		Args: []Argument{
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: String, Metavar: "PROJECT_ID"},
			{Name: "limit", Help: "cli.arg.builds-limit", Type: Int, Default: 10, Metavar: "N", Bound: NonNegative},
			{Name: "brief", Help: "cli.arg.builds-brief", Type: Bool},
		},
		ToolArgs: []Argument{
			{Name: "project_id", Help: "mcp.arg.builds-project-id", Type: String, Required: true},
			{Name: "limit", Help: "mcp.arg.builds-limit", Type: Int, Default: 10, Bound: NonNegative},
			{Name: "brief", Help: "mcp.arg.brief", Type: Bool, Default: true},
		},
		Run: runBuildsList,
	}
}

func buildsGetCommand() *Command {
	return &Command{
		Path: []string{"builds", "get"}, Tool: "get_build",
		Help: "cli.help.builds-get", ToolHelp: "mcp.help.get-build", ReadOnly: true, Idempotent: true,
		Args: []Argument{
			{Name: "version", Help: "cli.arg.build-version-ref", Type: String, Positional: true, Required: true, Metavar: "VERSION"},
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: String, Metavar: "PROJECT_ID"},
		},
		ToolArgs: []Argument{
			{Name: "project_id", Help: "mcp.arg.builds-project-id", Type: String, Required: true},
			{Name: "version", Help: "mcp.arg.build-version-ref", Type: String, Required: true},
		},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, project, err := buildsProject(ctx, cc, in)
			if err != nil {
				return nil, err
			}
			return AddressBuild(ctx, cl, http.MethodGet, project, in.Str("version"))
		},
	}
}

func buildsDeleteCommand() *Command {
	return &Command{
		Path: []string{"builds", "delete"},
		Help: "cli.help.builds-delete", Destructive: true,
		Args: []Argument{
			{Name: "version", Help: "cli.arg.build-version-ref", Type: String, Positional: true, Required: true, Metavar: "VERSION"},
			{Name: "project-id", Help: "cli.arg.builds-project-id", Type: String, Metavar: "PROJECT_ID"},
		},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, project, err := buildsProject(ctx, cc, in)
			if err != nil {
				return nil, err
			}
			v, err := AddressBuild(ctx, cl, http.MethodDelete, project, in.Str("version"))
			if err != nil {
				return nil, err
			}
			return orFallback(v, jsonx.New("deleted", true, "version", in.Str("version"))), nil
		},
	}
}

// buildsProject is the client and the project a builds command addresses
// (--project-id, else ELEMENT_PROJECT_ID).
func buildsProject(ctx context.Context, cc *Context, in Values) (*platform.Client, string, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, "", err
	}
	project, err := ProjectID(ctx, cl, in.Str("project-id"), false)
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

func runBuildsList(ctx context.Context, cc *Context, in Values) (any, error) {
	cl, project, err := buildsProject(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	cards, err := cl.ListBuilds(ctx, project)
	if err != nil {
		return nil, err
	}
	buildlist.Sort(cards)
	shown := cards
	limit := in.Int("limit")
	cut := limit > 0 && len(cards) > limit
	if cut {
		shown = cards[:limit]
	}
	entries := Registry(cc).Read()
	out := make([]any, len(shown))
	if in.Bool("brief") {
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

// FindBuild is the card of a project's build list that ref names by
// version (assembly-version or project-version) or by id; nil if none.
func FindBuild(cards []*jsonx.Object, ref string) *jsonx.Object {
	for _, c := range cards {
		if ref == "" {
			break
		}
		if c.Str("assembly-version") == ref || c.Str("project-version") == ref {
			return c
		}
		for _, k := range []string{"id", "image-id", "assembly-id"} {
			if c.Str(k) == ref {
				return c
			}
		}
	}
	return nil
}

// buildSegments are the spellings a build card may be addressed by, in
// the order they are tried: the version first (what the console
// expects), then the id (what older documentation claimed).
func buildSegments(card *jsonx.Object) []string {
	var out []string
	for _, s := range []string{card.Str("assembly-version"), card.Str("project-version"), buildlist.ID(card)} {
		if s != "" && !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// AddressBuild sends method (GET or DELETE) to the card of the build ref
// names (a version or an id) in project. The build is looked up in the
// project's list first; then each spelling of its address is tried, and
// only a 400 or 404 moves on to the next one. When every spelling is
// refused, the first refusal is the error.
func AddressBuild(ctx context.Context, cl *platform.Client, method, project, ref string) (any, error) {
	cards, err := cl.ListBuilds(ctx, project)
	if err != nil {
		return nil, err
	}
	card := FindBuild(cards, ref)
	if card == nil {
		return nil, platform.ConfigErrorf(ctx, "client.build-not-found", "ref", ref, "project", project)
	}
	var first error
	for _, seg := range buildSegments(card) {
		v, err := cl.Call(ctx, platform.Request{Method: method, Path: "/projects/" + pathSegment(project) + "/assemblies/" + pathSegment(seg)})
		if err == nil {
			return v, nil
		}
		if !platform.IsAPIStatus(err, http.StatusBadRequest, http.StatusNotFound) {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = platform.ConfigErrorf(ctx, "client.build-not-found", "ref", ref, "project", project)
	}
	return nil, first
}
