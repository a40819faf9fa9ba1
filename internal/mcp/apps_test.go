package mcp

import (
	"context"
	"net/http"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
)

func TestListAppsCountersAndSummary(t *testing.T) {
	t.Parallel()
	h := start(t, setup{plainStand: true})
	if err := h.stand.SeedApps(324, 1); err != nil {
		t.Fatal(err)
	}
	got := h.ok("list_apps", nil)
	if keys := strings.Join(got.Keys(), ","); keys != "total,live,shown,summary,applications" {
		t.Errorf("answer keys %s", keys)
	}
	if n, _ := got.Int("total"); n != 324 {
		t.Errorf("total %d", n)
	}
	if n, _ := got.Int("live"); n != 1 {
		t.Errorf("live %d", n)
	}
	if n, _ := got.Int("shown"); n != 1 {
		t.Errorf("shown %d", n)
	}
	if s := got.Str("summary"); s != "живых 1 из 324" {
		t.Errorf("summary %q", s)
	}
	apps := jsonx.Objects(got.Value("applications"))
	if len(apps) != 1 || apps[0].Str("status") != "Running" {
		t.Fatalf("applications %v", got.Value("applications"))
	}
	if keys := strings.Join(apps[0].Keys(), ","); keys != "id,name,status,uri,project-version,project-version-id" {
		t.Errorf("a brief card has %s", keys)
	}

	all := h.ok("list_apps", map[string]any{"include_deleted": true})
	if s := all.Str("summary"); s != "живых 1 из 324, показано 324" {
		t.Errorf("summary with deleted %q", s)
	}
	deleted := h.ok("list_apps", map[string]any{"status": "deleted"})
	if n, _ := deleted.Int("shown"); n != 323 {
		t.Errorf("status=deleted lifts the hiding: shown %d", n)
	}
	full := h.ok("list_apps", map[string]any{"brief": false})
	if card := jsonx.Objects(full.Value("applications"))[0]; !card.Has("space-id") {
		t.Errorf("brief=false must give whole cards: %v", card)
	}

	if s := h.speaking(i18n.EN).ok("list_apps", nil).Str("summary"); s != "1 live of 324" {
		t.Errorf("English summary %q", s)
	}
}

func TestGetAppByNameAndAmbiguity(t *testing.T) {
	h := start(t, setup{})
	card := h.ok("get_app", map[string]any{"app_id": h.demo.AppName})
	if card.Str("id") != h.demo.AppID {
		t.Fatalf("get_app by name gave %s, want %s", card.Str("id"), h.demo.AppID)
	}
	applied := card.Obj("applied-build")
	if applied == nil || applied.Str("assembly-version") != "1.0-3" {
		t.Errorf("applied-build %v", card.Value("applied-build"))
	}
	if byID := h.ok("get_app", map[string]any{"app_id": h.demo.AppID}); byID.Str("name") != card.Str("name") {
		t.Errorf("by id and by name differ")
	}

	// Two applications answering to one name: an error listing both ids,
	// never a guess.
	build := card.Obj("source").Str("project-version-id")
	pc := platformClient(t, h.stand)
	var ids []string
	for _, ctxName := range []string{"twin-a", "twin-b"} {
		v, err := pc.Post(context.Background(), "/applications", jsonx.New(
			"display-name", "Twin", "publication-context", ctxName, "development-mode", true,
			"source", jsonx.New("project-version-id", build)))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.(*jsonx.Object).Str("id"))
	}
	text := h.fails("get_app", map[string]any{"app_id": "twin"})
	if !strings.Contains(text, "неоднозначно") || !strings.Contains(text, ids[0]) || !strings.Contains(text, ids[1]) {
		t.Errorf("ambiguity error %s", text)
	}
	if text := h.fails("debug_info", map[string]any{"app_id": "TWIN"}); !strings.Contains(text, "неоднозначно") {
		t.Errorf("debug_info must refuse the ambiguous name too: %s", text)
	}
	if text := h.fails("get_app", map[string]any{"app_id": "no-such-app"}); !strings.Contains(text, "не найдено") {
		t.Errorf("missing application error %s", text)
	}
}

func TestFindApp(t *testing.T) {
	h := start(t, setup{})
	found := h.ok("find_app", map[string]any{"name": strings.ToUpper(h.demo.AppName)})
	if found.Str("id") != h.demo.AppID || !found.Bool("found") || found.Obj("application").Str("id") != h.demo.AppID {
		t.Errorf("find_app %v", found)
	}
	missing := h.ok("find_app", map[string]any{"name": "nothing-like-this"})
	if v, ok := missing.Get("id"); !ok || v != nil || missing.Bool("found") {
		t.Errorf("a missing application is an answer {id: null, found: false}: %v", missing)
	}
	if missing.Len() != 2 {
		t.Errorf("missing answer has extra keys: %v", missing.Keys())
	}
}

