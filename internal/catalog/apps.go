package catalog

import (
	"context"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/spelling"
)

func tokenCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"token"}, Order: 1, Examples: []string{"elemctl token", "elemctl --env-file stand.env token"}, Help: "cli.help.token", ReadOnly: true,
	}, func(ctx context.Context, cc *command.Context, _ struct{}) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		tok, err := cl.Token(ctx, false)
		if err != nil {
			return nil, err
		}
		return jsonx.New("token", tok), nil
	})
}

func appsListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "list"}, Order: 1, Examples: []string{"elemctl apps list --brief", "elemctl apps list --status Running --name crm"}, Tool: "list_apps", LSP: "apps.list",
		Help: "cli.help.apps-list", ToolHelp: "mcp.help.list-apps", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "name", Help: "cli.arg.apps-name", Type: command.String},
			{Name: "status", Help: "cli.arg.apps-status", Type: command.String, Multiple: true, Suggest: platform.AppStatuses},
			{Name: "include-deleted", Help: "cli.arg.include-deleted", Type: command.Bool},
			{Name: "brief", Help: "cli.arg.apps-brief", Type: command.Bool},
		},
		ToolArgs: []command.Argument{
			{Name: "name", Help: "mcp.arg.apps-name", Type: command.String, Default: ""},
			{Name: "status", Help: "mcp.arg.apps-status", Type: command.String, Default: ""},
			{Name: "include_deleted", Help: "mcp.arg.include-deleted", Type: command.Bool, Default: false},
			{Name: "brief", Help: "mcp.arg.brief", Type: command.Bool, Default: true},
		},
	}, runAppsList)
}

func appsGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "get"}, Order: 2, PlainStderr: true, Examples: []string{"elemctl apps get crm-test", "elemctl apps get              # ELEMENT_APP_ID of the .env"}, Tool: "get_app", LSP: "apps.get",
		Help: "cli.help.apps-get", ToolHelp: "mcp.help.get-app", ReadOnly: true, Idempotent: true,
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, runAppsGet)
}

func appsFindCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "find"}, Order: 3, Examples: []string{"elemctl apps find crm-test --include-deleted"}, Tool: "find_app",
		Help: "cli.help.apps-find", ToolHelp: "mcp.help.find-app", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "name", Help: "cli.arg.find-name", Type: command.String, Positional: true, Required: true, Metavar: "NAME"},
			{Name: "include-deleted", Help: "cli.arg.include-deleted", Type: command.Bool},
		},
		ToolArgs: []command.Argument{
			{Name: "name", Help: "cli.arg.find-name", Type: command.String, Required: true},
			{Name: "include_deleted", Help: "mcp.arg.include-deleted", Type: command.Bool, Default: false},
		},
	}, runAppsFind)
}

func appsDebugCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "debug"}, Order: 10, Examples: []string{"elemctl apps debug crm-test"}, Tool: "debug_info", LSP: "apps.debug",
		Help: "cli.help.apps-debug", ToolHelp: "mcp.help.debug-info",
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, runAppsDebug)
}

// appBriefs makes the short application cards of one listing, each
// written as the text it is printed as (see jsonx.Shape).
type appBriefs struct {
	shape *jsonx.Shape
}

func newAppBriefs() *appBriefs {
	return &appBriefs{shape: jsonx.NewShape("id", "name", "status", "uri", "project-version", "project-version-id")}
}

// brief is the short application card of card.
func (b *appBriefs) brief(card jsonx.Fields) jsonx.Encoded {
	src := card.Nested("source")
	b.shape.Member(card, "id")
	b.shape.Text(platform.AppNameBytes(card))
	b.shape.Member(card, "status")
	b.shape.Member(card, "uri")
	b.shape.Member(src, "project-version")
	b.shape.Member(src, "project-version-id")
	return b.shape.End()
}

// statusWords splits repeated, comma-separated status filters.
func statusWords(values []string) []string {
	var out []string
	for _, v := range values {
		for _, w := range strings.Split(v, ",") {
			if w = strings.TrimSpace(w); w != "" {
				out = append(out, strings.ToLower(w))
			}
		}
	}
	return out
}

// AppsSummary is the counter line: "{live} live of {total}[, {shown} shown]".
func AppsSummary(ctx context.Context, live, total, shown int) string {
	if shown == live {
		return i18n.T(ctx, "client.apps-summary", "live", live, "total", total)
	}
	return i18n.T(ctx, "client.apps-summary-shown", "live", live, "total", total, "shown", shown)
}

