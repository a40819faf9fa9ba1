package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Error codes of command failures beyond the JSON-RPC ones.
const (
	// CodeRequestCancelled answers a command stopped by $/cancelRequest,
	// window/workDoneProgress/cancel or shutdown (LSP RequestCancelled).
	CodeRequestCancelled jsonrpc2.Code = -32800
	// CodeRequestFailed answers a command that ran and failed: the message
	// is elemctl's, data is its error object (LSP RequestFailed).
	CodeRequestFailed jsonrpc2.Code = -32803
)

// executeParams is workspace/executeCommand with the progress token kept as
// the client wrote it.
type executeParams struct {
	WorkDoneToken json.RawMessage   `json:"workDoneToken"`
	Command       string            `json:"command"`
	Arguments     []json.RawMessage `json:"arguments"`
}

// lookup finds a command by its full id.
func (s *Server) lookup(full string) (*command.Command, string) {
	s.mu.Lock()
	prefix := s.prefix
	s.mu.Unlock()
	id, ok := strings.CutPrefix(full, prefix+".")
	if !ok {
		return nil, ""
	}
	return s.commands[id], id
}

func (s *Server) executeCommand(ctx context.Context, params json.RawMessage) (any, error) {
	var p executeParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, i18n.T(ctx, "lsp.bad-params", "error", err))
	}
	c, id := s.lookup(p.Command)
	if c == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, i18n.T(ctx, "lsp.unknown-command", "command", p.Command, "known", strings.Join(s.Commands(), ", ")))
	}
	args, err := decodeArguments(ctx, c, p.Command, p.Arguments, s.defaultDir())
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	k := &call{s: s, c: c, id: id, args: args, title: "elemctl " + c.Name()}
	k.run = &command.Call{
		Command: c, Surface: command.LSP, Naming: command.CamelNames,
		Dir: args.cwd, EnvFile: args.envFile, FaceEnvFile: s.opts.EnvFile, Stands: s.clients,
		Getenv: s.opts.Getenv, Version: s.opts.Version,
		Log: k.log, Status: k.status, Diagnostic: s.diagnostic, Secrets: []string{s.opts.Overrides.ClientSecret},
	}
	return k.execute(ctx, p.WorkDoneToken)
}

// call is one run of a command.
type call struct {
	s     *Server
	c     *command.Command
	id    string
	title string
	args  callArgs
	prog  *progress
	run   *command.Call
}

// log sends a progress line: a progress report and a window/logMessage
// (the full log, tagged with the command, since commands run side by side).
func (k *call) log(line string) {
	line = strings.TrimRight(line, "\n")
	if k.prog != nil {
		k.prog.report(line)
	}
	k.s.logMessage(protocol.MessageTypeLog, "["+k.title+"] "+line)
}

func (k *call) status(text string) {
	if k.prog != nil {
		k.prog.status(text)
	}
}

// execute runs the command with progress and turns its outcome into the
// reply: the command's answer in the tool dialect, or an error with a code.
func (k *call) execute(ctx context.Context, token json.RawMessage) (any, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	long := k.c.Slow || k.c.Source != ""
	k.prog = k.s.startProgress(ctx, token, k.title, long, cancel)

	result, err := k.run.Run(ctx, k.args.values)
	if err != nil {
		return nil, k.failed(ctx, err, long)
	}
	answer := command.Render(result, command.ToolDialect).Value
	raw, mErr := jsonx.Compact(answer)
	if mErr != nil {
		return nil, k.failed(ctx, mErr, long)
	}
	obj, _ := answer.(*jsonx.Object)
	k.s.diagnosticsAfter(ctx, k, obj, nil)
	verdict, kind := k.verdict(ctx, obj)
	k.prog.end(verdict)
	if verdict != "" && (long || kind != protocol.MessageTypeInfo) {
		k.s.showMessage(kind, verdict)
	}
	return json.RawMessage(raw), nil
}

// failed ends the progress of a failed command and builds its error reply.
func (k *call) failed(ctx context.Context, err error, long bool) error {
	cancelled := ctx.Err() != nil && errors.Is(err, context.Canceled)
	var jerr *jsonrpc2.Error
	var panicked *command.PanicError
	msg := k.run.Scrub(err.Error())
	switch {
	case errors.As(err, &panicked):
		jerr = jsonrpc2.NewError(jsonrpc2.InternalError, msg)
	case cancelled:
		if errors.Is(err, context.Canceled) && strings.TrimSpace(msg) == context.Canceled.Error() {
			msg = i18n.T(ctx, "lsp.cancelled", "command", k.title)
		}
		jerr = jsonrpc2.NewError(CodeRequestCancelled, msg)
	default:
		k.s.diagnosticsAfter(ctx, k, nil, err)
		jerr = jsonrpc2.NewError(CodeRequestFailed, msg)
		obj := platform.ErrorObject(err)
		obj.Set("kind", errorKind(err))
		if data, e := jsonx.Compact(obj); e == nil {
			raw := json.RawMessage(k.run.Scrub(string(data)))
			jerr.Data = &raw
		}
	}
	k.prog.end(k.title + ": " + jerr.Message)
	if long {
		kind := protocol.MessageTypeError
		if cancelled {
			kind = protocol.MessageTypeWarning
		}
		k.s.showMessage(kind, k.title+": "+jerr.Message)
	}
	return jerr
}