func TestDebugInfo(t *testing.T) {
	h := start(t, setup{})
	info := h.ok("debug_info", map[string]any{"app_id": h.demo.AppName})
	for _, k := range []string{"debug-token", "debug-address", "client-debug-address"} {
		if info.Str(k) == "" {
			t.Errorf("debug_info lacks %s: %v", k, info)
		}
	}
}

func TestToolErrorsAreResults(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"get_app", map[string]any{}, []string{"не задан обязательный параметр app_id"}},
		{"get_app", map[string]any{"app_id": h.demo.AppID, "app-id": "x"}, []string{"нет параметра app-id", "app_id, env_file"}},
		{"list_apps", map[string]any{"include_deleted": "maybe"}, []string{"include_deleted", "true или false", "строка"}},
		{"list_apps", map[string]any{"brief": []any{true}}, []string{"brief", "true или false", "список"}},
		{"list_apps", map[string]any{"env_file": 42}, []string{"env_file", "строкой"}},
	}
	for _, c := range cases {
		text := h.fails(c.tool, c.args)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: error %s lacks %q", c.tool, c.args, text, w)
			}
		}
	}

	// Arguments that are not an object.
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "list_apps"
	req.Params.Arguments = []any{1, 2}
	res, err := h.cl.CallTool(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(textOf(res), "объектом JSON") {
		t.Errorf("non-object arguments: %s", textOf(res))
	}

	// An API refusal keeps its status, method and url.
	api := h.call("get_build", map[string]any{"project_id": "00000000-0000-4000-8000-000000000000", "version": "9.9-9"})
	if !api.IsError {
		t.Fatalf("get_build of a missing project: %s", textOf(api))
	}
	obj := structured(t, api)
	if obj.Str("error") == "" || obj.Str("url") == "" {
		t.Errorf("an API error keeps its shape: %s", textOf(api))
	}

	// Lenient conversion: an integer as text, a number for a string.
	builds := h.ok("list_builds", map[string]any{"project_id": h.demo.ProjectID, "limit": "2"})
	if n, _ := builds.Int("shown"); n != 2 {
		t.Errorf("limit \"2\" gave %d builds", n)
	}
	// A limit of 0 or less lifts the cut, as on the command line.
	all := h.ok("list_builds", map[string]any{"project_id": h.demo.ProjectID, "limit": -1})
	if n, _ := all.Int("shown"); n != 3 {
		t.Errorf("limit -1 gave %d builds, want every one (3)", n)
	}
	if h.call("get_build", map[string]any{"project_id": h.demo.ProjectID, "version": "1.0-3"}).IsError {
		t.Error("get_build by version failed")
	}

	if text := h.speaking(i18n.EN).fails("get_app", map[string]any{"app_id": "no-such-app"}); !strings.Contains(text, "not found") {
		t.Errorf("English error %s", text)
	}
}

// An extension project is known by its card, which list_builds reads
// beside the list: its builds are deleted by hand, never by housekeeping.
func TestListBuildsOfAnExtensionProject(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	needTools(t, h, "list_builds")
	pc := platformClient(t, h.stand)
	ctx := context.Background()
	spec := stand.ArchiveSpec{Vendor: "acme", Name: "CrmExtras", Version: "1.0-1", Kind: "Extension",
		ID: "e7e7e7e7-0000-4000-8000-0000000000e1", Presentation: "CRM extras"}
	up, err := pc.Call(ctx, platform.Request{Method: http.MethodPost, Path: "/projects", Raw: stand.MakeArchive(spec)})
	if err != nil {
		t.Fatal(err)
	}
	project := up.(*jsonx.Object).Obj("artifact").Str("artifact-id")
	if project == "" {
		t.Fatalf("no project in the upload answer %v", up)
	}
	for range 2 {
		if _, err := pc.Call(ctx, platform.Request{Method: http.MethodPost, Path: "/projects/" + project + "/assemblies", Raw: stand.MakeArchive(spec)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pc.Delete(ctx, "/projects/"+project+"/assemblies/1.0-2"); err != nil {
		t.Fatal(err)
	}
	got := h.speaking(i18n.EN).ok("list_builds", map[string]any{"project_id": project})
	summary := got.Str("summary")
	if !strings.Contains(summary, "an extension project has no housekeeping, so builds were deleted by hand") ||
		strings.Contains(summary, "the platform deletes unused builds") {
		t.Errorf("summary of an extension project with a gap: %q", summary)
	}
}