// appsListInput are the arguments runAppsList reads.
type appsListInput struct {
	Name           string   `arg:"name"`
	Status         []string `arg:"status"`
	IncludeDeleted bool     `arg:"include-deleted"`
	Brief          bool     `arg:"brief"`
}

func runAppsList(ctx context.Context, cc *command.Context, in appsListInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	name := strings.ToLower(in.Name)
	statuses := statusWords(in.Status)
	showDeleted := in.IncludeDeleted
	for _, s := range statuses {
		if s == "deleted" {
			showDeleted = true
		}
	}
	// The cards are counted and filtered as the list is read, undecoded;
	// only those shown are decoded (of thousands, mostly deleted, often a
	// few), and with --brief only the brief card's fields of them.
	total, live := 0, 0
	briefs := newAppBriefs()
	spelled := map[string]bool{} // the statuses seen, as the cards spell them
	recount := func() { total, live = 0, 0; clear(spelled) }
	shown, err := platform.ListPicking(ctx, cl, platform.Request{Path: "/applications"}, recount, func(a *jsonx.RawObject) (any, bool, error) {
		total++
		status := a.StrBytes("status")
		if !spelled[string(status)] {
			spelled[string(status)] = true
		}
		deleted := platform.IsDeletedStatus(status)
		if !deleted {
			live++
		}
		switch {
		case deleted && !showDeleted:
			return nil, false, nil
		case name != "" && !anyContains(a, name, "name", "display-name", "publication-context"):
			return nil, false, nil
		case len(statuses) > 0 && !contains(statuses, strings.ToLower(string(status))):
			return nil, false, nil
		case in.Brief:
			return briefs.brief(a), true, nil
		}
		card, err := a.Decode()
		return card, err == nil, err
	}, "applications")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for s := range spelled {
		seen[strings.ToLower(s)] = true
	}
	warnUnknownStatuses(ctx, cc, statuses, seen)
	summary := AppsSummary(ctx, live, total, len(shown))
	return listing{items: shown, key: "applications", notes: []string{summary},
		counters: jsonx.New("total", total, "live", live, "shown", len(shown), "summary", summary)}, nil
}

// warnUnknownStatuses says of a --status word that no application shows
// and the platform is not known to use – a slip, most likely – which
// statuses there are, the nearest first. It is no refusal: a platform may
// show a status this list lacks.
func warnUnknownStatuses(ctx context.Context, cc *command.Context, statuses []string, seen map[string]bool) {
	for _, s := range statuses {
		if seen[s] || slices.ContainsFunc(platform.AppStatuses, func(k string) bool { return strings.EqualFold(k, s) }) {
			continue
		}
		cc.Log(i18n.T(ctx, "client.apps-unknown-status", "status", s, "known", strings.Join(platform.AppStatuses, ", "),
			"suggestion", spelling.DidYouMean(ctx, s, platform.AppStatuses)))
	}
}

func anyContains(o jsonx.Fields, needle string, keys ...string) bool {
	for _, k := range keys {
		if strings.Contains(strings.ToLower(o.Str(k)), needle) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func runAppsGet(ctx context.Context, cc *command.Context, in appInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, true)
	if err != nil {
		return nil, err
	}
	card, err := cl.GetApp(ctx, id)
	if err != nil {
		return nil, err
	}
	card.Set("applied-build", AppliedBuild(ctx, cc, cl, card))
	return card, nil
}

// appsFindInput are the arguments runAppsFind reads.
type appsFindInput struct {
	Name           string `arg:"name"`
	IncludeDeleted bool   `arg:"include-deleted"`
}

func runAppsFind(ctx context.Context, cc *command.Context, in appsFindInput) (any, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	// Only the cards of the name are decoded of the list.
	found, err := cl.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool { return platform.AppNamed(a, in.Name, in.IncludeDeleted) })
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return jsonx.New("id", nil, "found", false), nil
	}
	// A live application wins over tombstones of the same name.
	pick := found[0]
	for _, a := range found {
		if !platform.IsDeletedApp(a) {
			pick = a
			break
		}
	}
	return dialects{
		cli:  jsonx.New("id", pick.Value("id"), "found", true),
		tool: jsonx.New("id", pick.Value("id"), "found", true, "application", pick),
	}, nil
}

func runAppsDebug(ctx context.Context, cc *command.Context, in appInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, true)
	if err != nil {
		return nil, err
	}
	v, err := cl.OpenDebugSession(ctx, id)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return dialects{cli: jsonx.New(), tool: jsonx.New("app-id", id)}, nil
	}
	return v, nil
}
