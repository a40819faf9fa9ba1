package mcp

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

func readResource(t *testing.T, h *harness, uri string) (string, error) {
	t.Helper()
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := h.cl.ReadResource(context.Background(), req)
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 {
		t.Fatalf("%s: %d contents", uri, len(res.Contents))
	}
	text, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok || text.MIMEType != "application/json" || text.URI != uri {
		t.Fatalf("%s: contents %#v", uri, res.Contents[0])
	}
	for _, s := range h.secrets {
		if strings.Contains(text.Text, s) {
			t.Errorf("%s: a secret in the resource", uri)
		}
	}
	return text.Text, nil
}

func TestResourcesListTheStandsApplicationsAndProjects(t *testing.T) {
	h := start(t, setup{})
	ctx := context.Background()
	list, err := h.cl.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mcpgo.Resource{}
	for _, r := range list.Resources {
		got[r.URI] = r
	}
	appURI := "elemctl://apps/" + h.demo.AppID
	buildsURI := "elemctl://projects/" + h.demo.ProjectID + "/builds"
	for _, want := range []string{"elemctl://apps", "elemctl://projects", appURI, buildsURI} {
		if _, ok := got[want]; !ok {
			t.Errorf("resources/list lacks %s: %v", want, list.Resources)
		}
	}
	if r := got[appURI]; r.Name != h.demo.AppName || !strings.Contains(r.Description, "Running") || r.MIMEType != "application/json" {
		t.Errorf("the application's resource: %+v", r)
	}

	templates, err := h.cl.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, tp := range templates.ResourceTemplates {
		uris = append(uris, tp.URITemplate.Raw())
	}
	if strings.Join(uris, " ") != "elemctl://apps/{id} elemctl://projects/{id}/builds" {
		t.Errorf("templates %v", uris)
	}

	// A read is the tool's answer, by id and by (escaped) name.
	for _, uri := range []string{appURI, "elemctl://apps/" + url.PathEscape(h.demo.AppName)} {
		text, err := readResource(t, h, uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		card := decodeText(t, text).(*jsonx.Object)
		if card.Str("id") != h.demo.AppID || card.Obj("applied-build") == nil {
			t.Errorf("%s: %s", uri, text)
		}
	}
	text, err := readResource(t, h, buildsURI)
	if err != nil {
		t.Fatal(err)
	}
	builds := decodeText(t, text).(*jsonx.Object)
	if len(jsonx.Objects(builds.Value("builds"))) == 0 || !strings.Contains(builds.Str("summary"), "показано") {
		t.Errorf("builds resource: %s", text)
	}
	if text, err := readResource(t, h, "elemctl://apps"); err != nil || decodeText(t, text).(*jsonx.Object).Str("summary") != "живых 1 из 1" {
		t.Errorf("elemctl://apps: %v %s", err, text)
	}
	text, err = readResource(t, h, "elemctl://projects")
	if err != nil || !strings.Contains(text, h.demo.ProjectID) {
		t.Errorf("elemctl://projects: %v %s", err, text)
	}

	// Failures are errors with the elemctl message.
	if _, err := readResource(t, h, "elemctl://apps/no-such-application"); err == nil || !strings.Contains(err.Error(), "не найдено") {
		t.Errorf("a missing application: %v", err)
	}
	for _, bad := range []string{"elemctl://apps/a/b", "elemctl://projects//builds"} {
		if _, err := readResource(t, h, bad); err == nil {
			t.Errorf("%s: read", bad)
		}
	}
}

func TestResourcesListStillAnswersWithoutAStand(t *testing.T) {
	h := start(t, setup{noDotEnv: true})
	list, err := h.cl.ListResources(context.Background(), mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatalf("resources/list without a stand: %v", err)
	}
	if len(list.Resources) != 2 {
		t.Errorf("without a stand only the listings remain: %v", list.Resources)
	}
	if !strings.Contains(h.stderr.String(), "список ресурсов без приложений") {
		t.Errorf("the server log does not say why: %s", h.stderr.String())
	}
	if _, err := readResource(t, h, "elemctl://apps"); err == nil {
		t.Error("reading elemctl://apps without a stand succeeded")
	}
}

func getPrompt(t *testing.T, h *harness, name string, args map[string]string) (string, error) {
	t.Helper()
	req := mcpgo.GetPromptRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := h.cl.GetPrompt(context.Background(), req)
	if err != nil {
		return "", err
	}
	if len(res.Messages) != 1 || res.Messages[0].Role != mcpgo.RoleUser {
		t.Fatalf("%s: messages %+v", name, res.Messages)
	}
	return mcpgo.GetTextFromContent(res.Messages[0].Content), nil
}

func TestPromptsUseOnlyExistingToolsInTheServersLanguage(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	list, err := h.cl.ListPrompts(context.Background(), mcpgo.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
		if p.Description == "" || len(p.Arguments) == 0 || p.Arguments[0].Name != "app" || !p.Arguments[0].Required {
			t.Errorf("prompt %+v", p)
		}
	}
	if strings.Join(names, " ") != "deploy_and_verify why_rolled_back" {
		t.Fatalf("prompts %v", names)
	}
	tools := map[string]bool{}
	for _, name := range h.srv.Tools() {
		tools[name] = true
	}
	args := map[string]bool{"app_id": true, "project_id": true, "project_dir": true, "expected_version": true}
	toolLike := regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`)
	for _, lang := range []i18n.Lang{i18n.RU, i18n.EN} {
		h := h.speaking(lang)
		for _, name := range names {
			text, err := getPrompt(t, h, name, map[string]string{"app": "tasks-demo", "project_dir": "/work/Tasks"})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, word := range toolLike.FindAllString(text, -1) {
				if !args[word] && !tools[word] {
					t.Errorf("%s (%s) names %s, which is no tool", name, lang, word)
				}
			}
			if !strings.Contains(text, `"tasks-demo"`) {
				t.Errorf("%s: the application is not named: %s", name, text)
			}
			wantStart := map[i18n.Lang]string{i18n.RU: "Раз", i18n.EN: "Dep"}[lang]
			if name == promptRollback {
				wantStart = map[i18n.Lang]string{i18n.RU: "Выясни", i18n.EN: "Find"}[lang]
			}
			if !strings.HasPrefix(text, wantStart) {
				t.Errorf("%s in %s: %s", name, lang, text)
			}
		}
	}

	text, _ := getPrompt(t, h, promptDeploy, map[string]string{"app": "tasks-demo", "project_dir": "/work/Tasks", "project_id": "p-1"})
	if !strings.Contains(text, `project_id "p-1" и project_dir "/work/Tasks"`) {
		t.Errorf("deploy prompt with a project: %s", text)
	}
	text, _ = getPrompt(t, h, promptDeploy, map[string]string{"app": "tasks-demo"})
	if strings.Contains(text, "project_dir") || !strings.Contains(text, "текущем каталоге сервера") || !strings.Contains(text, "из шага 1") {
		t.Errorf("deploy prompt without a directory: %s", text)
	}
	if _, err := getPrompt(t, h, promptRollback, map[string]string{"app": "  "}); err == nil || !strings.Contains(err.Error(), "app") {
		t.Errorf("a prompt without its argument: %v", err)
	}
}

func TestResourcesAndPromptsFollowTheCatalog(t *testing.T) {
	cat := &command.Catalog{}
	for _, c := range catalog.Core().Commands() {
		if c.Tool == "list_apps" || c.Tool == "get_app" {
			cat.Add(c)
		}
	}
	h := start(t, setup{catalog: cat})
	list, err := h.cl.ListResources(context.Background(), mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Resources {
		if strings.HasPrefix(r.URI, "elemctl://projects") {
			t.Errorf("a projects resource without list_projects: %s", r.URI)
		}
	}
	prompts, err := h.cl.ListPrompts(context.Background(), mcpgo.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts.Prompts) != 0 {
		t.Errorf("prompts whose tools are missing: %v", prompts.Prompts)
	}
}
