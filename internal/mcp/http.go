package mcp

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// EndpointPath is the one path the HTTP transport answers on.
const EndpointPath = "/mcp"

// Defaults of HTTPOptions.
const (
	// DefaultShutdownGrace bounds the wait for interrupted calls to clean
	// up (a probe deletes its application) when the server stops.
	DefaultShutdownGrace = time.Minute
	// DefaultSessionIdleTTL is how long a session may stay silent before
	// the server forgets it: long enough for an agent left open over a
	// working day, short enough that clients that vanish without DELETE
	// do not pile up.
	DefaultSessionIdleTTL = 24 * time.Hour
	// DefaultMaxBodyBytes bounds one request: tool arguments are small.
	DefaultMaxBodyBytes = 4 << 20
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every request must carry (required, at
	// least MinTokenLength characters).
	Token string
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
	// MaxBodyBytes bounds a request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
}

// HTTPServer is the streamable HTTP transport of a Server, ready to serve.
type HTTPServer struct {
	s         *Server
	o         HTTPOptions
	tlsConfig *tls.Config
	remote    *remote
	sessions  *sessionIDs
}

// NewHTTP checks the options (token, --env-dir, certificate) and builds
// the HTTP transport; nothing listens yet.
func (s *Server) NewHTTP(ctx context.Context, o HTTPOptions) (*HTTPServer, error) {
	if err := CheckToken(ctx, o.Token, "--token-file / ELEMCTL_MCP_TOKEN"); err != nil {
		return nil, err
	}
	envDir, err := resolveEnvDir(ctx, o.EnvDir, s.opts.Dir)
	if err != nil {
		return nil, err
	}
	h := &HTTPServer{s: s}
	if o.TLSCertFile != "" || o.TLSKeyFile != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCertFile, o.TLSKeyFile)
		if err != nil {
			return nil, platform.ConfigErrorf(ctx, "mcp.http.tls-bad", "cert", o.TLSCertFile, "key", o.TLSKeyFile, "error", err.Error())
		}
		h.tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	if o.SessionIdleTTL <= 0 {
		o.SessionIdleTTL = DefaultSessionIdleTTL
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	h.o, h.remote, h.sessions = o, &remote{envDir: envDir}, newSessionIDs()
	return h, nil
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
// token, with env_file limited to EnvDir. A client that disconnects
// mid-call cancels the call's context, like notifications/cancelled. When
// ctx ends the server stops accepting, cancels the calls in progress and
// waits (up to ShutdownGrace, or until Force) for their cleanup. Serve is
// called once.
func (h *HTTPServer) Serve(ctx context.Context, ln net.Listener) error {
	s, o := h.s, h.o
	// Built here, not in NewHTTP: mcp-go's transport starts its idle
	// sweeper at once, and only Serve stops it.
	t := s.newHTTPTransport(o, h.remote, h.sessions)
	// Every request's context descends from calls: cancelling it at
	// shutdown interrupts the calls in progress the way a client's
	// cancellation does, so they clean up.
	calls, cancelCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelCalls()
	srv := &http.Server{
		Handler:           t.handler,
		TLSConfig:         h.tlsConfig,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return calls },
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

	select {
	case err := <-served:
		cancelCalls()
		_ = t.streamable.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}

	if n := t.inFlight.Load(); n > 0 {
		s.diagnostic(i18n.T(ctx, "mcp.http.stopping", "count", n, "seconds", int(o.ShutdownGrace.Seconds())))
	}
	cancelCalls()
	wait, stopWaiting := context.WithTimeout(context.Background(), o.ShutdownGrace)
	defer stopWaiting()
	var forced atomic.Bool
	if o.Force != nil {
		go func() {
			select {
			case <-o.Force:
				forced.Store(true)
				stopWaiting()
			case <-wait.Done():
			}
		}()
	}
	_ = t.streamable.Shutdown(wait)
	if err := srv.Shutdown(wait); err != nil {
		if forced.Load() {
			s.diagnostic(i18n.T(ctx, "mcp.http.shutdown-forced"))
		} else {
			s.diagnostic(i18n.T(ctx, "mcp.http.shutdown-timeout", "seconds", int(o.ShutdownGrace.Seconds())))
		}
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Sessions is how many MCP sessions are open.
func (h *HTTPServer) Sessions() int { return h.sessions.Live() }

// httpTransport is the handler chain of one HTTP listener.
type httpTransport struct {
	handler    http.Handler
	streamable *server.StreamableHTTPServer
	sessions   *sessionIDs
	inFlight   atomic.Int64
}

// newHTTPTransport builds bearer check → path → session rule → mcp-go's
// streamable transport.
func (s *Server) newHTTPTransport(o HTTPOptions, r *remote, sessions *sessionIDs) *httpTransport {
	t := &httpTransport{sessions: sessions}
	t.streamable = server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath(EndpointPath),
		server.WithSessionIdManager(t.sessions),
		server.WithSessionIdleTTL(o.SessionIdleTTL),
		server.WithHTTPContextFunc(func(ctx context.Context, _ *http.Request) context.Context {
			return withRemote(ctx, r)
		}),
		// The bearer token already stops what the Host check guards
		// against (a web page driving a local server), and the check would
		// refuse a reverse proxy on the same host that keeps the Host
		// header – the usual way to put TLS in front of a team server.
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(slog.New(&diagnosticHandler{s: s})),
	)
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != EndpointPath {
			http.NotFound(w, req)
			return
		}
		req.Body = http.MaxBytesReader(w, req.Body, o.MaxBodyBytes)
		if status := t.sessionRule(req); status != 0 {
			http.Error(w, http.StatusText(status)+": "+sessionRuleText(status), status)
			return
		}
		if req.Method == http.MethodPost {
			t.inFlight.Add(1)
			defer t.inFlight.Add(-1)
		}
		t.streamable.ServeHTTP(w, req)
	})
	t.handler = bearer(o.Token, endpoint)
	return t
}

func sessionRuleText(status int) string {
	if status == http.StatusBadRequest {
		return "the Mcp-Session-Id header is required"
	}
	return "unknown or expired session; initialize a new one"
}

// sessionRule applies the session rules of the MCP spec that mcp-go leaves
// out, for clients of the protocol versions with sessions (2026-07-28 has
// none, and mcp-go answers those itself): a request other than initialize
// without Mcp-Session-Id is 400; a GET or DELETE naming a session the
// server does not know is 404 (mcp-go checks POSTs itself). It returns 0
// when the request may go on.
func (t *httpTransport) sessionRule(req *http.Request) int {
	if mcpgo.IsModernProtocol(req.Header.Get(mcpgo.HeaderProtocolVersion)) {
		return 0
	}
	id := req.Header.Get(server.HeaderKeySessionID)
	switch req.Method {
	case http.MethodGet, http.MethodDelete:
		if id == "" {
			return http.StatusBadRequest
		}
		if _, err := t.sessions.Validate(id); err != nil {
			return http.StatusNotFound
		}
	case http.MethodPost:
		if id != "" {
			return 0
		}
		body, err := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil || opensSession(body) {
			// A body error is mcp-go's to report.
			return 0
		}
		return http.StatusBadRequest
	}
	return 0
}

// opensSession tells whether a POST body may come without a session id:
// initialize, a message of the sessionless protocol, a client's response,
// or something mcp-go will refuse as malformed anyway.
func opensSession(body []byte) bool {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Method == "" || msg.Method == string(mcpgo.MethodInitialize) {
		return true
	}
	version, _ := msg.Params.Meta[mcpgo.MetaKeyProtocolVersion].(string)
	return mcpgo.IsModernProtocol(version)
}

// diagnosticHandler sends the transport's own warnings and errors to the
// server log (stderr); its informational chatter stays out.
type diagnosticHandler struct {
	s     *Server
	attrs []slog.Attr
}

func (h *diagnosticHandler) Enabled(_ context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn
}

func (h *diagnosticHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString("mcp http: ")
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	h.s.diagnostic(b.String())
	return nil
}

func (h *diagnosticHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &diagnosticHandler{s: h.s, attrs: append(append([]slog.Attr(nil), h.attrs...), attrs...)}
}

func (h *diagnosticHandler) WithGroup(string) slog.Handler { return h }

// remoteInstructions adds the env_file rule of HTTP to the instructions a
// client gets when it initializes over HTTP.
func remoteInstructions(ctx context.Context, _ any, _ *mcpgo.InitializeRequest, result *mcpgo.InitializeResult) {
	if result != nil && remoteOf(ctx) != nil {
		result.Instructions = strings.TrimSpace(result.Instructions + " " + i18n.T(ctx, "mcp.http.instructions-env"))
	}
}
