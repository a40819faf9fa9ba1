package mcp

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// EndpointPath is the one path the HTTP transport answers on.
const EndpointPath = "/mcp"

// headerSessionID carries the session of streamable HTTP.
const headerSessionID = "Mcp-Session-Id"

// Defaults of HTTPOptions.
const (
	// DefaultShutdownGrace bounds the wait for interrupted calls to clean
	// up (a probe deletes its application) when the server stops.
	DefaultShutdownGrace = time.Minute
	// DefaultSessionIdleTTL is how long a session may stay silent (no
	// request, no call running, no stream open) before the server forgets
	// it: clients that vanish without DELETE do not pile up, and one that
	// comes back after a break starts a new session.
	DefaultSessionIdleTTL = 30 * time.Minute
	// DefaultMaxSessions bounds the sessions open at once: a team's agents
	// at full work stay under the default memory limit with this many.
	DefaultMaxSessions = 500
	// DefaultMaxSessionsPerToken bounds one token's sessions (one person's
	// agents), so one of them cannot take every place.
	DefaultMaxSessionsPerToken = 100
	// DefaultMaxCalls bounds the calls running at once (tool calls and
	// resource reads: each holds a platform answer in memory).
	DefaultMaxCalls = 16
	// DefaultQueueWait bounds how long a call waits for a place before it
	// is refused with 503.
	DefaultQueueWait = 10 * time.Second
	// DefaultMaxBodyBytes bounds one request: tool arguments are small.
	DefaultMaxBodyBytes = 4 << 20
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is a bearer token of full scope (ELEMCTL_MCP_TOKEN); Tokens
	// are tokens with their scopes (a token file). At least one is
	// required, each at least MinTokenLength characters.
	Token  string
	Tokens []Token
	// EnvDir is the directory whose .env files a call over HTTP may name
	// in env_file; "" allows none beyond the server's own stand. A
	// relative EnvDir counts from Options.Dir.
	EnvDir string
	// TLSCertFile and TLSKeyFile serve HTTPS when both are given.
	TLSCertFile, TLSKeyFile string
	// ShutdownGrace bounds the wait for the cleanup of interrupted calls
	// at shutdown; 0 means DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// Force, when it closes or receives, ends that wait at once (a second
	// interrupt).
	Force <-chan struct{}
	// SessionIdleTTL is how long an idle session is kept; 0 means
	// DefaultSessionIdleTTL.
	SessionIdleTTL time.Duration
	// MaxSessions and MaxSessionsPerToken bound the sessions; 0 means the
	// defaults.
	MaxSessions, MaxSessionsPerToken int
	// MaxCalls bounds the calls running at once, CallQueue the calls
	// waiting for a place (0: four per place) and QueueWait how long one
	// waits; 0 means the defaults.
	MaxCalls, CallQueue int
	QueueWait           time.Duration
	// MaxBodyBytes bounds a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MemoryLimit is the memory the server is to stay under, in bytes;
	// calls are refused while the live heap passes half of it. 0 means the
	// process's soft limit (GOMEMLIMIT, debug.SetMemoryLimit), negative
	// none.
	MemoryLimit int64
	// Stateless serves without sessions: no Mcp-Session-Id, no GET
	// stream, every request on its own, so replicas can stand behind any
	// load balancer.
	Stateless bool
	// AllowHosts are Host names accepted beside the listen address (a
	// name the server is reached by, a TLS proxy's); AllowOrigins are
	// browser origins accepted beside loopback ones.
	AllowHosts, AllowOrigins []string
}

// HTTPServer is the streamable HTTP transport of a Server, ready to serve.
type HTTPServer struct {
	s         *Server
	o         HTTPOptions
	tlsConfig *tls.Config
	remote    *remote
	tokens    *tokenSet
	sessions  *sessionTable
	gate      *callGate
	bodies    *bodyGate
	guard     *hostGuard
	running   calls
	// loose are the calls of requests without a session, by token.
	looseMu sync.Mutex
	loose   map[*Token]*inflight
	// stopping is closed when the server stops: the GET streams end.
	stopping chan struct{}
	// logged limits the server log to one line a minute per refusal.
	logged sync.Map
}

