package lsp

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/elemctl/elemctl/platform"
)

// clientCache keeps one platform client per stand for the life of the
// session, so a quick command reuses the connection and the token. A stand
// is named by the absolute path of its .env (and by whether the startup
// flags apply); an entry is rebuilt when that file changes.
type clientCache struct {
	opts Options

	mu      sync.Mutex
	entries map[cacheKey]*cacheEntry
	closed  bool
}

type cacheKey struct {
	path string
	// startup: the server's connection flags apply (the call named no
	// envFile of its own).
	startup bool
}

type fileSignature struct {
	exists      bool
	modNs, size int64
}

type cacheEntry struct {
	sig       fileSignature
	cfg       *platform.Config
	client    *platform.Client
	clientErr error
}

func newClientCache(o Options) *clientCache {
	return &clientCache{opts: o, entries: map[cacheKey]*cacheEntry{}}
}

func signatureOf(path string) fileSignature {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return fileSignature{}
	}
	return fileSignature{exists: true, modNs: st.ModTime().UnixNano(), size: st.Size()}
}

// resolve returns the configuration and client of a call running in cwd
// with envFile ("" = the startup --env-file, else <cwd>/.env). The
// configuration may be there while the client is not (credentials
// missing): a command that never reaches the platform still runs.
func (c *clientCache) resolve(cwd, envFile string) (*platform.Config, *platform.Client, error, error) {
	var (
		key  cacheKey
		load platform.LoadOptions
	)
	switch {
	case envFile != "":
		abs, err := platform.EnvFilePath(envFile, cwd)
		if err != nil {
			return nil, nil, err, err
		}
		key = cacheKey{path: abs}
		// Another stand takes only the timeout from the startup flags.
		load = platform.LoadOptions{EnvFile: abs, Dir: cwd, Getenv: c.opts.Getenv,
			Overrides: platform.Overrides{Timeout: c.opts.Overrides.Timeout}}
	case c.opts.EnvFile != "":
		if _, err := platform.EnvFilePath(c.opts.EnvFile, cwd); err != nil {
			return nil, nil, err, err
		}
		key = cacheKey{path: c.opts.EnvFile, startup: true}
		load = platform.LoadOptions{EnvFile: c.opts.EnvFile, Dir: cwd, Getenv: c.opts.Getenv, Overrides: c.opts.Overrides}
	default:
		key = cacheKey{path: filepath.Join(cwd, ".env"), startup: true}
		load = platform.LoadOptions{Dir: cwd, Getenv: c.opts.Getenv, Overrides: c.opts.Overrides}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	sig := signatureOf(key.path)
	if old := c.entries[key]; old != nil && old.sig == sig {
		if old.client == nil {
			// The credentials were missing last time: try again.
			old.client, old.clientErr = platform.NewClient(old.cfg, c.opts.ClientOptions)
		}
		return old.cfg, old.client, nil, old.clientErr
	}
	cfg, err := platform.LoadConfig(load)
	if err != nil {
		return nil, nil, err, err
	}
	entry := &cacheEntry{sig: sig, cfg: cfg}
	entry.client, entry.clientErr = platform.NewClient(cfg, c.opts.ClientOptions)
	if c.closed {
		return entry.cfg, entry.client, nil, entry.clientErr
	}
	if old := c.entries[key]; old != nil && old.client != nil {
		old.client.Close()
	}
	c.entries[key] = entry
	return entry.cfg, entry.client, nil, entry.clientErr
}

func (c *clientCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for k, e := range c.entries {
		if e.client != nil {
			e.client.Close()
		}
		delete(c.entries, k)
	}
}
