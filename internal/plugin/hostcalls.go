package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
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

func paramsError(method, key string, args ...any) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeInvalidParams, Message: method + ": " + i18n.T(key, args...)}
}

// call runs a host call: a core operation by its MCP tool name, or a raw
// Console API call. Both use the client of the running command, so the
// plugin never holds credentials.
func (h *host) call(ctx context.Context, cc *command.Context, method string, params json.RawMessage) (any, *protocol.Error) {
	if method == protocol.MethodConsole {
		return consoleCall(ctx, cc, params)
	}
	var cmd *command.Command
	if h.catalog != nil {
		cmd = h.catalog.Tool(method)
	}
	if cmd == nil || cmd.Source != "" {
		return nil, &protocol.Error{Code: protocol.CodeMethodNotFound, Message: i18n.T("plugins.host-call-unknown", "method", method)}
	}
	in, perr := toolValues(method, cmd, params)
	if perr != nil {
		return nil, perr
	}
	// The operation answers in its MCP shape, whatever face runs the
	// plugin; its progress joins the command's.
	nested := &command.Context{
		Surface: command.MCP, Getenv: cc.Getenv, Dir: cc.Dir, EnvFile: cc.EnvFile, Version: cc.Version,
		LogFunc: cc.Log, StatusFunc: cc.Status, ClientFunc: cc.ClientFunc, ConfigFunc: cc.ConfigFunc,
	}
	answer, err := cmd.Run(ctx, nested, in)
	if err != nil {
		return nil, elemctlError(err)
	}
	return answer, nil
}

// toolValues turns the parameters of a host call into the values the
// operation reads, by the operation's MCP parameters.
func toolValues(method string, cmd *command.Command, params json.RawMessage) (command.Values, *protocol.Error) {
	in := command.NewValues()
	obj := &jsonx.Object{}
	if len(params) > 0 && string(params) != "null" {
		v, err := jsonx.Decode(params)
		o, ok := v.(*jsonx.Object)
		if err != nil || !ok {
			return in, paramsError(method, "plugins.host-call-params-object")
		}
		obj = o
	}
	args := cmd.MCPArgs()
	known := map[string]bool{}
	var names []string
	for _, a := range args {
		known[a.Name] = true
		names = append(names, a.Name)
	}
	sort.Strings(names)
	for _, k := range obj.Keys() {
		if k == "env_file" {
			return in, paramsError(method, "plugins.host-call-env-file")
		}
		if !known[k] {
			return in, paramsError(method, "plugins.host-call-param-unknown", "name", k, "names", strings.Join(names, ", "))
		}
	}
	for _, a := range args {
		key := a.KeyName()
		raw, given := obj.Get(a.Name)
		if !given || raw == nil {
			if a.Required {
				return in, paramsError(method, "plugins.host-call-param-missing", "name", a.Name)
			}
			if a.Default != nil {
				in.Default(key, a.Default)
			}
			continue
		}
		v, ok := toolValue(a, raw)
		if !ok {
			return in, paramsError(method, "plugins.host-call-param-type", "name", a.Name, "type", string(a.Type))
		}
		in.Set(key, v)
	}
	return in, nil
}

// toolValue converts one parameter to the form faces hand operations:
// string, int, float64, bool, or []string for lists.
func toolValue(a command.Argument, raw any) (any, bool) {
	typ := string(a.Type)
	if list, isList := raw.([]any); isList {
		if !a.Multiple && !a.OrList {
			return nil, false
		}
		if typ == "" || typ == "str" {
			out, ok := manifest.StringList(list)
			if !ok {
				return nil, false
			}
			return out, true
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			v, ok := scalar(typ, e)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	if a.Multiple && !a.OrList {
		v, ok := scalar(typ, raw)
		if !ok {
			return nil, false
		}
		if s, isStr := v.(string); isStr {
			return []string{s}, true
		}
		return []any{v}, true
	}
	return scalar(typ, raw)
}

func scalar(typ string, raw any) (any, bool) {
	if typ == "" {
		typ = "str"
	}
	if typ == "str" {
		s, ok := raw.(string)
		return s, ok
	}
	v, ok := manifest.Coerce(typ, raw)
	if !ok {
		return nil, false
	}
	if n, isInt := v.(int64); isInt {
		return int(n), true
	}
	return v, true
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
		return nil, paramsError(method, "plugins.host-call-params-object")
	}
	p.Method = strings.ToUpper(strings.TrimSpace(p.Method))
	if p.Method == "" {
		p.Method = http.MethodGet
	}
	switch p.Method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return nil, paramsError(method, "plugins.console-method", "method", p.Method)
	}
	if !safeConsolePath(p.Path) {
		return nil, paramsError(method, "plugins.console-path", "path", p.Path)
	}
	switch p.API {
	case "", platform.API20, platform.API21:
	default:
		return nil, paramsError(method, "plugins.console-api", "api", p.API)
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
			return nil, paramsError(method, "plugins.host-call-params-object")
		}
		req.JSON = body
	}
	cl, err := cc.Client()
	if err != nil {
		return nil, elemctlError(err)
	}
	v, err := cl.Call(ctx, req)
	if err != nil {
		return nil, elemctlError(err)
	}
	return v, nil
}