// NewHTTP checks the options (tokens, --env-dir, certificate) and builds
// the HTTP transport; nothing listens yet.
func (s *Server) NewHTTP(ctx context.Context, o HTTPOptions) (*HTTPServer, error) {
	tokens := append([]Token(nil), o.Tokens...)
	if o.Token != "" || len(tokens) == 0 {
		if err := CheckToken(ctx, o.Token, "--token-file / ELEMCTL_MCP_TOKEN"); err != nil {
			return nil, err
		}
		tokens = append(tokens, Token{Value: o.Token, Scope: ScopeFull, Name: "ELEMCTL_MCP_TOKEN"})
	}
	for _, t := range tokens {
		if err := CheckToken(ctx, t.Value, t.Name); err != nil {
			return nil, err
		}
	}
	envDir, err := resolveEnvDir(ctx, o.EnvDir, s.opts.Dir)
	if err != nil {
		return nil, err
	}
	h := &HTTPServer{s: s, tokens: newTokenSet(tokens), loose: map[*Token]*inflight{}, stopping: make(chan struct{})}
	if o.TLSCertFile != "" || o.TLSKeyFile != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCertFile, o.TLSKeyFile)
		if err != nil {
			return nil, platform.ConfigErrorf(ctx, "mcp.http.tls-bad", "cert", o.TLSCertFile, "key", o.TLSKeyFile, "error", err.Error())
		}
		h.tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	guard, err := newHostGuard(ctx, o.AllowHosts, o.AllowOrigins)
	if err != nil {
		return nil, err
	}
	defaults(&o)
	h.o, h.remote, h.guard = o, &remote{envDir: envDir}, guard
	h.sessions = newSessionTable(o.MaxSessions, o.MaxSessionsPerToken, o.SessionIdleTTL, s.endSession)
	h.gate = newCallGate(o.MaxCalls, o.CallQueue, o.QueueWait, o.MemoryLimit)
	h.bodies = newBodyGate(o.QueueWait)
	return h, nil
}

func defaults(o *HTTPOptions) {
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	if o.SessionIdleTTL <= 0 {
		o.SessionIdleTTL = DefaultSessionIdleTTL
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxSessionsPerToken <= 0 {
		o.MaxSessionsPerToken = DefaultMaxSessionsPerToken
	}
	if o.MaxCalls <= 0 {
		o.MaxCalls = DefaultMaxCalls
	}
	if o.CallQueue <= 0 {
		o.CallQueue = 4 * o.MaxCalls
	}
	if o.QueueWait <= 0 {
		o.QueueWait = DefaultQueueWait
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
}

// ServeOverHTTP is NewHTTP and Serve.
func (s *Server) ServeOverHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	h, err := s.NewHTTP(ctx, o)
	if err != nil {
		ln.Close()
		return err
	}
	return h.Serve(ctx, ln)
}

// Serve speaks the MCP streamable HTTP transport on ln until ctx ends: the
// same tools, progress and cancellation as over stdio, behind the bearer
// tokens and the Origin and Host checks, with env_file limited to EnvDir
// and the bounds of the options. A client that disconnects mid-call
// cancels the call's context, like notifications/cancelled. When ctx ends
// the server stops accepting, cancels the calls in progress and waits (up
// to ShutdownGrace, or until Force) for their cleanup. Serve is called
// once.
func (h *HTTPServer) Serve(ctx context.Context, ln net.Listener) error {
	s, o := h.s, h.o
	ctx = s.withLang(ctx)
	h.guard.listening(ln.Addr())
	// Every session may hold a GET stream and a call's POST at once.
	ln = newLimitListener(ln, 2*o.MaxSessions)
	// Every request's context descends from base: cancelling it at
	// shutdown interrupts the calls in progress the way a client's
	// cancellation does, so they clean up.
	base, cancelCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelCalls()
	sweepDone := make(chan struct{})
	go h.sessions.sweepEvery(h.stopping, sweepDone)
	srv := &http.Server{
		Handler:           h,
		TLSConfig:         h.tlsConfig,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          log.New(lineWriter{s}, "", 0),
	}
	served := make(chan error, 1)
	go func() {
		if h.tlsConfig != nil {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(ln)
		}
	}()

	var serveErr error
	select {
	case serveErr = <-served:
	case <-ctx.Done():
	}
	if n := h.running.running(); n > 0 && serveErr == nil {
		s.diagnostic(i18n.T(ctx, "mcp.http.stopping", "count", n, "seconds", int(o.ShutdownGrace.Seconds())))
	}
	// Stop accepting, end the streams, interrupt the calls.
	close(h.stopping)
	<-sweepDone
	shutdown := make(chan error, 1)
	go func() { shutdown <- srv.Shutdown(context.Background()) }()
	cancelCalls()
	h.sessions.closeAll()

	wait := time.NewTimer(o.ShutdownGrace)
	defer wait.Stop()
	select {
	case <-h.running.wait():
	case <-o.Force:
		s.diagnostic(i18n.T(ctx, "mcp.http.shutdown-forced"))
	case <-wait.C:
		s.diagnostic(i18n.T(ctx, "mcp.http.shutdown-timeout", "seconds", int(o.ShutdownGrace.Seconds())))
	}
	srv.Close()
	<-shutdown
	if serveErr == nil {
		serveErr = <-served
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return nil
}

// Sessions is how many MCP sessions are open.
func (h *HTTPServer) Sessions() int { return h.sessions.live() }

// ServeHTTP answers one request: Origin and Host, bearer token, path, then
// the method of the streamable HTTP transport.
func (h *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := h.s.withLang(r.Context())
	if reason := h.guard.check(ctx, r); reason != "" {
		refuse(w, http.StatusForbidden, 0, reason)
		return
	}
	tok, presented := h.tokens.match(r)
	if tok == nil {
		unauthorized(w, presented)
		return
	}
	if r.URL.Path != EndpointPath {
		http.NotFound(w, r)
		return
	}
	ctx = withCaller(withRemote(ctx, h.remote), tok)
	switch r.Method {
	case http.MethodPost:
		h.post(ctx, w, r, tok)
	case http.MethodGet:
		h.get(ctx, w, r, tok)
	case http.MethodDelete:
		h.delete(ctx, w, r, tok)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		refuse(w, http.StatusMethodNotAllowed, 0, i18n.T(ctx, "mcp.http.method", "method", r.Method))
	}
}

// refuse answers with a status and a one-line reason.
func refuse(w http.ResponseWriter, status int, retryAfter int, reason string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(retryAfter))
	}
	w.WriteHeader(status)
	io.WriteString(w, strings.ReplaceAll(reason, "\n", " ")+"\n")
}

