package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// statusEvery limits how often a changing wait status becomes a progress
// notification.
const statusEvery = 500 * time.Millisecond

// call is one tool call: its stand (resolved once, on first use), the
// progress lines it collected and its progress token.
type call struct {
	s       *Server
	c       *command.Command
	ctx     context.Context
	token   mcpgo.ProgressToken
	envFile string

	resolveOnce sync.Once
	cfg         *platform.Config
	client      *platform.Client
	cfgErr      error
	clientErr   error

	mu         sync.Mutex
	lines      []string
	progress   int
	lastStatus string
	statusAt   time.Time
}

// handler runs a command for a tool call. Every failure, a panic included,
// comes back as a result with isError; the server keeps serving.
func (s *Server) handler(c *command.Command) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (res *mcpgo.CallToolResult, err error) {
		k := &call{s: s, c: c, ctx: ctx}
		if req.Params.Meta != nil {
			k.token = req.Params.Meta.ProgressToken
		}
		defer func() {
			if r := recover(); r != nil {
				res, err = k.panicResult(r), nil
			}
		}()
		args, aErr := decodeArguments(c, c.Tool, rawArguments(req))
		if aErr != nil {
			return errorResult(aErr, k.scrub), nil
		}
		if k.envFile, aErr = s.checkEnvFile(ctx, args.envFile); aErr != nil {
			return errorResult(aErr, k.scrub), nil
		}
		if k.envFile != "" && isPlugin(c) {
			// A plugin tool names its stand like any other (spec §1.7):
			// a missing env_file fails the call before the plugin starts,
			// not only when the plugin asks the host for platform work.
			if _, cfgErr := k.config(); cfgErr != nil {
				return errorResult(cfgErr, k.scrub), nil
			}
		}
		answer, runErr := c.Run(ctx, k.context(), args.values)
		if runErr != nil {
			return errorResult(runErr, k.scrub), nil
		}
		res, rErr := answerResult(k.withLog(answer))
		if rErr != nil {
			return errorResult(rErr, k.scrub), nil
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

// context is the command context of the call.
func (k *call) context() *command.Context {
	envFile := k.envFile
	if envFile == "" {
		envFile = k.s.opts.EnvFile
	}
	return &command.Context{
		Surface:    command.MCP,
		Getenv:     k.s.opts.Getenv,
		Dir:        k.s.opts.Dir,
		EnvFile:    envFile,
		Version:    k.s.opts.Version,
		LogFunc:    k.log,
		StatusFunc: k.status,
		ClientFunc: k.platformClient,
		ConfigFunc: k.config,
	}
}

// resolve looks the call's stand up in the cache, once per call: every
// step of a command uses the same client.
func (k *call) resolve() {
	k.resolveOnce.Do(func() {
		cfg, cl, cfgErr, clientErr := k.s.cache.Resolve("", k.envFile)
		k.mu.Lock()
		k.cfg, k.client, k.cfgErr, k.clientErr = cfg, cl, cfgErr, clientErr
		k.mu.Unlock()
	})
}

func (k *call) config() (*platform.Config, error) {
	k.resolve()
	return k.cfg, k.cfgErr
}

func (k *call) platformClient() (*platform.Client, error) {
	k.resolve()
	if k.cfgErr != nil {
		return nil, k.cfgErr
	}
	return k.client, k.clientErr
}

// log collects a progress line for the answer's log field and, when the
// client asked for progress, sends it as a notification.
func (k *call) log(line string) {
	line = k.scrub(line)
	k.mu.Lock()
	k.lines = append(k.lines, line)
	k.mu.Unlock()
	k.notify(line)
}

// status sends a changed wait status as progress, at most every
// statusEvery; it never enters the log.
func (k *call) status(text string) {
	if k.token == nil {
		return
	}
	text = k.scrub(text)
	k.mu.Lock()
	if text == k.lastStatus || time.Since(k.statusAt) < statusEvery {
		k.mu.Unlock()
		return
	}
	k.lastStatus, k.statusAt = text, time.Now()
	k.mu.Unlock()
	k.notify(text)
}

// notify sends one progress notification; without a progress token or a
// session it does nothing.
func (k *call) notify(message string) {
	if k.token == nil {
		return
	}
	srv := server.ServerFromContext(k.ctx)
	if srv == nil {
		return
	}
	k.mu.Lock()
	k.progress++
	n := k.progress
	k.mu.Unlock()
	_ = srv.SendNotificationToClient(k.ctx, string(mcpgo.MethodNotificationProgress), map[string]any{
		"progressToken": k.token,
		"progress":      n,
		"message":       message,
	})
}

// withLog merges the collected lines into an object answer as "log" when
// the command is long, comes from a plugin or logged anything (spec §1.4,
// §1.7). The core's log replaces any log the handler set.
func (k *call) withLog(answer any) any {
	obj, ok := answer.(*jsonx.Object)
	if !ok || obj == nil {
		return answer
	}
	k.mu.Lock()
	lines := make([]any, len(k.lines))
	for i, l := range k.lines {
		lines[i] = l
	}
	k.mu.Unlock()
	if len(lines) == 0 && !k.c.Slow && !isPlugin(k.c) {
		return answer
	}
	obj.Set("log", lines)
	return obj
}

// secrets are the values that must never leave the server: the client
// secrets of the startup flags and of the call's stand.
func (k *call) secrets() []string {
	out := []string{k.s.opts.Overrides.ClientSecret}
	if k.s.opts.Config != nil {
		out = append(out, k.s.opts.Config.ClientSecret)
	}
	k.mu.Lock()
	cfg := k.cfg
	k.mu.Unlock()
	if cfg != nil {
		out = append(out, cfg.ClientSecret)
	}
	return out
}

// scrub hides secrets in a text that leaves the server.
func (k *call) scrub(text string) string {
	for _, secret := range k.secrets() {
		if len(secret) >= 4 {
			text = strings.ReplaceAll(text, secret, "***")
		}
	}
	return text
}

// panicResult reports a recovered panic: the message to the caller, the
// stack to the server log.
func (k *call) panicResult(r any) *mcpgo.CallToolResult {
	msg := panicMessage(r)
	k.s.diagnostic(k.scrub(fmt.Sprintf("panic in tool %s: %s\n%s", k.c.Tool, msg, debug.Stack())))
	return errorResult(platform.NewError(platform.KindGeneral, "mcp.server.panic", "tool", k.c.Tool, "error", msg), k.scrub)
}

// panicMessage describes a panic value without dumping a Go struct.
func panicMessage(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	// Only the type: the value may hold anything, secrets included.
	t := reflect.TypeOf(r)
	if t.Name() == "" {
		return t.Kind().String()
	}
	return t.String()
}
