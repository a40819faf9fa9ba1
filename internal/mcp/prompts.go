package mcp

import (
	"context"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// Prompt names.
const (
	promptDeploy   = "deploy_and_verify"
	promptRollback = "why_rolled_back"
)

// prompt is one of the server's prompts: the tools its text sends the agent
// to (all must be served, or the prompt is left out) and how the text is
// made from the arguments, in the server's language at the time of the
// request.
type prompt struct {
	name        string
	description string // message key
	args        []promptArg
	tools       []string
	text        func(ctx context.Context, args map[string]string) string
}

type promptArg struct {
	name, description string // description is a message key
	required          bool
}

var prompts = []prompt{
	{
		name:        promptDeploy,
		description: "mcp.prompt.deploy-description",
		args: []promptArg{
			{name: "app", description: "mcp.prompt.arg-app", required: true},
			{name: "project_dir", description: "mcp.prompt.arg-project-dir"},
			{name: "project_id", description: "mcp.prompt.arg-project-id"},
		},
		tools: []string{"get_app", "deploy", "verify_deploy", "list_app_tasks"},
		text: func(ctx context.Context, a map[string]string) string {
			dir, dirShown, dirClause := a["project_dir"], i18n.T(ctx, "mcp.prompt.current-dir"), ""
			if dir != "" {
				dirShown = quote(dir)
				dirClause = i18n.T(ctx, "mcp.prompt.project-dir-clause", "dir", quote(dir))
			}
			projectID := i18n.T(ctx, "mcp.prompt.project-of-app")
			if id := a["project_id"]; id != "" {
				projectID = quote(id)
			}
			return i18n.T(ctx, "mcp.prompt.deploy-text", "app", quote(a["app"]), "project_dir", dirShown,
				"project_dir_clause", dirClause, "project_id", projectID)
		},
	},
	{
		name:        promptRollback,
		description: "mcp.prompt.rollback-description",
		args:        []promptArg{{name: "app", description: "mcp.prompt.arg-app", required: true}},
		tools:       []string{"get_app", "list_app_tasks", "list_builds", "verify_deploy"},
		text: func(ctx context.Context, a map[string]string) string {
			return i18n.T(ctx, "mcp.prompt.rollback-text", "app", quote(a["app"]))
		},
	},
}

// promptNamed is the prompt of that name, or nil.
func promptNamed(name string) *prompt {
	for i := range prompts {
		if prompts[i].name == name {
			return &prompts[i]
		}
	}
	return nil
}

// quote puts a value the caller gave in double quotes, as the tool
// arguments are written in the texts.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// addPrompts registers the prompts whose tools the server has.
func (s *Server) addPrompts(ctx context.Context) {
	for _, p := range prompts {
		if !s.hasTools(p.tools...) {
			continue
		}
		opts := []mcpgo.PromptOption{mcpgo.WithPromptDescription(i18n.T(ctx, p.description))}
		for _, a := range p.args {
			argOpts := []mcpgo.ArgumentOption{mcpgo.ArgumentDescription(i18n.T(ctx, a.description))}
			if a.required {
				argOpts = append(argOpts, mcpgo.RequiredArgument())
			}
			opts = append(opts, mcpgo.WithArgument(a.name, argOpts...))
		}
		s.mcp.prompts.add(mcpgo.NewPrompt(p.name, opts...), func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			ctx = s.withLang(ctx)
			args := map[string]string{}
			for _, a := range p.args {
				v := strings.TrimSpace(req.Params.Arguments[a.name])
				if v == "" && a.required {
					return nil, platform.ConfigErrorf(ctx, "mcp.prompt.missing-argument", "prompt", p.name, "name", a.name)
				}
				args[a.name] = v
			}
			return mcpgo.NewGetPromptResult(i18n.T(ctx, p.description), []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent(p.text(ctx, args))),
			}), nil
		})
	}
}

// hasTools tells whether every named tool is registered.
func (s *Server) hasTools(names ...string) bool {
	for _, n := range names {
		if s.command(n) == nil {
			return false
		}
	}
	return true
}
