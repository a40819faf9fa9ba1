// Package lsp is elemctl's LSP face: `elemctl lsp` serves the command
// catalog to editors over stdio as workspace/executeCommand, with progress,
// cancellation, probe errors as diagnostics and code lenses on project
// descriptors. It is the only package that imports go.lsp.dev.
//
// go.lsp.dev is used for its wire types and for jsonrpc2's Conn (pinned
// at v0.10.0), not for its server plumbing: protocol.ServerHandler panics
// on methods it was not given, protocol.CancelHandler drops numeric
// cancel ids, and jsonrpc2.AsyncHandler runs requests one after another.
// The dispatcher here answers unknown methods with "method not found",
// cancels by any id and runs every request in its own goroutine.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/platform/clientcache"
)

// ServerName is the name the server introduces itself with.
const ServerName = "elemctl"

// DefaultPrefix starts every command id unless initializationOptions
// names another ("commandPrefix").
const DefaultPrefix = "elemctl"

// Options configure a server.
type Options struct {
	// Catalog holds the commands to serve: every command with an LSP id,
	// as "<prefix>.<id>" (a plugin's ids are "plugin.<name>").
	Catalog *command.Catalog
	// Version is elemctl's version (serverInfo.version).
	Version string
	// Dir is the directory a call without cwd (and without workspace
	// folders) runs in; "" means the process's current directory.
	Dir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// EnvFile is the startup --env-file ("" = each call's <cwd>/.env).
	EnvFile string
	// Overrides are the startup connection flags. All of them apply to
	// calls without envFile; only Timeout applies to calls with one.
	Overrides platform.Overrides
	// ClientOptions tune the platform clients.
	ClientOptions platform.ClientOptions
	// AdoptClientLocale switches the message language to the editor's
	// locale (initialize "locale") when the user did not choose one.
	AdoptClientLocale bool
	// Stderr receives the server log (skipped frames, recovered panics,
	// transport warnings). nil means os.Stderr.
	Stderr io.Writer
}

// ErrExitWithoutShutdown is what Serve returns when the editor sent exit
// without shutdown, or went away without either: the process should end
// with code 1 (LSP "exit" notification).
var ErrExitWithoutShutdown = errors.New("lsp: the session ended without shutdown")

// Server is the LSP server over a catalog.
type Server struct {
	opts Options
	// commands maps ids without the prefix ("deploy", "plugin.hello").
	commands map[string]*command.Command
	clients  *clientcache.Cache

	conn jsonrpc2.Conn
	// base is the server's context: cancelled when the session ends, so
	// every running command stops.
	base   context.Context
	cancel context.CancelFunc
	// exitCh is closed by the exit notification.
	exitCh   chan struct{}
	exitOnce sync.Once

	errMu sync.Mutex

	mu sync.Mutex
	// lang is the language of the server's messages: the one it started
	// with, or the client's once its initialize names a locale.
	lang           i18n.Lang
	initialized    bool
	shutdown       bool
	prefix         string
	clientProgress bool
	folders        []string
	running        map[string]context.CancelFunc // by request id
	progress       map[string]context.CancelFunc // by progress token
	published      map[string]map[string]bool    // project dir → URIs with diagnostics

	diagMu sync.Mutex // orders publishDiagnostics of concurrent commands
	// inflight counts every request goroutine, commandsWG the commands
	// among them (shutdown waits for those).
	inflight   sync.WaitGroup
	commandsWG sync.WaitGroup
	tokenSeq   atomic.Int64
}