// errorKind names the family of an error for clients that branch on it:
// config, build, transport, plugin, api, cancelled or error.
func errorKind(err error) string {
	var ae *platform.APIError
	if errors.As(err, &ae) {
		return "api"
	}
	var pe *platform.Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return platform.KindGeneral
}

// verdict is the one line that tells how a command ended, and how loud to
// say it: an error when the report says ok false (a rolled back apply, a
// failed compilation), else information.
func (k *call) verdict(ctx context.Context, obj *jsonx.Object) (string, protocol.MessageType) {
	if obj == nil {
		return k.title + ": " + i18n.T(ctx, "lsp.verdict-done"), protocol.MessageTypeInfo
	}
	ok, hasOK := obj.Value("ok").(bool)
	if !hasOK {
		return k.title + ": " + i18n.T(ctx, "lsp.verdict-done"), protocol.MessageTypeInfo
	}
	switch k.c.Name() {
	case "deploy":
		if ok {
			return i18n.T(ctx, "lsp.verdict-deploy-ok", "app", firstString(obj, "app-name", "app-id"), "version", firstString(obj, "applied-version", "version")), protocol.MessageTypeInfo
		}
		if applied, isBool := obj.Value("applied").(bool); isBool && !applied {
			return i18n.T(ctx, "lsp.verdict-deploy-rolled-back", "version", firstString(obj, "version"), "problem", firstProblem(ctx, obj)), protocol.MessageTypeError
		}
	case "probe":
		if ok {
			return i18n.T(ctx, "lsp.verdict-probe-ok", "project", obj.Str("vendor")+"/"+obj.Str("name")), protocol.MessageTypeInfo
		}
		if errs := jsonx.Objects(obj.Value("errors")); len(errs) > 0 {
			return i18n.T(ctx, "lsp.verdict-probe-errors", "count", len(errs), "problem", errorLine(errs[0])), protocol.MessageTypeError
		}
	}
	if ok {
		return k.title + ": " + i18n.T(ctx, "lsp.verdict-done"), protocol.MessageTypeInfo
	}
	return i18n.T(ctx, "lsp.verdict-failed", "command", k.title, "problem", firstProblem(ctx, obj)), protocol.MessageTypeError
}

func firstString(obj *jsonx.Object, keys ...string) string {
	for _, k := range keys {
		if s := obj.Str(k); s != "" {
			return s
		}
	}
	return ""
}

// firstProblem is the first line that explains a failed report.
func firstProblem(ctx context.Context, obj *jsonx.Object) string {
	for _, key := range []string{"problems-lines", "problems", "messages"} {
		if list, _ := obj.Value(key).([]any); len(list) > 0 {
			if s, ok := list[0].(string); ok && s != "" {
				return s
			}
		}
		if list, _ := obj.Value(key).([]string); len(list) > 0 && list[0] != "" {
			return list[0]
		}
	}
	if errs := jsonx.Objects(obj.Value("errors")); len(errs) > 0 {
		return errorLine(errs[0])
	}
	for _, key := range []string{"error", "hint"} {
		if s := obj.Str(key); s != "" {
			return s
		}
	}
	return i18n.T(ctx, "lsp.verdict-no-detail")
}

// errorLine is "file:line:column: message" of a probe error item.
func errorLine(e *jsonx.Object) string {
	return e.Str("file") + ":" + jsonString(e.Value("line")) + ":" + jsonString(e.Value("column")) + ": " + e.Str("message")
}

func jsonString(v any) string {
	b, err := jsonx.Compact(v)
	if err != nil {
		return ""
	}
	return strings.Trim(string(b), `"`)
}

// showMessage and logMessage notify the editor; a write error means the
// editor is gone and is not worth reporting.
func (s *Server) showMessage(kind protocol.MessageType, text string) {
	_ = s.conn.Notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: kind, Message: text})
}

func (s *Server) logMessage(kind protocol.MessageType, text string) {
	_ = s.conn.Notify(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: kind, Message: text})
}

func isProbe(c *command.Command) bool  { return c.Name() == "probe" }
func isDeploy(c *command.Command) bool { return c.Name() == "deploy" }
