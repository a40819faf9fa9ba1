package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// statusEvery limits how often a changing wait status becomes a progress
// notification.
const statusEvery = 500 * time.Millisecond

// handler runs a command for a tool call. Every failure, a panic included,
// comes back as a result with isError; the server keeps serving.
func (s *Server) handler(c *command.Command) toolHandler {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		ctx = s.withLang(ctx)
		p := &progress{ctx: ctx, tool: c.Tool, diagnostic: s.diagnostic}
		if req.Params.Meta != nil {
			p.token = req.Params.Meta.ProgressToken
		}
		run := &command.Call{
			Command: c, Catalog: s.opts.Catalog, Surface: command.MCP, Naming: command.ToolNames,
			Dir: s.opts.Dir, FaceEnvFile: s.opts.EnvFile, Stands: s.cache, Getenv: s.opts.Getenv, Version: s.opts.Version,
			Log: p.notify, Status: p.status, Diagnostic: s.diagnostic, Secrets: s.secrets(),
		}
		face := command.JSONFace{Naming: command.ToolNames, Called: c.Tool}
		if hasEnvFile(c) {
			face.Own = []string{envFileParam}
		}
		face.ReadOwn = func(ctx context.Context, given *jsonx.Object) (err error) {
			if hasEnvFile(c) {
				if run.EnvFile, err = command.OwnString(ctx, given, envFileParam, c.Tool); err != nil {
					return err
				}
			}
			run.EnvFile, err = s.checkEnvFile(ctx, run.EnvFile)
			return err
		}
		answer, err := command.Invoke(ctx, c, run, face, rawArguments(req))
		if ctx.Err() != nil {
			// Cancelled (notifications/cancelled, or the client went
			// away): the answer goes nowhere; the server log says how the
			// call ended.
			s.diagnostic(i18n.T(ctx, "mcp.server.cancelled-ended", "tool", c.Tool, "error", errorText(err, run.Scrub)))
		}
		if err != nil {
			return errorResult(err, run.Scrub), nil
		}
		res, err := answerResult(withLog(c, answer.Value, run.Lines()))
		if err != nil {
			return errorResult(err, run.Scrub), nil
		}
		return res, nil
	}
}

// rawArguments are the call's arguments as JSON bytes.
func rawArguments(req mcpgo.CallToolRequest) []byte {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	raw, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil
	}
	return raw
}

// withLog merges a call's progress lines into an object answer as "log"
// when the command is slow (a plugin's command always is) or logged
// anything (spec §1.4, §1.7). The core's log replaces any log the handler
// set.
func withLog(c *command.Command, answer any, lines []string) any {
	obj, ok := answer.(*jsonx.Object)
	if !ok || obj == nil {
		return answer
	}
	if len(lines) == 0 && !c.Slow {
		return answer
	}
	log := make([]any, len(lines))
	for i, l := range lines {
		log[i] = l
	}
	obj.Set("log", log)
	return obj
}

// errorText is how a cancelled call ended, for the server log.
func errorText(err error, scrub func(string) string) string {
	if err == nil {
		return "ok"
	}
	return scrub(err.Error())
}

// secrets are the values that must never leave the server beside the
// call's stand's own: the client secrets of the startup flags and of a
// pinned configuration.
func (s *Server) secrets() []string {
	out := []string{s.opts.Overrides.ClientSecret}
	if s.opts.Config != nil {
		out = append(out, s.opts.Config.ClientSecret)
	}
	return out
}

// progress sends a call's progress as notifications when the client asked
// for them with a progress token. Once the call is cancelled its lines go
// to the server log instead: the client asked to hear no more of it.
type progress struct {
	ctx        context.Context
	token      mcpgo.ProgressToken
	tool       string
	diagnostic func(string)

	mu         sync.Mutex
	count      int
	lastStatus string
	statusAt   time.Time
}

// status sends a changed wait status, at most every statusEvery; it never
// enters the log.
func (p *progress) status(text string) {
	if p.token == nil {
		return
	}
	p.mu.Lock()
	if text == p.lastStatus || time.Since(p.statusAt) < statusEvery {
		p.mu.Unlock()
		return
	}
	p.lastStatus, p.statusAt = text, time.Now()
	p.mu.Unlock()
	p.notify(text)
}

// notify sends one progress notification; without a progress token or a
// session it does nothing.
func (p *progress) notify(message string) {
	if p.ctx.Err() != nil {
		p.diagnostic(p.tool + ": " + message)
		return
	}
	if p.token == nil {
		return
	}
	p.mu.Lock()
	p.count++
	n := p.count
	p.mu.Unlock()
	_ = notifyClient(p.ctx, string(mcpgo.MethodNotificationProgress), map[string]any{
		"progressToken": p.token,
		"progress":      n,
		"message":       message,
	})
}
