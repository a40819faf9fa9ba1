// Package adapter locates the platform's Java debug adapter – a directory
// whose repo/ holds com.e1c.g5rt.debugger.adapter*.jar – and extracts it
// from a 1C:Element distribution the user is licensed for.
//
// The places looked at, in order: ELEMCTL_DEBUG_ADAPTER; the debug_adapter
// of each plugin, in name order; the adapter `debug-adapter extract` put
// into elemctl's data directory by default. The first directory holding
// the adapter's jar wins.
package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

// MainClass is the adapter's entry point.
const MainClass = "com.e1c.g5rt.debugger.adapter.App"

// EnvDir names an adapter directory explicitly; it is checked before
// plugins.
const EnvDir = "ELEMCTL_DEBUG_ADAPTER"

// IndexFile lists the extracted versions of an output directory.
const IndexFile = "index.json"

// jarPattern is the adapter's own jar; third-party jars beside it do not
// make a directory an adapter.
const jarPattern = "com.e1c.g5rt.debugger.adapter*.jar"

// CommandTimeout bounds a plugin program that prints the adapter directory.
var CommandTimeout = 10 * time.Second

// Candidate is one place an adapter may be.
type Candidate struct {
	Path    string
	HasJars bool
	// Source names where it came from: "env", a plugin's name, or
	// "extracted".
	Source string
}

// Index is the content of index.json.
type Index struct {
	Available []string `json:"available"`
	Default   string   `json:"default"`
}

// HasJars tells whether dir/repo holds the adapter's jar. The match is a
// glob, so it follows the file system's case rules: exact on POSIX,
// case-insensitive on Windows.
func HasJars(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, "repo"))
	if err != nil {
		return false
	}
	pattern := jarPattern
	fold := runtime.GOOS == "windows"
	if fold {
		pattern = strings.ToLower(pattern)
	}
	for _, e := range entries {
		name := e.Name()
		if fold {
			name = strings.ToLower(name)
		}
		if ok, _ := filepath.Match(pattern, name); ok && !e.IsDir() {
			return true
		}
	}
	return false
}

// Locator walks the candidates lazily: a plugin program runs only when the
// places before it did not hold the adapter.
type Locator struct {
	opts manifest.Options
	set  *manifest.Set
}

// NewLocator looks at the plugins of set (nil: discover them with opts).
func NewLocator(ctx context.Context, opts manifest.Options, set *manifest.Set) *Locator {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.GOOS == "" {
		opts.GOOS = runtime.GOOS
	}
	if set == nil {
		set = manifest.Discover(ctx, opts)
	}
	return &Locator{opts: opts, set: set}
}

// Walk calls visit for each candidate in order until visit returns false.
// A plugin whose declaration cannot be resolved (its program fails, its
// index is broken) stops the walk with an error.
func (l *Locator) Walk(ctx context.Context, visit func(Candidate) bool) error {
	if dir := strings.TrimSpace(l.opts.Getenv(EnvDir)); dir != "" {
		path := resolveDir(dir)
		if !visit(Candidate{Path: path, HasJars: HasJars(path), Source: "env"}) {
			return nil
		}
	}
	for _, p := range l.set.Plugins {
		if p.Adapter == nil {
			continue
		}
		path, err := resolveDecl(ctx, p)
		if err != nil {
			return err
		}
		if !visit(Candidate{Path: path, HasJars: HasJars(path), Source: p.Name}) {
			return nil
		}
	}
	if data := manifest.DataDir(l.opts.Getenv, l.opts.GOOS); data != "" {
		out := DefaultOutput(l.opts.Getenv, l.opts.GOOS)
		if idx, err := ReadIndex(out); err == nil && idx.Default != "" {
			path := filepath.Join(out, idx.Default)
			visit(Candidate{Path: path, HasJars: HasJars(path), Source: "extracted"})
		}
	}
	return nil
}

