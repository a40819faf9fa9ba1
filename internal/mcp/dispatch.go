package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// The dispatcher answers the protocol's methods for both transports: the
// handshake (initialize, or server/discover for 2026-07-28 and later),
// the lists, tools/call, resources/read and prompts/get. The transports,
// sessions and cancellation were already the server's own; mcp-go's
// server package is not used because it links a JSON Schema compiler
// whose package initialisation costs every elemctl start about 10 ms,
// whatever the command. mcp-go's mcp package still gives the messages'
// types, so the JSON on the wire is the library's.

type (
	toolHandler     func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error)
	resourceHandler func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error)
	promptHandler   func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error)
)

// offers are what the server offers of one kind (tools, prompts,
// resources, resource templates) by name, each with its handler, and the
// filter that narrows them to what a request's caller may use (a read
// token sees the read-only ones); a hidden one is answered as an unknown
// one.
type offers[T mcpgo.Named, H any] struct {
	mu      sync.RWMutex
	byName  map[string]offer[T, H]
	visible func(context.Context, []T) []T
}

type offer[T mcpgo.Named, H any] struct {
	item   T
	handle H
}

func (o *offers[T, H]) add(item T, handle H) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byName == nil {
		o.byName = map[string]offer[T, H]{}
	}
	o.byName[item.GetName()] = offer[T, H]{item: item, handle: handle}
}

// sorted is every offer, by name.
func (o *offers[T, H]) sorted() []offer[T, H] {
	o.mu.RLock()
	all := make([]offer[T, H], 0, len(o.byName))
	for _, e := range o.byName {
		all = append(all, e)
	}
	o.mu.RUnlock()
	sort.Slice(all, func(i, j int) bool { return all[i].item.GetName() < all[j].item.GetName() })
	return all
}

// list is what the request's caller sees, sorted by name.
func (o *offers[T, H]) list(ctx context.Context) []T {
	all := o.sorted()
	items := make([]T, len(all))
	for i, e := range all {
		items[i] = e.item
	}
	if o.visible != nil {
		items = o.visible(ctx, items)
	}
	return items
}

// each calls f with every offer, by name – the order the lists show, so
// that of two templates matching one address the same one always reads
// it – until f says stop.
func (o *offers[T, H]) each(f func(offer[T, H]) (stop bool)) {
	for _, e := range o.sorted() {
		if f(e) {
			return
		}
	}
}

// find is the offer called name, if the request's caller sees it.
func (o *offers[T, H]) find(ctx context.Context, name string) (offer[T, H], bool) {
	o.mu.RLock()
	e, ok := o.byName[name]
	o.mu.RUnlock()
	if ok && o.visible != nil {
		ok = len(o.visible(ctx, []T{e.item})) == 1
	}
	return e, ok
}

// dispatcher holds what the server offers and answers requests for it.
type dispatcher struct {
	info         mcpgo.Implementation
	instructions string
	tools        offers[mcpgo.Tool, toolHandler]
	prompts      offers[mcpgo.Prompt, promptHandler]
	resources    offers[mcpgo.Resource, resourceHandler]
	templates    offers[mcpgo.ResourceTemplate, resourceHandler]
	// instructionsFor adds to the instructions what the request's
	// transport needs said (HTTP's env_file rule).
	instructionsFor func(ctx context.Context, base string) string
	// moreResources are the stand's own resources.
	moreResources func(ctx context.Context) []mcpgo.Resource

	mu sync.Mutex
	// clients hear that the tool list changed.
	clients map[*clientState]struct{}
}

func newDispatcher(name, version string) *dispatcher {
	return &dispatcher{
		info:    mcpgo.Implementation{Name: name, Version: version},
		clients: map[*clientState]struct{}{},
	}
}

