// Package manifest finds plugins and reads their manifests. Discovery reads
// files only – no plugin process starts until one of its commands runs – so
// every elemctl start stays fast however many plugins are installed.
//
// A plugin is a directory holding elemctl-plugin.json. Plugins are looked
// for in the directories of ELEMCTL_PLUGIN_PATH (a path list) and then in
// the user's plugin directory, one subdirectory per plugin. A plugin name
// found twice is taken from its first place, as PATH does with programs.
package manifest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/textenc"
	"github.com/elemctl/elemctl/internal/userdir"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// Environment variables.
const (
	// EnvDisable turns plugin discovery off: any value other than "", "0",
	// "false" and "no" (case and surrounding spaces aside).
	EnvDisable = "ELEMCTL_NO_PLUGINS"
	// EnvPath lists extra plugin directories.
	EnvPath = "ELEMCTL_PLUGIN_PATH"
)

// Default time limits.
const (
	DefaultTimeout        = 10 * time.Minute
	DefaultStartupTimeout = 5 * time.Second
)

// Options say where and how to discover.
type Options struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// GOOS is the operating system whose rules apply; "" means the running
	// one.
	GOOS string
	// Version is elemctl's version, named when a plugin needs a newer one.
	Version string
}

func (o *Options) norm() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
}

// Disabled applies the ELEMCTL_NO_PLUGINS rule: discovery is off unless the
// value, stripped and lower-cased, is "", "0", "false" or "no".
func Disabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv(EnvDisable))) {
	case "", "0", "false", "no":
		return false
	}
	return true
}

// DataDir is elemctl's per-user data directory (userdir.Data):
// %LOCALAPPDATA%\elemctl on Windows, else $XDG_DATA_HOME/elemctl or
// ~/.local/share/elemctl. It is "" when no home directory is known.
func DataDir(getenv func(string) string, goos string) string {
	d, _ := userdir.Dir(userdir.Data, getenv, goos)
	return d
}

// UserPluginDir is the user's plugin directory (DataDir/plugins), or "".
func UserPluginDir(getenv func(string) string, goos string) string {
	if d := DataDir(getenv, goos); d != "" {
		return userdir.Join(goos, d, "plugins")
	}
	return ""
}

// Dirs are the directories searched for plugins, in order.
func Dirs(getenv func(string) string, goos string) []string {
	var out []string
	for _, d := range filepath.SplitList(getenv(EnvPath)) {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	if d := UserPluginDir(getenv, goos); d != "" {
		out = append(out, d)
	}
	return out
}

// Failure is a plugin (or one of its commands or tools) that did not load.
type Failure struct {
	Source string `json:"source"`
	Error  string `json:"error"`
	// MCPOnly marks a failure that costs a tool only; the CLI command
	// works and the CLI does not report it.
	MCPOnly bool `json:"-"`
}

// Set is the result of discovery: the healthy plugins in name order and
// the failures.
type Set struct {
	Plugins  []*Plugin
	Failures []Failure
}

// Discover finds and validates every plugin. With discovery disabled the
// set is empty.
func Discover(ctx context.Context, opts Options) *Set {
	opts.norm()
	set := &Set{}
	if Disabled(opts.Getenv) {
		return set
	}
	seen := map[string]bool{}
	type found struct {
		p   *Plugin
		err error
		src string
	}
	var all []found
	for _, root := range Dirs(opts.Getenv, opts.GOOS) {
		entries, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		// ReadDir sorts by name.
		for _, e := range entries {
			dir := filepath.Join(root, e.Name())
			if !isDir(e, dir) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, protocol.ManifestFile))
			if os.IsNotExist(err) {
				continue
			}
			p, perr := parseFile(ctx, dir, data, err, opts)
			name := e.Name()
			if p != nil {
				name = p.Name
			} else if perr != nil {
				if pe, ok := perr.(*Error); ok && pe.Source != "" {
					name = pe.Source
				}
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			all = append(all, found{p: p, err: perr, src: name})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].src < all[j].src })
	for _, f := range all {
		if f.err != nil {
			set.Failures = append(set.Failures, Failure{Source: f.src, Error: f.err.Error()})
			continue
		}
		set.Plugins = append(set.Plugins, f.p)
	}
	return set
}

// isDir follows a symbolic link to a directory, so plugins may be linked
// into the plugin directory.
func isDir(e os.DirEntry, path string) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink != 0 {
		st, err := os.Stat(path)
		return err == nil && st.IsDir()
	}
	return false
}

// Load reads and validates the plugin in dir.
func Load(ctx context.Context, dir string, opts Options) (*Plugin, error) {
	opts.norm()
	data, err := os.ReadFile(filepath.Join(dir, protocol.ManifestFile))
	return parseFile(ctx, dir, data, err, opts)
}

func parseFile(ctx context.Context, dir string, data []byte, readErr error, opts Options) (*Plugin, error) {
	source := filepath.Base(dir)
	file := filepath.Join(dir, protocol.ManifestFile)
	if readErr != nil {
		return nil, pluginErr(ctx, source, "plugins.manifest-unreadable", "file", file, "error", readErr)
	}
	// Windows PowerShell 5.1's `>` writes UTF-16 LE: read it as the .env
	// reader does.
	text, _, err := textenc.Decode(data)
	if err != nil {
		return nil, pluginErr(ctx, source, "plugins.manifest-encoding", "file", file, "encoding", err.(*textenc.Error).Encoding)
	}
	return Parse(ctx, dir, []byte(text), opts)
}