// Locate is the first candidate holding the adapter's jar, or "".
func (l *Locator) Locate(ctx context.Context) (string, error) {
	found := ""
	err := l.Walk(ctx, func(c Candidate) bool {
		if c.HasJars {
			found = c.Path
			return false
		}
		return true
	})
	if err != nil {
		return "", err
	}
	return found, nil
}

// All lists every candidate, jar-less ones included.
func (l *Locator) All(ctx context.Context) ([]Candidate, error) {
	var out []Candidate
	err := l.Walk(ctx, func(c Candidate) bool {
		out = append(out, c)
		return true
	})
	return out, err
}

// Locate finds the adapter directory for the environment getenv describes,
// or "" when none is installed.
func Locate(ctx context.Context, getenv func(string) string) (string, error) {
	return NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).Locate(ctx)
}

// DefaultOutput is where `debug-adapter extract` puts the adapter unless
// told otherwise: <data dir>/adapter, which the locator looks at last.
func DefaultOutput(getenv func(string) string, goos string) string {
	if d := manifest.DataDir(getenv, goos); d != "" {
		return filepath.Join(d, "adapter")
	}
	return "adapter"
}

// resolveDir turns a directory that is an extract output (index.json, no
// repo/) into its default version's directory.
func resolveDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if st, err := os.Stat(filepath.Join(dir, "repo")); err == nil && st.IsDir() {
		return dir
	}
	if idx, err := ReadIndex(dir); err == nil && idx.Default != "" {
		return filepath.Join(dir, idx.Default)
	}
	return dir
}

// ReadIndex reads index.json of an output directory (or the file itself).
func ReadIndex(path string) (*Index, error) {
	file := path
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		file = filepath.Join(path, IndexFile)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var idx Index
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &idx); err != nil {
		return nil, err
	}
	return &idx, nil
}

func pluginError(ctx context.Context, source, key string, args ...any) error {
	return &platform.Error{Kind: platform.KindPlugin, Message: i18n.T(ctx, "plugins.ctx-plugin", "source", source) + ": " + i18n.T(ctx, key, args...)}
}

// resolveDecl turns a plugin's debug_adapter into a directory.
func resolveDecl(ctx context.Context, p *manifest.Plugin) (string, error) {
	d := p.Adapter
	switch {
	case d.Path != "":
		return resolveDir(d.Path), nil
	case d.Index != "":
		idx, err := ReadIndex(d.Index)
		if err != nil {
			return "", pluginError(ctx, p.Name, "plugins.adapter-index-broken", "file", d.Index, "error", err)
		}
		if idx.Default == "" {
			return "", pluginError(ctx, p.Name, "plugins.adapter-index-broken", "file", d.Index, "error", `no "default"`)
		}
		base := d.Index
		if st, err := os.Stat(base); err != nil || !st.IsDir() {
			base = filepath.Dir(base)
		}
		return filepath.Join(base, idx.Default), nil
	default:
		return runAdapterCommand(ctx, p)
	}
}

func runAdapterCommand(ctx context.Context, p *manifest.Plugin) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, CommandTimeout)
	defer cancel()
	argv := p.Adapter.Command
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = p.Dir
	cmd.Stdin = nil
	cmd.WaitDelay = time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errOut
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return "", pluginError(ctx, p.Name, "plugins.adapter-command-timeout", "command", strings.Join(argv, " "), "seconds", CommandTimeout.Seconds())
	}
	if err != nil {
		detail := strings.TrimSpace(errOut.String())
		if detail == "" {
			detail = err.Error()
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			detail = err.Error()
		}
		return "", pluginError(ctx, p.Name, "plugins.adapter-command-failed", "command", strings.Join(argv, " "), "error", detail)
	}
	line := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	if line == "" {
		return "", pluginError(ctx, p.Name, "plugins.adapter-command-failed", "command", strings.Join(argv, " "), "error", i18n.T(ctx, "plugins.adapter-command-empty"))
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(p.Dir, line)
	}
	return resolveDir(line), nil
}