// refusal is a request the server will not take, and why.
type refusal struct {
	status     int
	retryAfter int // seconds, for 429 and 503
	reason     string
}

func (f *refusal) write(w http.ResponseWriter) { refuse(w, f.status, f.retryAfter, f.reason) }

// logRefusal tells the server log that the server is full, at most once a
// minute per kind of refusal, so an operator learns of it without a line
// per request.
func (h *HTTPServer) logRefusal(f *refusal) {
	kind := strconv.Itoa(f.status) + " " + f.reason
	now := time.Now()
	if last, ok := h.logged.Load(kind); ok && now.Sub(last.(time.Time)) < time.Minute {
		return
	}
	h.logged.Store(kind, now)
	h.s.diagnostic(i18n.TL(h.s.lang, "mcp.http.refused", "status", f.status, "reason", f.reason))
}

// modernRequest tells whether a request speaks the protocol without
// sessions (2026-07-28 and later), by its header or by the message.
func modernRequest(r *http.Request, m *message) bool {
	if mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) {
		return true
	}
	return m != nil && mcpgo.IsModernProtocol(m.protocolVersion())
}

// post handles one JSON-RPC message.
func (h *HTTPServer) post(ctx context.Context, w http.ResponseWriter, r *http.Request, tok *Token) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		refuse(w, http.StatusUnsupportedMediaType, 0, i18n.T(ctx, "mcp.http.content-type"))
		return
	}
	if r.ContentLength > h.o.MaxBodyBytes {
		h.tooLarge(ctx, w)
		return
	}
	// A client that sends its body slowly holds a connection: it gets
	// as long as a whole body takes on a slow line.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
	body, refused, err := h.bodies.read(ctx, http.MaxBytesReader(w, r.Body, h.o.MaxBodyBytes), r.ContentLength, h.o.MaxBodyBytes)
	_ = rc.SetReadDeadline(time.Time{})
	if refused != nil {
		h.logRefusal(refused)
		refused.write(w)
		return
	}
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.tooLarge(ctx, w)
		} else {
			refuse(w, http.StatusBadRequest, 0, i18n.T(ctx, "mcp.http.body-unread"))
		}
		return
	}
	m, err := parseMessage(body)
	if err != nil {
		code := mcpgo.PARSE_ERROR
		if errors.Is(err, errBatch) {
			code = mcpgo.INVALID_REQUEST
		}
		writeJSON(w, http.StatusBadRequest, mcpgo.NewJSONRPCError(mcpgo.NewRequestId(nil), code, err.Error(), nil), nil)
		return
	}
	if modernRequest(r, m) {
		h.postModern(ctx, w, r, m, tok)
		return
	}
	if v := r.Header.Get(mcpgo.HeaderProtocolVersion); v != "" && !mcpgo.IsValidProtocolVersion(v) {
		refuse(w, http.StatusBadRequest, 0, i18n.T(ctx, "mcp.http.protocol-version", "version", v))
		return
	}
	if m.isResponse() {
		// An answer to a server request: the server sends none.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.Method == "" {
		writeJSON(w, http.StatusBadRequest, errorResponse(m, mcpgo.INVALID_REQUEST, "the message has neither a method nor an id"), nil)
		return
	}

	var cl *clientState
	var opened *httpSession
	sessionID := r.Header.Get(headerSessionID)
	switch {
	case h.o.Stateless:
		cl = h.looseClient(tok)
	case m.Method == string(mcpgo.MethodInitialize) && m.isRequest():
		sess, refused := h.sessions.open(ctx, tok)
		if refused != nil {
			h.logRefusal(refused)
			refused.write(w)
			return
		}
		h.s.mcp.join(sess.clientState)
		opened, cl = sess, sess.clientState
	case sessionID == "":
		refuse(w, http.StatusBadRequest, 0, i18n.T(ctx, "mcp.http.session-required"))
		return
	default:
		sess := h.sessions.find(sessionID, tok)
		if sess == nil {
			refuse(w, http.StatusNotFound, 0, i18n.T(ctx, "mcp.http.session-unknown"))
			return
		}
		defer sess.touch()
		cl = sess.clientState
	}

	if !m.isRequest() {
		h.s.notification(cl, m)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.serveRequest(ctx, w, r, cl, m, opened, false)
}

