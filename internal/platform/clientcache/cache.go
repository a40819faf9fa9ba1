// Package clientcache keeps one platform client per stand for the life of
// a server (mcp, lsp), so calls reuse connections and tokens. A stand is
// named by the absolute path of its .env; an entry is rebuilt when that
// file's modification time or size changes (permission-only changes are
// not seen, by design).
package clientcache

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// Options describe the server's own stand.
type Options struct {
	// Dir is where the server started: its --env-file is resolved from it.
	Dir    string
	Getenv func(string) string
	// EnvFile is the startup --env-file as given ("" = ./.env of the call's
	// directory when present).
	EnvFile   string
	Overrides platform.Overrides
	// Pinned is a ready configuration for calls without an env file of
	// their own (library use); nil for the command-line servers.
	Pinned        *platform.Config
	ClientOptions platform.ClientOptions
	// Log receives what the cache has to tell: a client whose close
	// panicked. nil means ClientOptions.Warn, else standard error.
	Log func(string)
	// Lang is the language of what Log receives: the server's.
	Lang i18n.Lang
}

// Cache is safe for concurrent use: all lookups and stores run under one
// lock, so concurrent calls for one stand build exactly one client.
type Cache struct {
	opts Options

	mu           sync.Mutex
	entries      map[key]*entry
	pinnedClient *platform.Client
	closed       bool

	builds atomic.Int64
}

// key names an entry: the absolute .env path, and whether the startup
// identity overrides (base URL, client id or secret) went into it, so a
// default call with overrides never shares a client with a call that names
// the same file explicitly.
type key struct {
	path            string
	startupIdentity bool
}

// signature tells whether a .env changed: modification time in ns plus
// size, or "nothing there".
type signature struct {
	exists bool
	modNs  int64
	size   int64
}

type entry struct {
	sig    signature
	cfg    *platform.Config
	client *platform.Client
}

// New builds an empty cache.
func New(o Options) *Cache {
	if o.Dir == "" {
		o.Dir, _ = os.Getwd()
	}
	if o.Log == nil {
		o.Log = o.ClientOptions.Warn
	}
	if o.Log == nil {
		o.Log = func(line string) { fmt.Fprintln(os.Stderr, line) }
	}
	return &Cache{opts: o, entries: map[key]*entry{}}
}

func signatureOf(path string) signature {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return signature{}
	}
	return signature{exists: true, modNs: st.ModTime().UnixNano(), size: st.Size()}
}

func (c *Cache) hasIdentityOverrides() bool {
	o := c.opts.Overrides
	return o.BaseURL != "" || o.ClientID != "" || o.ClientSecret != ""
}

