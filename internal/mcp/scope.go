package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"unicode"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/platform"
)

// callerKey marks the context of a request with the token that made it.
type callerKey struct{}

func withCaller(ctx context.Context, t *Token) context.Context {
	return context.WithValue(ctx, callerKey{}, t)
}

// callerOf is the token of a request over HTTP; nil over stdio (the user
// who started the server, full scope).
func callerOf(ctx context.Context) *Token {
	t, _ := ctx.Value(callerKey{}).(*Token)
	return t
}

// readScoped tells whether the request's token may use read-only tools
// alone.
func readScoped(ctx context.Context) bool {
	t := callerOf(ctx)
	return t != nil && t.Scope == ScopeRead
}

// readOnly tells whether a command only reads: it changes nothing on the
// stand and writes nothing on the server's machine (the catalog checks
// that the declarations agree, see command.CheckAnnotations).
func readOnly(c *command.Command) bool { return c.ReadOnly }

// visibleTools is the tool list a request sees: a read token sees the
// read-only tools alone.
func (s *Server) visibleTools(ctx context.Context, tools []mcpgo.Tool) []mcpgo.Tool {
	if !readScoped(ctx) {
		return tools
	}
	out := tools[:0:0]
	for _, t := range tools {
		if c := s.command(t.Name); c != nil && readOnly(c) {
			out = append(out, t)
		}
	}
	return out
}

// visiblePrompts is the prompt list a request sees: a read token sees the
// prompts whose tools it may call.
func (s *Server) visiblePrompts(ctx context.Context, list []mcpgo.Prompt) []mcpgo.Prompt {
	if !readScoped(ctx) {
		return list
	}
	out := list[:0:0]
	for _, p := range list {
		if def := promptNamed(p.Name); def != nil && s.readOnlyTools(def.tools...) {
			out = append(out, p)
		}
	}
	return out
}

func (s *Server) readOnlyTools(names ...string) bool {
	for _, n := range names {
		if c := s.command(n); c == nil || !readOnly(c) {
			return false
		}
	}
	return true
}

// refusal answers a request that must not reach its handler: a tool the
// token's scope or the server's --read-only withholds, a resource address
// that names no valid id, a prompt without a required argument. nil lets
// the request go on.
func (s *Server) refusal(ctx context.Context, m *message) mcpgo.JSONRPCMessage {
	switch m.Method {
	case string(mcpgo.MethodToolsCall):
		if err := s.toolRefusal(ctx, m.params.Name); err != nil {
			return mcpgo.NewJSONRPCResultResponse(m.requestID(), errorResult(err, func(s string) string { return s }))
		}
	case string(mcpgo.MethodResourcesRead):
		if err := s.checkResourceURI(ctx, m.params.URI); err != nil {
			return errorResponse(m, mcpgo.INVALID_PARAMS, err.Error())
		}
	case string(mcpgo.MethodPromptsGet):
		if def := promptNamed(m.params.Name); def != nil && s.hasTools(def.tools...) {
			if err := checkPromptArguments(ctx, def, m.params.Arguments); err != nil {
				return errorResponse(m, mcpgo.INVALID_PARAMS, err.Error())
			}
		}
	}
	return nil
}

// toolRefusal says why a tool may not be called here: the server serves
// read-only tools alone, or the token's scope is read.
func (s *Server) toolRefusal(ctx context.Context, name string) error {
	s.toolsMu.Lock()
	withheld := s.withheld[name]
	s.toolsMu.Unlock()
	if withheld {
		return platform.ConfigErrorf(ctx, "mcp.scope.server-read-only", "tool", name)
	}
	if !readScoped(ctx) {
		return nil
	}
	if c := s.command(name); c != nil && !readOnly(c) {
		return platform.ConfigErrorf(ctx, "mcp.scope.token-read", "tool", name, "token", callerOf(ctx).Name, "scope", string(ScopeRead))
	}
	return nil
}

// maxIDLength bounds an id in a resource address: application ids are
// UUIDs and names are short, so anything longer is refused before any
// work instead of being searched for.
const maxIDLength = 256

// validID tells whether a decoded id may name an application or project:
// not blank, not too long, no control characters.
func validID(id string) bool {
	if strings.TrimSpace(id) == "" || len(id) > maxIDLength {
		return false
	}
	return strings.IndexFunc(id, unicode.IsControl) < 0
}

// checkPromptArguments refuses a prompt request without a required
// argument (-32602, invalid params).
func checkPromptArguments(ctx context.Context, def *prompt, raw json.RawMessage) error {
	name := def.name
	var args map[string]any
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return platform.ConfigErrorf(ctx, "mcp.prompt.bad-arguments", "prompt", name)
		}
	}
	for _, a := range def.args {
		v, _ := args[a.name].(string)
		if a.required && strings.TrimSpace(v) == "" {
			return platform.ConfigErrorf(ctx, "mcp.prompt.missing-argument", "prompt", name, "name", a.name)
		}
	}
	return nil
}
