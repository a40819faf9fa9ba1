// Package mcp is elemctl's MCP face: it renders the command catalog as MCP
// tools over stdio or streamable HTTP, with one cached platform client per
// stand (env_file), and offers the stand's applications and projects as
// resources and a few prompts.
// It is the only package that imports mcp-go, and of it only the message
// types (package mcp): the protocol's methods are answered by the
// dispatcher.
package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/platform/clientcache"
)

// ServerName is the name the server introduces itself with.
const ServerName = "elemctl"

// Options configure a server.
type Options struct {
	// Catalog holds the commands to serve: every command with a Tool name
	// becomes a tool. Core commands (Source == "") come first; plugin
	// commands whose tool name is taken are skipped and reported.
	Catalog *command.Catalog
	// Extra are further (plugin) commands, registered after the catalog's.
	Extra []*command.Command
	// PluginFailures are plugins that did not load at discovery; they are
	// reported on Stderr like name clashes.
	PluginFailures []PluginFailure

	// Version is elemctl's version (serverInfo.version).
	Version string
	// Dir is the directory relative env_file paths resolve from; "" means
	// the process's current directory.
	Dir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// EnvFile is the startup --env-file as given ("" = ./.env when present).
	EnvFile string
	// Overrides are the startup connection flags. All of them apply to
	// calls without env_file; only Timeout applies to calls with one.
	Overrides platform.Overrides
	// Config pins a ready configuration for calls without env_file
	// (library use); the cwd's .env is then ignored.
	Config *platform.Config
	// ClientOptions tune the platform clients (token cache, retries).
	ClientOptions platform.ClientOptions
	// Stderr receives diagnostics: plugin failures, recovered panics,
	// transport warnings. nil means os.Stderr.
	Stderr io.Writer
	// ReadOnly serves the read-only tools alone (--read-only): a call of
	// any other tool is refused with the reason.
	ReadOnly bool
}

// PluginFailure is a plugin (or one of its tools) that is unavailable.
type PluginFailure struct {
	Source string
	Err    error
}

// Server is the MCP server over a catalog.
type Server struct {
	opts Options
	// lang is the language of the server's texts and answers.
	lang  i18n.Lang
	mcp   *dispatcher
	cache *clientcache.Cache

	errMu sync.Mutex
	// tools maps registered tool names to their commands.
	toolsMu  sync.Mutex
	tools    map[string]*command.Command
	failures []PluginFailure
	// withheld are the tools ReadOnly leaves out.
	withheld map[string]bool
}

// New builds a server: core tools first, then plugin tools; clashes are
// skipped and reported on Stderr. ctx carries the language of the
// server's texts and answers.
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
	s := &Server{opts: o, lang: i18n.LangOf(ctx), tools: map[string]*command.Command{}, withheld: map[string]bool{}}
	if s.opts.ClientOptions.Warn == nil {
		s.opts.ClientOptions.Warn = s.diagnostic
	}
	s.cache = clientcache.New(clientcache.Options{
		Dir: o.Dir, Getenv: o.Getenv, EnvFile: o.EnvFile, Overrides: o.Overrides,
		Pinned: o.Config, ClientOptions: s.opts.ClientOptions, Lang: s.lang,
	})

	var core, plugins []*command.Command
	for _, c := range o.Catalog.Commands() {
		if c.Tool == "" || c.Run == nil {
			continue
		}
		if c.Source == "" {
			core = append(core, c)
		} else {
			plugins = append(plugins, c)
		}
	}
	for _, c := range o.Extra {
		if c != nil && c.Tool != "" && c.Run != nil {
			plugins = append(plugins, c)
		}
	}
	if o.ReadOnly {
		core, plugins = s.withhold(core), s.withhold(plugins)
	}
	// Instructions speak of the tools this server actually has.
	planned := append(append([]*command.Command(nil), core...), plugins...)
	s.mcp = newDispatcher(ServerName, o.Version)
	s.mcp.instructions = Instructions(ctx, planned)
	s.mcp.instructionsFor = remoteInstructions
	s.mcp.tools.visible, s.mcp.prompts.visible = s.visibleTools, s.visiblePrompts
	for _, f := range o.PluginFailures {
		s.reportFailure(ctx, f)
	}
	for _, c := range core {
		s.register(ctx, c)
	}
	s.AddCommands(ctx, plugins...)
	s.addResources(ctx)
	s.addPrompts(ctx)
	return s
}