// Resolve returns the configuration and the client of a call running in
// dir ("" = the server's directory) that names envFile ("" = the server's
// stand). An explicit envFile takes only the timeout of the startup flags;
// the server's stand takes all of them. The configuration may be there
// while the client is not (credentials missing): clientErr says why, and a
// command that never reaches the platform still runs. ctx carries the
// language of the refusals.
func (c *Cache) Resolve(ctx context.Context, dir, envFile string) (cfg *platform.Config, cl *platform.Client, cfgErr, clientErr error) {
	if dir == "" {
		dir = c.opts.Dir
	}
	if envFile == "" && c.opts.Pinned != nil {
		return c.resolvePinned(ctx)
	}
	var (
		path string
		k    key
		load platform.LoadOptions
	)
	if envFile != "" {
		abs, err := platform.EnvFilePath(ctx, envFile, dir)
		if err != nil {
			return nil, nil, err, err
		}
		path, k = abs, key{path: abs}
		load = platform.LoadOptions{EnvFile: abs, Dir: dir, Getenv: c.opts.Getenv,
			Overrides: platform.Overrides{Timeout: c.opts.Overrides.Timeout}}
	} else {
		fileOpt := ""
		if c.opts.EnvFile != "" {
			abs, err := platform.EnvFilePath(ctx, c.opts.EnvFile, c.opts.Dir)
			if err != nil {
				return nil, nil, err, err
			}
			path, fileOpt = abs, abs
		} else {
			path = filepath.Join(dir, ".env")
		}
		k = key{path: path, startupIdentity: c.hasIdentityOverrides()}
		load = platform.LoadOptions{EnvFile: fileOpt, Dir: dir, Getenv: c.opts.Getenv, Overrides: c.opts.Overrides}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	sig := signatureOf(path)
	if envFile != "" && !sig.exists {
		// Deleted between the check above and now.
		err := platform.ConfigErrorf(ctx, "config.env-file-missing", "path", envFile, "absolute", path, "cwd", dir)
		return nil, nil, err, err
	}
	old := c.entries[k]
	if old != nil && old.sig == sig {
		if old.client == nil {
			// The configuration stands; the client could not be built
			// last time (credentials missing): try again.
			old.client, clientErr = c.newClient(ctx, old.cfg)
		}
		return old.cfg, old.client, nil, clientErr
	}
	cfg, err := platform.LoadConfig(ctx, load)
	if err != nil {
		return nil, nil, err, err
	}
	e := &entry{sig: sig, cfg: cfg}
	e.client, clientErr = c.newClient(ctx, cfg)
	if c.closed {
		// The server is shutting down: serve this call, keep nothing.
		return e.cfg, e.client, nil, clientErr
	}
	c.entries[k] = e
	// The new client is stored first; only then is the old one closed, so
	// a failing close costs nothing but the close.
	if old != nil && old.client != nil {
		c.closeQuietly(old.client)
	}
	return e.cfg, e.client, nil, clientErr
}

func (c *Cache) resolvePinned(ctx context.Context) (*platform.Config, *platform.Client, error, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pinnedClient != nil {
		return c.opts.Pinned, c.pinnedClient, nil, nil
	}
	cl, err := c.newClient(ctx, c.opts.Pinned)
	if err != nil {
		return c.opts.Pinned, nil, nil, err
	}
	c.pinnedClient = cl
	return c.opts.Pinned, cl, nil, nil
}

// newClient builds a client; callers hold c.mu.
func (c *Cache) newClient(ctx context.Context, cfg *platform.Config) (*platform.Client, error) {
	cl, err := platform.NewClient(ctx, cfg, c.opts.ClientOptions)
	if err != nil {
		return nil, err
	}
	c.builds.Add(1)
	return cl, nil
}

// Builds counts the clients built so far.
func (c *Cache) Builds() int64 { return c.builds.Load() }

// Close closes every cached client; later calls are served without caching.
func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for k, e := range c.entries {
		if e.client != nil {
			c.closeQuietly(e.client)
		}
		delete(c.entries, k)
	}
	if c.pinnedClient != nil {
		c.closeQuietly(c.pinnedClient)
		c.pinnedClient = nil
	}
}

// closeQuietly closes a client; a panicking close loses only the close,
// and the log says so.
func (c *Cache) closeQuietly(cl *platform.Client) {
	defer c.recoverClose(cl.Config())
	cl.Close()
}

// recoverClose, deferred, logs a panic of closing the client of cfg (nil
// when unknown): the stand, the panic and where it happened, the stand's
// client secret masked.
func (c *Cache) recoverClose(cfg *platform.Config) {
	r := recover()
	if r == nil {
		return
	}
	stand := "?"
	if cfg != nil && cfg.BaseURL != "" {
		stand = cfg.BaseURL
	}
	text := i18n.TL(c.opts.Lang, "clientcache.close-panicked", "stand", stand, "panic", fmt.Sprint(r)) + "\n" + string(debug.Stack())
	if cfg != nil && len(cfg.ClientSecret) >= 4 {
		text = strings.ReplaceAll(text, cfg.ClientSecret, "***")
	}
	c.opts.Log(text)
}
