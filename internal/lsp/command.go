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
	raw, err := oneArgument(ctx, p.Arguments)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	k := &call{s: s, c: c, id: id, title: c.Title()}
	k.run = &command.Call{
		Command: c, Catalog: s.opts.Catalog, Surface: command.LSP, Naming: command.CamelNames,
		FaceEnvFile: s.opts.EnvFile, Stands: s.clients,
		Getenv: s.opts.Getenv, Version: s.opts.Version,
		Log: k.log, Status: k.status, Diagnostic: s.diagnostic, Secrets: []string{s.opts.Overrides.ClientSecret},
	}
	return k.execute(ctx, p.WorkDoneToken, callFace(c, p.Command, s.defaultDir(), k.run), raw)
}

// call is one run of a command.
type call struct {
	s     *Server
	c     *command.Command
	id    string
	title string
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
// The answer's headline ends the progress (and is shown when the command
// is slow or failed), its diagnostics go on the project's files.
func (k *call) execute(ctx context.Context, token json.RawMessage, face command.JSONFace, raw []byte) (any, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answer, err := command.Invoke(ctx, k.c, runner(func(ctx context.Context, in command.Values) (any, error) {
		// The progress begins once the arguments are bound: a refused
		// call shows none.
		k.prog = k.s.startProgress(ctx, token, k.title, k.c.Slow, cancel)
		return k.run.Run(ctx, in)
	}), face, raw)
	k.s.publish(k.title, answer.Diagnostics)
	if err != nil {
		return nil, k.failed(ctx, err)
	}
	out, mErr := jsonx.Compact(answer.Value)
	if mErr != nil {
		return nil, k.failed(ctx, mErr)
	}
	k.prog.end(answer.Headline)
	if answer.Headline != "" && (k.c.Slow || answer.Severity != command.Information) {
		kind := protocol.MessageTypeInfo
		if answer.Severity == command.Failure {
			kind = protocol.MessageTypeError
		}
		k.s.showMessage(kind, answer.Headline)
	}
	return json.RawMessage(out), nil
}

// runner is a function that runs bound values.
type runner func(ctx context.Context, in command.Values) (any, error)

func (r runner) Run(ctx context.Context, in command.Values) (any, error) { return r(ctx, in) }

// failed ends the progress of a failed command and builds its error reply.
func (k *call) failed(ctx context.Context, err error) error {
	cancelled := ctx.Err() != nil && errors.Is(err, context.Canceled)
	var jerr *jsonrpc2.Error
	var panicked *command.PanicError
	var refused *command.ArgumentsError
	msg := k.run.Scrub(err.Error())
	switch {
	case errors.As(err, &refused):
		// Nothing ran: no progress to end, nothing to show.
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	case errors.As(err, &panicked):
		jerr = jsonrpc2.NewError(jsonrpc2.InternalError, msg)
	case cancelled:
		if errors.Is(err, context.Canceled) && strings.TrimSpace(msg) == context.Canceled.Error() {
			msg = i18n.T(ctx, "lsp.cancelled", "command", k.title)
		}
		jerr = jsonrpc2.NewError(CodeRequestCancelled, msg)
	default:
		jerr = jsonrpc2.NewError(CodeRequestFailed, msg)
		obj := platform.ErrorObject(err)
		obj.Set("kind", errorKind(err))
		if data, e := jsonx.Compact(obj); e == nil {
			raw := json.RawMessage(k.run.Scrub(string(data)))
			jerr.Data = &raw
		}
	}
	k.prog.end(k.title + ": " + jerr.Message)
	if k.c.Slow {
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

// showMessage and logMessage notify the editor; a write error means the
// editor is gone and is not worth reporting.
func (s *Server) showMessage(kind protocol.MessageType, text string) {
	_ = s.conn.Notify(context.Background(), protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: kind, Message: text})
}

func (s *Server) logMessage(kind protocol.MessageType, text string) {
	_ = s.conn.Notify(context.Background(), protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: kind, Message: text})
}