// capabilities are the server's: a tool list that may change (plugins
// added at run time), resources and prompts; no logging.
func (d *dispatcher) capabilities() mcpgo.ServerCapabilities {
	var c mcpgo.ServerCapabilities
	c.Tools = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	c.Resources = &struct {
		Subscribe   bool `json:"subscribe,omitempty"`
		ListChanged bool `json:"listChanged,omitempty"`
	}{}
	c.Prompts = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}
	return c
}

func (d *dispatcher) addTool(t mcpgo.Tool, call toolHandler) {
	d.tools.add(t, call)
	d.mu.Lock()
	clients := make([]*clientState, 0, len(d.clients))
	for c := range d.clients {
		clients = append(clients, c)
	}
	d.mu.Unlock()
	changed := mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: mcpgo.MethodNotificationToolsListChanged}}
	for _, c := range clients {
		select {
		case c.broadcast <- changed:
		default: // a client that does not read loses the hint, not the server
		}
	}
}

// join and leave keep the clients that hear of a changed tool list.
func (d *dispatcher) join(c *clientState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clients[c] = struct{}{}
}

func (d *dispatcher) leave(c *clientState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.clients, c)
}

// requestError is a request's JSON-RPC error.
type requestError struct {
	code int
	text string
}

func failure(code int, format string, args ...any) *requestError {
	return &requestError{code: code, text: fmt.Sprintf(format, args...)}
}

// The refusals of a method by the protocol version (the method's name
// goes in) and of a request of 2026-07-28 that does not say what its
// client can do.
const (
	removedInModern    = "%q was removed in protocol version " + mcpgo.ProtocolVersion20260728
	onlyInModern       = "%q requires protocol version " + mcpgo.ProtocolVersion20260728 + " or later"
	noClientCapability = "missing or invalid _meta field " + mcpgo.MetaKeyClientCapabilities
)

// protocolKey keeps a request's protocol version in its context.
type protocolKey struct{}

// requestProtocolVersion is the version a request declared in _meta (the
// protocol without sessions), or "".
func requestProtocolVersion(ctx context.Context) string {
	v, _ := ctx.Value(protocolKey{}).(string)
	return v
}

// sessionKey keeps the session of a request in its context.
type sessionKey struct{}

func withSession(ctx context.Context, rs *requestSession) context.Context {
	return context.WithValue(ctx, sessionKey{}, rs)
}

// notifyClient sends a notification of the request ctx belongs to.
func notifyClient(ctx context.Context, method string, params map[string]any) error {
	return sendNote(ctx, mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: method, Params: mcpgo.NotificationParams{AdditionalFields: params}}})
}

// sendNote queues a notification of the request ctx belongs to; it waits
// for nobody: with the request's queue full the notification is dropped.
func sendNote(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	rs, _ := ctx.Value(sessionKey{}).(*requestSession)
	if rs == nil {
		return errors.New("no session to notify")
	}
	select {
	case rs.notes <- n:
		return nil
	default:
		return errors.New("the request's notifications are not being read")
	}
}

