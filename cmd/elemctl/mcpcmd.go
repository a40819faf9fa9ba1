package main

import (
	"context"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/mcp"
	"github.com/elemctl/elemctl/internal/mcpinstall"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/userdir"
)

// tokenEnv names the environment variable that may hold the HTTP token.
const tokenEnv = "ELEMCTL_MCP_TOKEN"

// defaultTokenFile is the token file of a loopback server started without
// a token of its own choice, in elemctl's data directory.
const defaultTokenFile = "mcp-token"

// mcpHTTPFlags are the options of the HTTP transport.
type mcpHTTPFlags struct {
	addr, tokenFile, envDir, tlsCert, tlsKey string
	allowHosts, allowOrigins                 []string
	stateless                                bool
	maxSessions, maxSessionsPerToken         int
	sessionIdle, maxCalls                    int
}

// httpOnlyFlags are the options that mean something with --http alone.
var httpOnlyFlags = []string{"token-file", "env-dir", "tls-cert", "tls-key", "allow-host", "allow-origin", "stateless",
	"max-sessions", "max-sessions-per-token", "session-idle", "max-calls"}

// mcpCommand serves the catalog to AI agents over stdio, or over
// streamable HTTP with --http. No configuration is read at startup: each
// tool call resolves its stand (the startup one, or its env_file) through
// the server's client cache. Only an explicit --env-file is checked
// first, so a typo fails here instead of on every call.
func (a *app) mcpCommand(ctx context.Context, cmd *cobra.Command) {
	var hf mcpHTTPFlags
	var readOnly bool
	var memoryLimit int
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if hf.addr == "" {
			if given := hf.httpOnlyGiven(cmd); len(given) > 0 {
				return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.http-only", "flags", strings.Join(given, ", "))}
			}
		}
		if memoryLimit < 0 {
			return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.memory-limit-bad", "value", memoryLimit)}
		}
		wd, err := a.startProtocol(ctx)
		if err != nil {
			return err
		}
		memory := holdMemoryUnder(int64(memoryLimit) << 20)
		srv := mcp.New(ctx, mcp.Options{
			Catalog: a.catalog,
			// Plugins that did not load (or whose tool name is taken)
			// are reported once on stderr, the rest keep working.
			PluginFailures: mcpPluginFailures(a),
			Version:        versionText(),
			Dir:            wd,
			Getenv:         a.getenv,
			EnvFile:        a.str(options.EnvFile),
			Overrides:      a.overrides(),
			Stderr:         a.stderr,
			ReadOnly:       readOnly,
		})
		defer srv.Close()
		if hf.addr != "" {
			return a.serveMCPOverHTTP(cmd.Context(), srv, hf, wd, memory)
		}
		if err := srv.Serve(cmd.Context(), a.stdin, a.stdout); err != nil {
			return &handlerError{err}
		}
		return nil
	}
	f := cmd.Flags()
	f.StringVar(&hf.addr, "http", "", i18n.T(ctx, "mcp.cli.flag-http"))
	f.StringVar(&hf.tokenFile, "token-file", "", i18n.T(ctx, "mcp.cli.flag-token-file"))
	f.StringVar(&hf.envDir, "env-dir", "", i18n.T(ctx, "mcp.cli.flag-env-dir"))
	f.StringVar(&hf.tlsCert, "tls-cert", "", i18n.T(ctx, "mcp.cli.flag-tls-cert"))
	f.StringVar(&hf.tlsKey, "tls-key", "", i18n.T(ctx, "mcp.cli.flag-tls-key"))
	f.StringArrayVar(&hf.allowHosts, "allow-host", nil, i18n.T(ctx, "mcp.cli.flag-allow-host"))
	f.StringArrayVar(&hf.allowOrigins, "allow-origin", nil, i18n.T(ctx, "mcp.cli.flag-allow-origin"))
	f.BoolVar(&hf.stateless, "stateless", false, i18n.T(ctx, "mcp.cli.flag-stateless"))
	f.IntVar(&hf.maxSessions, "max-sessions", mcp.DefaultMaxSessions, i18n.T(ctx, "mcp.cli.flag-max-sessions"))
	f.IntVar(&hf.maxSessionsPerToken, "max-sessions-per-token", mcp.DefaultMaxSessionsPerToken, i18n.T(ctx, "mcp.cli.flag-max-sessions-per-token"))
	f.IntVar(&hf.sessionIdle, "session-idle", int(mcp.DefaultSessionIdleTTL/time.Minute), i18n.T(ctx, "mcp.cli.flag-session-idle"))
	f.IntVar(&hf.maxCalls, "max-calls", mcp.DefaultMaxCalls, i18n.T(ctx, "mcp.cli.flag-max-calls"))
	f.BoolVar(&readOnly, "read-only", false, i18n.T(ctx, "mcp.cli.flag-read-only"))
	f.IntVar(&memoryLimit, "memory-limit", 0, i18n.T(ctx, "mcp.cli.flag-memory-limit", "default", serverMemoryLimit>>20))
}