// New builds a server; ctx carries the language of its messages until a
// client names its own.
func New(ctx context.Context, o Options) *Server {
	if o.Catalog == nil {
		o.Catalog = &command.Catalog{}
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Dir == "" {
		o.Dir, _ = os.Getwd()
	}
	if o.EnvFile != "" && !filepath.IsAbs(o.EnvFile) {
		o.EnvFile = filepath.Join(o.Dir, o.EnvFile)
	}
	s := &Server{
		opts:      o,
		lang:      i18n.LangOf(ctx),
		commands:  map[string]*command.Command{},
		prefix:    DefaultPrefix,
		running:   map[string]context.CancelFunc{},
		progress:  map[string]context.CancelFunc{},
		published: map[string]map[string]bool{},
		exitCh:    make(chan struct{}),
	}
	if s.opts.ClientOptions.Warn == nil {
		s.opts.ClientOptions.Warn = s.diagnostic
	}
	s.clients = clientcache.New(clientcache.Options{
		Dir: s.opts.Dir, Getenv: s.opts.Getenv, EnvFile: s.opts.EnvFile,
		Overrides: s.opts.Overrides, ClientOptions: s.opts.ClientOptions, Lang: s.lang,
	})
	for _, c := range o.Catalog.Commands() {
		if c.LSP == "" || c.Run == nil {
			continue
		}
		id := c.LSP
		if _, taken := s.commands[id]; taken {
			s.diagnostic(i18n.T(ctx, "lsp.id-taken", "id", id, "name", c.Name()))
			continue
		}
		s.commands[id] = c
	}
	return s
}

// Commands are the full command ids the server advertises with the
// current prefix, sorted.
func (s *Server) Commands() []string {
	s.mu.Lock()
	prefix := s.prefix
	s.mu.Unlock()
	out := make([]string, 0, len(s.commands))
	for id := range s.commands {
		out = append(out, prefix+"."+id)
	}
	sort.Strings(out)
	return out
}

// Serve speaks LSP over a pair of streams until the editor sends exit, the
// input ends or ctx is cancelled. It returns once every running command has
// returned (an interrupted probe has cleaned up by then). The result is nil
// after shutdown and exit, ErrExitWithoutShutdown otherwise.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	closeIn := func() error {
		if c, ok := in.(io.Closer); ok {
			return c.Close()
		}
		return nil
	}
	stream := newFrameStream(in, out, closeIn, s.diagnostic)
	s.base, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.conn = jsonrpc2.NewConn(stream)
	s.conn.Go(s.base, s.handle)
	// The read loop may stay blocked on a stdin that cannot be closed, so
	// exit and ctx end the session without waiting for it.
	select {
	case <-s.conn.Done():
	case <-s.exitCh:
	case <-ctx.Done():
	}
	_ = s.conn.Close()
	// The editor is gone: stop what still runs and let it clean up.
	s.cancel()
	s.inflight.Wait()
	s.clients.Close()
	s.mu.Lock()
	clean := s.shutdown
	s.mu.Unlock()
	if !clean {
		return ErrExitWithoutShutdown
	}
	return nil
}

// handle dispatches one incoming message. It runs on the connection's read
// loop, so everything that may take time goes to its own goroutine; it
// never returns an error, which would end the connection.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.mu.Lock()
	ctx = i18n.WithLang(ctx, s.lang)
	s.mu.Unlock()
	method := req.Method()
	call, isCall := req.(*jsonrpc2.Call)
	if !isCall {
		s.notification(method, req.Params())
		return nil
	}
	// Replies go out on a context of their own: the request's may be
	// cancelled by then, and the response must still be written.
	out := context.WithoutCancel(ctx)
	// A failed write means the editor is gone; the read loop ends by
	// itself then.
	answer := func(res any, err error) error {
		_ = reply(out, res, err)
		return nil
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case method == protocol.MethodInitialize:
		if initialized {
			return answer(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, i18n.T(ctx, "lsp.initialized-twice")))
		}
		res, err := s.initialize(ctx, req.Params())
		return answer(res, err)
	case !initialized:
		return answer(nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, i18n.T(ctx, "lsp.not-initialized", "method", method)))
	case shutdown:
		return answer(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, i18n.T(ctx, "lsp.shutting-down", "method", method)))
	}
	switch method {
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.spawn(func() {
			// Running commands stop; an interrupted probe still cleans
			// up before the answer.
			s.cancelAll()
			s.commandsWG.Wait()
			_ = reply(out, nil, nil)
		})
	case protocol.MethodWorkspaceExecuteCommand:
		key := idKey(call.ID())
		// A command outlives its request's context (cancelled by
		// $/cancelRequest through s.running): it runs on the session's,
		// in the request's language.
		cctx, cancel := context.WithCancel(i18n.WithLang(s.base, i18n.LangOf(ctx)))
		s.mu.Lock()
		s.running[key] = cancel
		s.mu.Unlock()
		s.commandsWG.Add(1)
		s.spawn(func() {
			defer s.commandsWG.Done()
			defer func() {
				s.mu.Lock()
				delete(s.running, key)
				s.mu.Unlock()
				cancel()
			}()
			defer s.replyToPanic(out, reply, method)
			res, err := s.executeCommand(cctx, req.Params())
			_ = reply(out, res, err)
		})
	case protocol.MethodTextDocumentCodeLens:
		s.spawn(func() {
			defer s.replyToPanic(out, reply, method)
			res, err := s.codeLens(ctx, req.Params())
			_ = reply(out, res, err)
		})
	default:
		return answer(nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, i18n.T(ctx, "lsp.method-not-found", "method", method)))
	}
	return nil
}

