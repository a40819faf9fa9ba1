package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// answer runs one request of the plugin and sends the reply.
func (s *session) answer(ctx context.Context, cc *command.Context, m *protocol.Message) {
	v, perr := s.h.call(ctx, cc, m.Method, m.Params)
	if perr != nil {
		_ = s.w.ReplyError(m.ID, perr)
		return
	}
	_ = s.w.Reply(m.ID, v)
}

func elemctlError(err error) *protocol.Error {
	data, _ := jsonx.Compact(platform.ErrorObject(err))
	return &protocol.Error{Code: protocol.CodeElemctl, Message: err.Error(), Data: data}
}

func paramsError(ctx context.Context, method, key string, args ...any) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: method + ": " + i18n.T(ctx, key, args...)}
}

// call runs a host call: a core operation by its MCP tool name, or a raw
// Console API call. Both use the client of the running command, so the
// plugin never holds credentials. An operation binds its parameters as a
// tool call does and answers in the tool dialect, whatever face runs the
// plugin; its progress joins the command's.
func (h *host) call(ctx context.Context, cc *command.Context, method string, params json.RawMessage) (any, *protocol.Error) {
	if method == protocol.MethodConsole {
		return consoleCall(ctx, cc, params)
	}
	var cmd *command.Command
	if h.catalog != nil {
		cmd = h.catalog.Tool(method)
	}
	if cmd == nil || cmd.Source != "" {
		return nil, &protocol.Error{Code: protocol.CodeMethodNotFound, Message: i18n.T(ctx, "plugins.host-call-unknown", "method", method)}
	}
	face := command.JSONFace{Naming: command.ToolNames, Called: method,
		ReadOwn: func(ctx context.Context, given *jsonx.Object) error {
			if given.Has("env_file") {
				return paramsError(ctx, method, "plugins.host-call-env-file")
			}
			return nil
		}}
	answer, err := command.Invoke(ctx, cmd, cc.Nested(cmd, command.ToolNames), face, params)
	var refused *command.ArgumentsError
	switch {
	case errors.As(err, &refused):
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, &protocol.Error{Code: protocol.CodeInvalidParams, Message: err.Error()}
	case err != nil:
		return nil, elemctlError(err)
	}
	return answer.Value, nil
}

// consolePath is a path under the API prefix: plain segments only, so a
// call cannot climb out of the Console API (to the token endpoint, say).
var consolePath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+/?$`) })

func safeConsolePath(p string) bool {
	if !consolePath().MatchString(p) {
		return false
	}
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		dec, err := url.PathUnescape(seg)
		if err != nil || dec == "." || dec == ".." || strings.ContainsAny(dec, "/\\") {
			return false
		}
	}
	return true
}

func consoleCall(ctx context.Context, cc *command.Context, params json.RawMessage) (any, *protocol.Error) {
	const method = protocol.MethodConsole
	var p protocol.ConsoleParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, paramsError(ctx, method, "plugins.host-call-params-object")
	}
	p.Method = strings.ToUpper(strings.TrimSpace(p.Method))
	if p.Method == "" {
		p.Method = http.MethodGet
	}
	switch p.Method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return nil, paramsError(ctx, method, "plugins.console-method", "method", p.Method)
	}
	if !safeConsolePath(p.Path) {
		return nil, paramsError(ctx, method, "plugins.console-path", "path", p.Path)
	}
	switch p.API {
	case "", platform.API20, platform.API21:
	default:
		return nil, paramsError(ctx, method, "plugins.console-api", "api", p.API)
	}
	q := url.Values{}
	for k, v := range p.Query {
		switch x := v.(type) {
		case string:
			q.Add(k, x)
		case []any:
			for _, e := range x {
				q.Add(k, fmt.Sprint(e))
			}
		case nil:
		default:
			q.Add(k, fmt.Sprint(x))
		}
	}
	req := platform.Request{Method: p.Method, Path: p.Path, API: p.API, Query: q}
	if len(p.Body) > 0 && string(p.Body) != "null" {
		body, err := jsonx.Decode(p.Body)
		if err != nil {
			return nil, paramsError(ctx, method, "plugins.host-call-params-object")
		}
		req.JSON = body
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, elemctlError(err)
	}
	v, err := cl.Call(ctx, req)
	if err != nil {
		return nil, elemctlError(err)
	}
	return v, nil
}