// holdMemoryUnder sets the memory limit the server states and stays under
// (0 when there is none): the one given (--memory-limit), else GOMEMLIMIT,
// else the default of protocol servers. The whole process counts, the
// program's code mapped from its file too, which the collector's soft
// limit leaves out: that limit is set lower by the size of the program
// (at most a quarter of the limit).
func holdMemoryUnder(given int64) int64 {
	limit := given
	if limit <= 0 {
		limit = debug.SetMemoryLimit(-1)
	}
	if limit <= 0 || limit == math.MaxInt64 {
		return 0
	}
	reserve := limit / 4
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil && st.Size() < reserve {
			reserve = st.Size()
		}
	}
	debug.SetMemoryLimit(limit - reserve)
	return limit
}

// httpOnlyGiven lists the HTTP options given without --http.
func (hf mcpHTTPFlags) httpOnlyGiven(cmd *cobra.Command) []string {
	var out []string
	for _, name := range httpOnlyFlags {
		if cmd.Flags().Changed(name) {
			out = append(out, "--"+name)
		}
	}
	return out
}

// serveMCPOverHTTP listens, prints where (a JSON answer on stdout, which
// the HTTP transport leaves free), and serves until interrupted. A second
// interrupt stops waiting for the cleanup of interrupted calls.
func (a *app) serveMCPOverHTTP(ctx context.Context, srv *mcp.Server, hf mcpHTTPFlags, wd string, memory int64) error {
	addr, err := mcp.ParseListenAddress(ctx, hf.addr)
	if err != nil {
		return &handlerError{err}
	}
	if (hf.tlsCert == "") != (hf.tlsKey == "") {
		return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.tls-pair")}
	}
	for name, v := range map[string]int{"--max-sessions": hf.maxSessions, "--max-sessions-per-token": hf.maxSessionsPerToken,
		"--session-idle": hf.sessionIdle, "--max-calls": hf.maxCalls} {
		if v < 1 {
			return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.bound-bad", "flag", name, "value", v)}
		}
	}
	tok, err := a.mcpToken(ctx, hf, addr, wd)
	if err != nil {
		return &handlerError{err}
	}
	allowHosts := hf.allowHosts
	if addr.Name != "" {
		allowHosts = append([]string{addr.Name}, allowHosts...)
	}
	httpSrv, err := srv.NewHTTP(ctx, mcp.HTTPOptions{
		Tokens: tok.tokens, EnvDir: hf.envDir, TLSCertFile: hf.tlsCert, TLSKeyFile: hf.tlsKey, Force: a.interruptedAgain,
		AllowHosts: allowHosts, AllowOrigins: hf.allowOrigins, Stateless: hf.stateless,
		MaxSessions: hf.maxSessions, MaxSessionsPerToken: hf.maxSessionsPerToken,
		SessionIdleTTL: time.Duration(hf.sessionIdle) * time.Minute, MaxCalls: hf.maxCalls, MemoryLimit: memory,
	})
	if err != nil {
		return &handlerError{err}
	}
	ln, err := net.Listen(addr.Network, addr.HostPort)
	if err != nil {
		return &handlerError{&platform.Error{Kind: platform.KindGeneral, Err: err,
			Message: i18n.T(ctx, "mcp.cli.listen-failed", "addr", addr.HostPort, "error", err.Error())}}
	}
	scheme := "http"
	if hf.tlsCert != "" {
		scheme = "https"
	}
	url := scheme + "://" + ln.Addr().String() + mcp.EndpointPath
	tokens := make([]any, len(tok.tokens))
	for i, t := range tok.tokens {
		tokens[i] = jsonx.New("name", t.Name, "scope", string(t.Scope))
	}
	answer := jsonx.New("url", url, "listen", ln.Addr().String(), "network", addr.Network, "loopback", addr.Loopback, "tls", hf.tlsCert != "",
		"token-source", tok.source, "token-file", nil, "token-created", tok.created, "tokens", tokens, "env-dir", nil,
		"read-only", srv.ReadOnly(), "stateless", hf.stateless,
		"max-sessions", hf.maxSessions, "max-sessions-per-token", hf.maxSessionsPerToken, "session-idle-minutes", hf.sessionIdle,
		"max-calls", hf.maxCalls, "memory-limit-mib", nil)
	if tok.file != "" {
		answer.Set("token-file", tok.file)
	}
	if hf.envDir != "" {
		answer.Set("env-dir", absFrom(wd, hf.envDir))
	}
	if memory > 0 {
		answer.Set("memory-limit-mib", memory>>20)
	}

	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ctx, ln) }()
	if err := a.printAnswer(answer); err != nil {
		return &handlerError{err}
	}
	if tok.created {
		a.progress(i18n.T(ctx, "mcp.cli.token-created", "file", tok.file))
	}
	if !addr.Loopback && hf.tlsCert == "" {
		a.progress(i18n.T(ctx, "mcp.cli.plain-http"))
	}
	a.progress(i18n.T(ctx, "mcp.cli.serving", "url", url, "where", addr.Where(ctx, ln.Addr())))
	err = <-served
	a.progress(i18n.T(ctx, "mcp.cli.stopped"))
	if err != nil {
		return &handlerError{err}
	}
	return nil
}

