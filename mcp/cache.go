package mcp

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/elemctl/elemctl/platform"
)

// clientCache keeps one platform client per stand for the life of the
// server (spec §1.2). A stand is named by the absolute path of its .env;
// an entry is rebuilt when that file's modification time or size changes.
type clientCache struct {
	dir    string
	getenv func(string) string
	// envFile is the startup --env-file as given ("" = ./.env if present).
	envFile   string
	overrides platform.Overrides
	// pinned is a ready configuration for calls without env_file (library
	// use); nil for the command line server.
	pinned     *platform.Config
	clientOpts platform.ClientOptions

	mu           sync.Mutex
	entries      map[cacheKey]*cacheEntry
	pinnedClient *platform.Client
	closed       bool

	// builds counts the clients built, for the tests of the cache rules.
	builds atomic.Int64
}

// cacheKey names an entry: the absolute .env path, and whether the
// startup identity overrides (base URL, client id or secret) went into it,
// so a default call with overrides never shares a client with a call that
// names the same file explicitly.
type cacheKey struct {
	path            string
	startupIdentity bool
}

// fileSignature tells whether a .env changed: modification time in ns plus
// size, or "nothing there".
type fileSignature struct {
	exists bool
	modNs  int64
	size   int64
}

type cacheEntry struct {
	sig    fileSignature
	cfg    *platform.Config
	client *platform.Client
}

func signatureOf(path string) fileSignature {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return fileSignature{}
	}
	return fileSignature{exists: true, modNs: st.ModTime().UnixNano(), size: st.Size()}
}

// hasIdentityOverrides tells whether the startup flags name a stand or an
// account.
func (c *clientCache) hasIdentityOverrides() bool {
	o := c.overrides
	return o.BaseURL != "" || o.ClientID != "" || o.ClientSecret != ""
}

// resolve returns the configuration and the client of a call's stand.
// envFile is the call's own env_file ("" = the server's stand). The
// configuration may be there while the client is not (credentials
// missing): then clientErr says why, and a command that never reaches the
// platform still runs.
func (c *clientCache) resolve(envFile string) (cfg *platform.Config, cl *platform.Client, cfgErr, clientErr error) {
	if envFile == "" && c.pinned != nil {
		return c.resolvePinned()
	}
	var (
		path string
		key  cacheKey
		load platform.LoadOptions
	)
	if envFile != "" {
		abs, err := platform.EnvFilePath(envFile, c.dir)
		if err != nil {
			return nil, nil, err, err
		}
		path = abs
		key = cacheKey{path: abs}
		// Another stand takes only the timeout from the startup flags.
		load = platform.LoadOptions{EnvFile: envFile, Dir: c.dir, Getenv: c.getenv,
			Overrides: platform.Overrides{Timeout: c.overrides.Timeout}}
	} else {
		if c.envFile != "" {
			abs, err := platform.EnvFilePath(c.envFile, c.dir)
			if err != nil {
				return nil, nil, err, err
			}
			path = abs
		} else {
			path = filepath.Join(c.dir, ".env")
		}
		key = cacheKey{path: path, startupIdentity: c.hasIdentityOverrides()}
		load = platform.LoadOptions{EnvFile: c.envFile, Dir: c.dir, Getenv: c.getenv, Overrides: c.overrides}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	sig := signatureOf(path)
	if envFile != "" && !sig.exists {
		// Deleted between the check above and now.
		err := platform.ConfigErrorf("config.env-file-missing", "path", envFile, "absolute", path, "cwd", c.dir)
		return nil, nil, err, err
	}
	old := c.entries[key]
	if old != nil && old.sig == sig {
		if old.client == nil {
			// The configuration stands; the client could not be built
			// last time (credentials missing): try again.
			old.client, clientErr = c.newClient(old.cfg)
		}
		return old.cfg, old.client, nil, clientErr
	}
	cfg, err := platform.LoadConfig(load)
	if err != nil {
		return nil, nil, err, err
	}
	entry := &cacheEntry{sig: sig, cfg: cfg}
	entry.client, clientErr = c.newClient(cfg)
	if c.closed {
		// The server is shutting down: serve this call, keep nothing.
		return entry.cfg, entry.client, nil, clientErr
	}
	c.entries[key] = entry
	// The new client is stored first; only then is the old one closed, so
	// a failing close costs nothing but the close.
	if old != nil && old.client != nil {
		closeQuietly(old.client)
	}
	return entry.cfg, entry.client, nil, clientErr
}

func (c *clientCache) resolvePinned() (*platform.Config, *platform.Client, error, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pinnedClient != nil {
		return c.pinned, c.pinnedClient, nil, nil
	}
	cl, err := c.newClient(c.pinned)
	if err != nil {
		return c.pinned, nil, nil, err
	}
	c.pinnedClient = cl
	return c.pinned, cl, nil, nil
}

// newClient builds a client; callers hold c.mu.
func (c *clientCache) newClient(cfg *platform.Config) (*platform.Client, error) {
	cl, err := platform.NewClient(cfg, c.clientOpts)
	if err != nil {
		return nil, err
	}
	c.builds.Add(1)
	return cl, nil
}

// closeAll closes every cached client.
func (c *clientCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for k, e := range c.entries {
		if e.client != nil {
			closeQuietly(e.client)
		}
		delete(c.entries, k)
	}
	if c.pinnedClient != nil {
		closeQuietly(c.pinnedClient)
		c.pinnedClient = nil
	}
}

// closeQuietly closes a client; a panicking close loses only the close.
func closeQuietly(cl *platform.Client) {
	defer func() { _ = recover() }()
	cl.Close()
}