// notification handles a message that takes no answer. Unknown ones are
// dropped, as LSP asks.
func (s *Server) notification(method string, params json.RawMessage) {
	switch method {
	case protocol.MethodExit:
		s.exitOnce.Do(func() { close(s.exitCh) })
	case protocol.MethodCancelRequest:
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(params, &p) == nil {
			s.cancelRequest(rawIDKey(p.ID))
		}
	case protocol.MethodWorkDoneProgressCancel:
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		if json.Unmarshal(params, &p) == nil {
			s.mu.Lock()
			cancel := s.progress[tokenKey(p.Token)]
			s.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
	}
}

// spawn runs f in its own goroutine, counted for Serve and the shutdown
// request.
func (s *Server) spawn(f func()) {
	s.inflight.Add(1)
	go func() {
		defer s.inflight.Done()
		f()
	}()
}

func (s *Server) cancelRequest(key string) {
	s.mu.Lock()
	cancel := s.running[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *Server) cancelAll() {
	s.mu.Lock()
	cancels := make([]context.CancelFunc, 0, len(s.running))
	for _, c := range s.running {
		cancels = append(cancels, c)
	}
	s.mu.Unlock()
	for _, c := range cancels {
		c()
	}
}

// idKey names a request id the way rawIDKey names the id of a cancel:
// numbers as "#<n>", strings quoted.
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

// rawIDKey reads the id of $/cancelRequest, a number or a string. (The
// protocol package decodes it as float64 and then matches only int32 and
// string, so numeric cancels never arrive there.)
func rawIDKey(raw json.RawMessage) string {
	var n json.Number
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	switch x := v.(type) {
	case json.Number:
		n = x
		if i, err := n.Int64(); err == nil {
			return fmt.Sprintf("#%d", i)
		}
		return "#" + n.String()
	case string:
		return fmt.Sprintf("%q", x)
	}
	return ""
}

// tokenKey names a progress token (number or string) by its compact JSON.
func tokenKey(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return ""
	}
	switch x := v.(type) {
	case json.Number:
		return "#" + x.String()
	case string:
		return fmt.Sprintf("%q", x)
	}
	return ""
}

// diagnostic writes one line on the server log (stderr).
func (s *Server) diagnostic(line string) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	fmt.Fprintln(s.opts.Stderr, strings.TrimRight(line, "\n"))
}

// replyToPanic answers a request whose handler panicked with an internal
// error; the stack goes to the server log, the session goes on. (A
// command's own panic is an error of its call already.)
func (s *Server) replyToPanic(ctx context.Context, reply jsonrpc2.Replier, method string) {
	r := recover()
	if r == nil {
		return
	}
	msg := fmt.Sprint(r)
	if e, ok := r.(error); ok {
		msg = e.Error()
	}
	s.diagnostic(fmt.Sprintf("lsp: panic in %s: %s\n%s", method, msg, debug.Stack()))
	_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, i18n.T(ctx, "lsp.panic", "what", method, "error", msg)))
}