// mcpToken is the bearer tokens of the HTTP server and where they came
// from.
type mcpToken struct {
	tokens       []mcp.Token
	source, file string
	created      bool
}

// mcpToken chooses the tokens: --token-file, else ELEMCTL_MCP_TOKEN (one
// token of full scope), else – on loopback only – the token file in
// elemctl's data directory (created at first use). An address other
// machines can reach needs a token named on purpose.
func (a *app) mcpToken(ctx context.Context, hf mcpHTTPFlags, addr mcp.ListenAddress, wd string) (mcpToken, error) {
	switch {
	case hf.tokenFile != "":
		path := absFrom(wd, hf.tokenFile)
		tokens, created, err := mcp.LoadTokenFile(ctx, path)
		return mcpToken{tokens: tokens, source: "file", file: path, created: created}, err
	case a.getenv(tokenEnv) != "":
		value := strings.TrimSpace(a.getenv(tokenEnv))
		return mcpToken{tokens: []mcp.Token{{Value: value, Scope: mcp.ScopeFull, Name: tokenEnv}}, source: "env"}, mcp.CheckToken(ctx, value, tokenEnv)
	case !addr.Loopback:
		return mcpToken{}, platform.ConfigErrorf(ctx, "mcp.cli.needs-token", "addr", hf.addr)
	}
	dir, err := userdir.Dir(userdir.State, a.getenv, runtime.GOOS)
	if err != nil {
		return mcpToken{}, platform.ConfigErrorf(ctx, "mcp.cli.no-token-dir")
	}
	path := filepath.Join(dir, defaultTokenFile)
	tokens, created, err := mcp.LoadTokenFile(ctx, path)
	return mcpToken{tokens: tokens, source: "file", file: path, created: created}, err
}

func absFrom(wd, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(wd, path)
}