// withhold keeps the read-only commands of cmds and notes the others as
// withheld, so that a call names the reason.
func (s *Server) withhold(cmds []*command.Command) []*command.Command {
	var out []*command.Command
	for _, c := range cmds {
		if readOnly(c) {
			out = append(out, c)
		} else {
			s.withheld[c.Tool] = true
		}
	}
	return out
}

// AddCommands registers plugin commands as tools. A tool name already
// taken (by the core or by an earlier plugin) is skipped: the failure is
// printed on Stderr and returned; every other tool keeps working.
func (s *Server) AddCommands(ctx context.Context, cmds ...*command.Command) []PluginFailure {
	var failed []PluginFailure
	for _, c := range cmds {
		if c == nil || c.Tool == "" || c.Run == nil {
			continue
		}
		if s.opts.ReadOnly && !readOnly(c) {
			s.toolsMu.Lock()
			s.withheld[c.Tool] = true
			s.toolsMu.Unlock()
			continue
		}
		s.toolsMu.Lock()
		have, taken := s.tools[c.Tool]
		s.toolsMu.Unlock()
		if taken {
			owner := i18n.T(ctx, "mcp.server.owner-core")
			if have.Source != "" {
				owner = have.Source
			}
			f := PluginFailure{Source: sourceName(c), Err: platform.NewError(ctx, platform.KindPlugin, "mcp.server.tool-name-taken", "tool", c.Tool, "owner", owner)}
			s.reportFailure(ctx, f)
			failed = append(failed, f)
			continue
		}
		s.register(ctx, c)
	}
	return failed
}

func sourceName(c *command.Command) string {
	if c.Source != "" {
		return c.Source
	}
	return c.Name()
}

// Failures are the plugin failures reported so far.
func (s *Server) Failures() []PluginFailure {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	return append([]PluginFailure(nil), s.failures...)
}

// Tools lists the registered tool names, sorted.
func (s *Server) Tools() []string {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	out := make([]string, 0, len(s.tools))
	for name := range s.tools {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func (s *Server) reportFailure(ctx context.Context, f PluginFailure) {
	s.toolsMu.Lock()
	s.failures = append(s.failures, f)
	s.toolsMu.Unlock()
	msg := ""
	if f.Err != nil {
		msg = f.Err.Error()
	}
	s.diagnostic(i18n.T(ctx, "mcp.server.plugin-not-loaded", "source", f.Source, "error", msg))
}

// withLang is the context of a request in the server's language.
func (s *Server) withLang(ctx context.Context) context.Context { return i18n.WithLang(ctx, s.lang) }

// diagnostic writes one line on the server log (stderr).
func (s *Server) diagnostic(line string) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	fmt.Fprintln(s.opts.Stderr, strings.TrimRight(line, "\n"))
}

func (s *Server) register(ctx context.Context, c *command.Command) {
	s.toolsMu.Lock()
	s.tools[c.Tool] = c
	s.toolsMu.Unlock()
	s.mcp.addTool(declaration(ctx, c), s.handler(c))
}

// declaration is the MCP declaration of a command: description, raw input
// schema and annotations.
func declaration(ctx context.Context, c *command.Command) mcpgo.Tool {
	schema, err := jsonCompact(InputSchema(ctx, c))
	if err != nil {
		// A schema of strings and numbers always marshals.
		panic(fmt.Sprintf("mcp: schema of %s: %v", c.Tool, err))
	}
	t := mcpgo.NewToolWithRawSchema(c.Tool, Description(ctx, c), schema)
	t.Annotations = mcpgo.ToolAnnotation{
		ReadOnlyHint:    mcpgo.ToBoolPtr(c.ReadOnly),
		DestructiveHint: mcpgo.ToBoolPtr(c.Destructive),
		IdempotentHint:  mcpgo.ToBoolPtr(c.Idempotent),
		OpenWorldHint:   mcpgo.ToBoolPtr(!c.Local),
	}
	return t
}

// lineWriter sends the HTTP server's own log lines to the server log.
type lineWriter struct{ s *Server }

func (w lineWriter) Write(p []byte) (int, error) {
	w.s.diagnostic(string(p))
	return len(p), nil
}

// Close closes the cached clients.
func (s *Server) Close() { s.cache.Close() }

// ReadOnly tells whether the server serves the read-only tools alone.
func (s *Server) ReadOnly() bool { return s.opts.ReadOnly }

// ClientBuilds is how many platform clients the server has built so far.
func (s *Server) ClientBuilds() int64 { return s.cache.Builds() }