// serveRequest runs one request through the gate of heavy calls and answers
// it on its own stream. A session the request opened ends when the request
// is refused or its answer cannot be sent.
func (h *HTTPServer) serveRequest(ctx context.Context, w http.ResponseWriter, r *http.Request, cl *clientState, m *message, opened *httpSession, modern bool) {
	if heavy(m.Method) {
		leave, refused := h.gate.enter(ctx)
		if refused != nil {
			if opened != nil {
				h.sessions.end(opened.id)
			}
			h.logRefusal(refused)
			refused.write(w)
			return
		}
		defer leave()
	}
	out := newHTTPSender(w, r, modern)
	if opened != nil {
		out.sessionID = opened.id
		out.failed = func() { h.sessions.end(opened.id) }
	}
	h.s.request(ctx, cl, m, out, &h.running)
	out.finish()
}

// postModern handles a message of the protocol without sessions: no
// Mcp-Session-Id, the version in the header and in _meta agreeing, the
// standard headers checked, JSON-RPC errors mapped onto HTTP statuses.
func (h *HTTPServer) postModern(ctx context.Context, w http.ResponseWriter, r *http.Request, m *message, tok *Token) {
	header, meta := r.Header.Get(mcpgo.HeaderProtocolVersion), m.protocolVersion()
	switch {
	case header == "":
		writeJSON(w, http.StatusBadRequest, errorResponse(m, mcpgo.HEADER_MISMATCH, mcpgo.HeaderProtocolVersion+" header is required for requests carrying "+mcpgo.MetaKeyProtocolVersion), nil)
		return
	case m.isRequest() && meta == "":
		writeJSON(w, http.StatusBadRequest, errorResponse(m, mcpgo.INVALID_PARAMS, "missing or invalid _meta field "+mcpgo.MetaKeyProtocolVersion), nil)
		return
	case meta != "" && header != meta:
		writeJSON(w, http.StatusBadRequest, errorResponse(m, mcpgo.HEADER_MISMATCH, fmt.Sprintf("%s header %s does not match %s %s", mcpgo.HeaderProtocolVersion, header, mcpgo.MetaKeyProtocolVersion, meta)), nil)
		return
	}
	if m.isRequest() {
		if err := mcpgo.ValidateStandardHeaders(r.Header.Get, meta, mcpgo.MCPMethod(m.Method), m.Params); err != nil {
			code := mcpgo.INVALID_PARAMS
			var mismatch mcpgo.HeaderMismatchError
			if errors.As(err, &mismatch) {
				code = mcpgo.HEADER_MISMATCH
			}
			writeJSON(w, http.StatusBadRequest, errorResponse(m, code, err.Error()), nil)
			return
		}
	}
	cl := h.looseClient(tok)
	if !m.isRequest() {
		if !m.isResponse() {
			h.s.notification(cl, m)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.serveRequest(ctx, w, r, cl, m, nil, true)
}

// bodyTimeout bounds the reading of a request body.
const bodyTimeout = 30 * time.Second

// tooLarge refuses a body over the limit.
func (h *HTTPServer) tooLarge(ctx context.Context, w http.ResponseWriter) {
	refuse(w, http.StatusRequestEntityTooLarge, 0, i18n.T(ctx, "mcp.http.body-too-large", "limit", byteSize(h.o.MaxBodyBytes)))
}

// byteSize is a size for people: MiB, KiB or bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// heavy are the methods that reach the platform and hold its answer: they
// take a place among the calls in flight.
func heavy(method string) bool {
	switch mcpgo.MCPMethod(method) {
	case mcpgo.MethodToolsCall, mcpgo.MethodResourcesRead, mcpgo.MethodResourcesList:
		return true
	}
	return false
}

// looseClient is a client for one request without a session; its calls
// are found by its token, so notifications/cancelled can reach them.
func (h *HTTPServer) looseClient(tok *Token) *clientState {
	h.looseMu.Lock()
	calls, ok := h.loose[tok]
	if !ok {
		calls = newInflight(false)
		h.loose[tok] = calls
	}
	h.looseMu.Unlock()
	return newClientState(calls)
}

// get opens the session's stream for messages that belong to no request.
func (h *HTTPServer) get(ctx context.Context, w http.ResponseWriter, r *http.Request, tok *Token) {
	if h.o.Stateless || mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) {
		w.Header().Set("Allow", "POST")
		refuse(w, http.StatusMethodNotAllowed, 0, i18n.T(ctx, "mcp.http.no-stream"))
		return
	}
	if !acceptsEventStream(r) {
		refuse(w, http.StatusNotAcceptable, 0, i18n.T(ctx, "mcp.http.accept-stream"))
		return
	}
	sess, status, reason := h.sessionOf(ctx, r, tok)
	if sess == nil {
		refuse(w, status, 0, reason)
		return
	}
	replaced, release := sess.attachStream()
	defer release()
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	heartbeat := time.NewTicker(streamHeartbeat)
	defer heartbeat.Stop()
	for {
		var err error
		select {
		case n := <-sess.broadcast:
			err = writeEvent(w, rc, n)
		case <-heartbeat.C:
			// A comment keeps proxies from closing a quiet stream and
			// finds a client that is gone.
			err = writeRaw(w, rc, ": keep-alive\n\n")
		case <-replaced:
			return
		case <-sess.gone:
			return
		case <-h.stopping:
			return
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// streamHeartbeat is how often a quiet GET stream gets a comment.
const streamHeartbeat = 30 * time.Second

// delete ends a session: its calls are cancelled, its stream closed.
func (h *HTTPServer) delete(ctx context.Context, w http.ResponseWriter, r *http.Request, tok *Token) {
	if h.o.Stateless || mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) {
		w.Header().Set("Allow", "POST")
		refuse(w, http.StatusMethodNotAllowed, 0, i18n.T(ctx, "mcp.http.no-session"))
		return
	}
	sess, status, reason := h.sessionOf(ctx, r, tok)
	if sess == nil {
		refuse(w, status, 0, reason)
		return
	}
	h.sessions.end(sess.id)
	w.WriteHeader(http.StatusOK)
}

// sessionOf is the session a GET or DELETE names: 400 without one, 404
// for one the server does not know (or another token's).
func (h *HTTPServer) sessionOf(ctx context.Context, r *http.Request, tok *Token) (*httpSession, int, string) {
	id := r.Header.Get(headerSessionID)
	if id == "" {
		return nil, http.StatusBadRequest, i18n.T(ctx, "mcp.http.session-required")
	}
	sess := h.sessions.find(id, tok)
	if sess == nil {
		return nil, http.StatusNotFound, i18n.T(ctx, "mcp.http.session-unknown")
	}
	return sess, 0, ""
}

// endSession forgets a session on the MCP server and stops what runs in
// it.
func (s *Server) endSession(sess *httpSession) {
	sess.calls.dropAll()
	s.mcp.leave(sess.clientState)
}

func acceptsEventStream(r *http.Request) bool {
	return acceptsType(r, "text/event-stream")
}

// acceptsType tells whether the Accept header names the media type (or
// */*).
func acceptsType(r *http.Request, want string) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && (mt == want || mt == "*/*") {
				return true
			}
		}
	}
	return false
}