// mcpInstallCommand writes elemctl into an agent client's configuration.
func (a *app) mcpInstallCommand(ctx context.Context, cmd *cobra.Command) {
	var client, scope, name, command, launcher string
	var print bool
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		// The stand's .env is the one connection option the client's
		// configuration keeps.
		var others []string
		for _, g := range a.givenConnectionFlags() {
			if g != options.EnvFile.Flag() {
				others = append(others, g)
			}
		}
		if len(others) > 0 {
			return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.install-connection-flags", "flags", strings.Join(others, ", "))}
		}
		if client == "" {
			return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.install-needs-client", "clients", strings.Join(mcpinstall.Clients, ", "))}
		}
		wd, _ := os.Getwd()
		envFile := ""
		if a.str(options.EnvFile) != "" {
			abs, err := platform.EnvFilePath(ctx, a.str(options.EnvFile), wd)
			if err != nil {
				return &handlerError{err}
			}
			envFile = abs
		}
		switch {
		case launcher != "" && command != "":
			return &handlerError{platform.ConfigErrorf(ctx, "mcp.cli.install-command-or-launcher")}
		case launcher != "":
		case command == "":
			command = thisExecutable()
		case strings.ContainsAny(command, `/\`):
			command = absFrom(wd, command)
		}
		// A bare name ("elemctl") stays as given: the client finds it
		// in PATH, as a project file shared by a team needs.
		res, err := mcpinstall.Install(ctx, mcpinstall.Options{
			Client: client, Scope: scope, Name: name, Command: command, Launcher: launcher, EnvFile: envFile,
			Print: print, Dir: wd, Getenv: a.getenv,
		})
		if err != nil {
			if res.File != "" {
				// The file could not be edited: the answer carries the
				// snippet to add by hand.
				_ = a.printAnswer(res.Object(true))
			}
			return &handlerError{err}
		}
		if err := a.printAnswer(res.Object(print)); err != nil {
			return &handlerError{err}
		}
		switch {
		case print:
			a.progress(i18n.T(ctx, "mcp.cli.install-print", "file", res.File))
		case !res.Changed:
			a.progress(i18n.T(ctx, "mcp.cli.install-unchanged", "file", res.File, "name", res.Name))
		case res.Created:
			a.progress(i18n.T(ctx, "mcp.cli.install-created", "file", res.File, "name", res.Name))
		default:
			a.progress(i18n.T(ctx, "mcp.cli.install-written", "file", res.File, "name", res.Name, "backup", res.Backup))
		}
		return nil
	}
	f := cmd.Flags()
	f.StringVar(&client, "client", "", i18n.T(ctx, "mcp.cli.flag-client", "clients", strings.Join(mcpinstall.Clients, ", ")))
	f.StringVar(&scope, "scope", mcpinstall.ScopeUser, i18n.T(ctx, "mcp.cli.flag-scope"))
	f.StringVar(&name, "name", mcpinstall.DefaultName, i18n.T(ctx, "mcp.cli.flag-name"))
	f.StringVar(&command, "command", "", i18n.T(ctx, "mcp.cli.flag-command"))
	f.StringVar(&launcher, "launcher", "", i18n.T(ctx, "mcp.cli.flag-launcher", "launchers", strings.Join(mcpinstall.Launchers, ", ")))
	f.BoolVar(&print, "print", false, i18n.T(ctx, "mcp.cli.flag-print"))
	completeFlagValues(cmd, "client", mcpinstall.Clients)
	completeFlagValues(cmd, "scope", []string{mcpinstall.ScopeUser, mcpinstall.ScopeProject})
	completeFlagValues(cmd, "launcher", mcpinstall.Launchers)
}

// thisExecutable is the absolute path the client is to run: the path this
// binary was started by when it names the same file (a stable link such as
// /usr/local/bin/elemctl survives upgrades), else the executable's own.
func thisExecutable() string {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	invoked := os.Args[0]
	if !strings.ContainsRune(invoked, os.PathSeparator) && !strings.ContainsRune(invoked, '/') {
		if p, err := exec.LookPath(invoked); err == nil {
			invoked = p
		} else {
			invoked = ""
		}
	}
	if invoked != "" {
		if abs, err := filepath.Abs(invoked); err == nil {
			if a, errA := os.Stat(abs); errA == nil {
				if b, errB := os.Stat(exe); errB == nil && os.SameFile(a, b) {
					return abs
				}
			}
		}
	}
	if abs, err := filepath.Abs(exe); err == nil {
		return abs
	}
	return exe
}