// handle answers one request of the client; a notification (nothing to
// answer) gives nil.
func (d *dispatcher) handle(ctx context.Context, m *message) mcpgo.JSONRPCMessage {
	if m.JSONRPC != mcpgo.JSONRPC_VERSION {
		return errorResponse(m, mcpgo.INVALID_REQUEST, "Invalid JSON-RPC version")
	}
	if !m.isRequest() {
		// A notification: nothing answers one but a cancellation, which
		// the exchange handles.
		return nil
	}
	var meta struct {
		Meta *mcpgo.Meta `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &meta)
	version := meta.Meta.ProtocolVersion()
	modern := mcpgo.IsModernProtocol(version)
	if modern {
		if meta.Meta.ClientCapabilities() == nil {
			return errorResponse(m, mcpgo.INVALID_PARAMS, noClientCapability)
		}
		if !mcpgo.IsValidProtocolVersion(version) {
			e := mcpgo.UnsupportedProtocolVersionError{Version: version, Supported: mcpgo.ValidProtocolVersions}.JSONRPCError()
			e.ID = m.requestID()
			return e
		}
	}
	ctx = context.WithValue(ctx, protocolKey{}, version)

	result, rerr := d.answer(ctx, m, modern)
	if rerr != nil {
		return errorResponse(m, rerr.code, rerr.text)
	}
	if modern {
		decorate(result, mcpgo.MCPMethod(m.Method), d.info)
	}
	return mcpgo.NewJSONRPCResultResponse(m.requestID(), result)
}

// decorate stamps what 2026-07-28 requires of every result: its type and
// the server's identity, and a cache hint on lists and reads.
func decorate(result any, method mcpgo.MCPMethod, info mcpgo.Implementation) {
	r, ok := result.(mcpgo.ResultMetadata)
	if !ok {
		return
	}
	if r.GetResultType() == "" {
		r.SetResultType(mcpgo.ResultTypeComplete)
	}
	if meta := r.EnsureResultMeta(); meta != nil && meta.ServerInfo() == nil {
		meta.SetServerInfo(info)
	}
	switch method {
	case mcpgo.MethodToolsList, mcpgo.MethodPromptsList, mcpgo.MethodResourcesList,
		mcpgo.MethodResourcesTemplatesList, mcpgo.MethodResourcesRead, mcpgo.MethodServerDiscover:
		if c, ok := result.(mcpgo.CacheHintSetter); ok {
			c.SetCacheHints(0, mcpgo.CacheScopePrivate)
		}
	}
}

// parse reads the whole request into its type.
func parse(m *message, into any) *requestError {
	if err := json.Unmarshal(m.raw, into); err != nil {
		return failure(mcpgo.INVALID_REQUEST, "unparsable %s request: %s", m.Method, err)
	}
	return nil
}

// answer runs the method; the result is a pointer to the method's result
// type.
func (d *dispatcher) answer(ctx context.Context, m *message, modern bool) (any, *requestError) {
	method := mcpgo.MCPMethod(m.Method)
	switch method {
	case mcpgo.MethodInitialize:
		if modern {
			return nil, failure(mcpgo.METHOD_NOT_FOUND, removedInModern, m.Method)
		}
		var req mcpgo.InitializeRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return &mcpgo.InitializeResult{
			ProtocolVersion: mcpgo.NegotiateLegacyVersion(req.Params.ProtocolVersion),
			ServerInfo:      d.info,
			Capabilities:    d.capabilities(),
			Instructions:    d.instructionsFor(ctx, d.instructions),
		}, nil
	case mcpgo.MethodServerDiscover:
		if !modern {
			return nil, failure(mcpgo.METHOD_NOT_FOUND, onlyInModern, m.Method)
		}
		var req mcpgo.DiscoverRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return &mcpgo.DiscoverResult{
			SupportedVersions: mcpgo.ValidProtocolVersions,
			Capabilities:      d.capabilities(),
			Instructions:      d.instructionsFor(ctx, d.instructions),
		}, nil
	case mcpgo.MethodPing:
		if modern {
			return nil, failure(mcpgo.METHOD_NOT_FOUND, removedInModern, m.Method)
		}
		return &mcpgo.EmptyResult{}, nil
	case mcpgo.MethodSubscriptionsListen:
		if !modern {
			return nil, failure(mcpgo.METHOD_NOT_FOUND, onlyInModern, m.Method)
		}
		return d.listen(ctx, m)
	case mcpgo.MethodSetLogLevel, mcpgo.MethodResourcesSubscribe, mcpgo.MethodResourcesUnsubscribe, mcpgo.MethodTasksList:
		if modern {
			return nil, failure(mcpgo.METHOD_NOT_FOUND, removedInModern, m.Method)
		}
		return nil, unsupported(method)
	case mcpgo.MethodTasksGet, mcpgo.MethodTasksResult, mcpgo.MethodTasksCancel, mcpgo.MethodCompletionComplete:
		return nil, unsupported(method)
	case mcpgo.MethodToolsList, mcpgo.MethodPromptsList, mcpgo.MethodResourcesList, mcpgo.MethodResourcesTemplatesList:
		var req mcpgo.PaginatedRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return d.list(ctx, method, req.Params.Cursor)
	case mcpgo.MethodToolsCall:
		var req mcpgo.CallToolRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return d.callTool(ctx, req)
	case mcpgo.MethodResourcesRead:
		var req mcpgo.ReadResourceRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return d.readResource(ctx, req)
	case mcpgo.MethodPromptsGet:
		var req mcpgo.GetPromptRequest
		if err := parse(m, &req); err != nil {
			return nil, err
		}
		return d.getPrompt(ctx, req)
	}
	return nil, failure(mcpgo.METHOD_NOT_FOUND, "Method %s not found", m.Method)
}

// list answers a list method from the client's cursor on; the stand's
// applications and projects join the resources' first page.
func (d *dispatcher) list(ctx context.Context, method mcpgo.MCPMethod, cursor mcpgo.Cursor) (any, *requestError) {
	var err *requestError
	switch method {
	case mcpgo.MethodToolsList:
		res := &mcpgo.ListToolsResult{}
		res.Tools, err = page(cursor, d.tools.list(ctx))
		return res, err
	case mcpgo.MethodPromptsList:
		res := &mcpgo.ListPromptsResult{}
		res.Prompts, err = page(cursor, d.prompts.list(ctx))
		return res, err
	case mcpgo.MethodResourcesTemplatesList:
		res := &mcpgo.ListResourceTemplatesResult{}
		res.ResourceTemplates, err = page(cursor, d.templates.list(ctx))
		return res, err
	}
	res := &mcpgo.ListResourcesResult{}
	if res.Resources, err = page(cursor, d.resources.list(ctx)); err == nil && cursor == "" && d.moreResources != nil {
		res.Resources = append(res.Resources, d.moreResources(ctx)...)
	}
	return res, err
}

// unsupported answers a method of a capability the server does not have.
func unsupported(method mcpgo.MCPMethod) *requestError {
	family := map[mcpgo.MCPMethod]string{
		mcpgo.MethodSetLogLevel:          "logging",
		mcpgo.MethodResourcesSubscribe:   "resources subscribe",
		mcpgo.MethodResourcesUnsubscribe: "resources unsubscribe",
		mcpgo.MethodCompletionComplete:   "completions",
	}[method]
	if family == "" {
		family = "tasks"
	}
	return failure(mcpgo.METHOD_NOT_FOUND, "%s not supported", family)
}

// page is a list from a cursor on. The server gives every list whole, so
// a cursor only says where a client resumes: after the item so named
// (base64, as clients of paged servers send it).
func page[T mcpgo.Named](cursor mcpgo.Cursor, all []T) ([]T, *requestError) {
	start := 0
	if cursor != "" {
		name, err := decodeCursor(cursor)
		if err != nil {
			return nil, &requestError{code: mcpgo.INVALID_PARAMS, text: err.Error()}
		}
		start = sort.Search(len(all), func(i int) bool { return all[i].GetName() > name })
	}
	out := all[start:]
	if out == nil {
		out = []T{}
	}
	return out, nil
}

// invoke runs the handler of the offer called name, if the request's
// caller sees it; kind names the offer in the error (tool, prompt).
func invoke[T mcpgo.Named, H any, R any](ctx context.Context, o *offers[T, H], kind, name string, call func(H) (*R, error)) (*R, *requestError) {
	e, ok := o.find(ctx, name)
	if !ok {
		return nil, failure(mcpgo.INVALID_PARAMS, "%s '%s' not found: %s not found", kind, name, kind)
	}
	res, err := call(e.handle)
	if err != nil {
		return nil, &requestError{code: mcpgo.INTERNAL_ERROR, text: err.Error()}
	}
	if res == nil {
		return nil, failure(mcpgo.INTERNAL_ERROR, "%s %q returned no result", kind, name)
	}
	return res, nil
}

func (d *dispatcher) callTool(ctx context.Context, req mcpgo.CallToolRequest) (any, *requestError) {
	res, err := invoke(ctx, &d.tools, "tool", req.Params.Name, func(h toolHandler) (*mcpgo.CallToolResult, error) { return h(ctx, req) })
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (d *dispatcher) readResource(ctx context.Context, req mcpgo.ReadResourceRequest) (any, *requestError) {
	var read resourceHandler
	d.resources.each(func(r offer[mcpgo.Resource, resourceHandler]) bool {
		if r.item.URI == req.Params.URI {
			read = r.handle
		}
		return read != nil
	})
	if read == nil {
		d.templates.each(func(t offer[mcpgo.ResourceTemplate, resourceHandler]) bool {
			uri := t.item.URITemplate
			if uri == nil || !uri.Regexp().MatchString(req.Params.URI) {
				return false
			}
			read = t.handle
			vars := uri.Match(req.Params.URI)
			req.Params.Arguments = make(map[string]any, len(vars))
			for name, v := range vars {
				req.Params.Arguments[name] = v.V
			}
			return true
		})
	}
	if read == nil {
		return nil, failure(resourceNotFoundCode(ctx), "handler not found for resource URI '%s': resource not found", req.Params.URI)
	}
	contents, err := read(ctx, req)
	if err != nil {
		return nil, &requestError{code: mcpgo.INTERNAL_ERROR, text: err.Error()}
	}
	if contents == nil {
		contents = []mcpgo.ResourceContents{}
	}
	return &mcpgo.ReadResourceResult{Contents: contents}, nil
}

func (d *dispatcher) getPrompt(ctx context.Context, req mcpgo.GetPromptRequest) (any, *requestError) {
	res, err := invoke(ctx, &d.prompts, "prompt", req.Params.Name, func(h promptHandler) (*mcpgo.GetPromptResult, error) { return h(ctx, req) })
	if err != nil {
		return nil, err
	}
	if res.Messages == nil {
		withMessages := *res
		withMessages.Messages = []mcpgo.PromptMessage{}
		res = &withMessages
	}
	return res, nil
}

// listen is subscriptions/listen: the client opts in to notifications of
// its choice; of those the server sends only a changed tool list, and a
// client of the protocol without sessions has no list to watch between
// its requests, so the stream is acknowledged and held until the client
// closes it.
func (d *dispatcher) listen(ctx context.Context, m *message) (any, *requestError) {
	var req mcpgo.SubscriptionsListenRequest
	if err := parse(m, &req); err != nil {
		return nil, err
	}
	var allowed mcpgo.SubscriptionFilter
	allowed.ToolsListChanged = req.Params.Notifications.ToolsListChanged
	id := m.requestID()
	if err := notifyAcknowledged(ctx, id, allowed); err != nil {
		return nil, failure(mcpgo.INTERNAL_ERROR, "sending subscriptions/acknowledged: %s", err)
	}
	if !allowed.IsEmpty() {
		<-ctx.Done()
	}
	res := &mcpgo.SubscriptionsListenResult{}
	res.EnsureResultMeta().SetSubscriptionID(id)
	return res, nil
}

func notifyAcknowledged(ctx context.Context, id mcpgo.RequestId, allowed mcpgo.SubscriptionFilter) error {
	return sendNote(ctx, mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: mcpgo.MethodNotificationSubscriptionsAcknowledged,
			Params: mcpgo.NotificationParams{
				Meta:             map[string]any{mcpgo.MetaKeySubscriptionID: id},
				AdditionalFields: map[string]any{"notifications": allowed},
			}}})
}

// decodeCursor is the item name a cursor names.
func decodeCursor(cursor mcpgo.Cursor) (string, error) {
	name, err := base64.StdEncoding.DecodeString(string(cursor))
	return string(name), err
}