// httpSender delivers one request's messages on its POST: as a JSON body
// when the response is all there is, as an SSE stream once a notification
// comes first (when the client accepts one).
type httpSender struct {
	w         http.ResponseWriter
	rc        *http.ResponseController
	stream    bool // the client accepts text/event-stream
	modern    bool
	streaming bool // the SSE headers are out
	answered  bool
	sessionID string // sent with the answer to initialize
	failed    func() // called when initialize fails
}

func newHTTPSender(w http.ResponseWriter, r *http.Request, modern bool) *httpSender {
	return &httpSender{w: w, rc: http.NewResponseController(w), stream: acceptsEventStream(r), modern: modern}
}

// writeTimeout bounds one write to a client that stopped reading.
const writeTimeout = 30 * time.Second

func (o *httpSender) startStream() {
	hdr := o.w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	if o.sessionID != "" {
		hdr.Set(headerSessionID, o.sessionID)
	}
	o.w.WriteHeader(http.StatusOK)
	o.streaming = true
}

func (o *httpSender) note(n mcpgo.JSONRPCNotification) error {
	if !o.stream {
		// A client that takes JSON alone gets the response alone.
		return nil
	}
	if !o.streaming {
		o.startStream()
	}
	return writeEvent(o.w, o.rc, n)
}

func (o *httpSender) answer(m mcpgo.JSONRPCMessage) error {
	o.answered = true
	e, isError := m.(mcpgo.JSONRPCError)
	if isError && o.failed != nil {
		o.failed()
		o.sessionID = ""
	}
	if o.streaming {
		return writeEvent(o.w, o.rc, m)
	}
	status := http.StatusOK
	if o.modern && isError {
		status = httpStatusOf(e.Error.Code)
	}
	var extra http.Header
	if o.sessionID != "" {
		extra = http.Header{headerSessionID: {o.sessionID}}
	}
	_ = o.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return writeJSON(o.w, status, m, extra)
}

// finish ends a request whose response never came (it was cancelled, or
// the client went away): an empty stream, the way a closed connection
// ends one.
func (o *httpSender) finish() {
	if o.answered || o.streaming {
		return
	}
	if o.failed != nil {
		o.failed()
	}
	if o.stream {
		o.sessionID = ""
		o.startStream()
		return
	}
	o.w.WriteHeader(http.StatusAccepted)
}

// httpStatusOf is the HTTP status the protocol without sessions gives a
// JSON-RPC error.
func httpStatusOf(code int) int {
	switch code {
	case mcpgo.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcpgo.HEADER_MISMATCH, mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY, mcpgo.UNSUPPORTED_PROTOCOL_VERSION,
		mcpgo.INVALID_REQUEST, mcpgo.INVALID_PARAMS, mcpgo.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

func writeJSON(w http.ResponseWriter, status int, v any, extra http.Header) error {
	data, err := encodeMessage(v)
	if err != nil {
		return err
	}
	hdr := w.Header()
	for k, vs := range extra {
		hdr[k] = vs
	}
	hdr.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(append(data, '\n'))
	return err
}

func writeEvent(w http.ResponseWriter, rc *http.ResponseController, v any) error {
	data, err := encodeMessage(v)
	if err != nil {
		return err
	}
	return writeRaw(w, rc, "event: message\ndata: "+string(data)+"\n\n")
}

func writeRaw(w http.ResponseWriter, rc *http.ResponseController, text string) error {
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := io.WriteString(w, text); err != nil {
		return err
	}
	return rc.Flush()
}

// remoteInstructions adds the env_file rule of HTTP (and, for a read
// token, its scope) to the instructions a client gets over HTTP, from
// initialize or server/discover.
func remoteInstructions(ctx context.Context, base string) string {
	if remoteOf(ctx) == nil {
		return base
	}
	text := strings.TrimSpace(base + " " + i18n.T(ctx, "mcp.http.instructions-env"))
	if readScoped(ctx) {
		text += " " + i18n.T(ctx, "mcp.http.instructions-read-scope")
	}
	return text
}
