package main

import (
	"context"
	"errors"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/mcp"
	"github.com/elemctl/elemctl/internal/plugin"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

// pluginAnnotation marks the cobra commands rendered by pluginLeaf.
const pluginAnnotation = "elemctl-plugin"

// loadPlugins adds the plugins' commands to the catalog before the command
// tree is built. Discovery reads manifests only; no plugin process starts
// here.
func (a *app) loadPlugins(ctx context.Context) {
	a.plugins = plugin.Install(ctx, a.catalog, plugin.Options{Getenv: a.getenv, Version: versionText(), Stderr: pluginStderr(a)})
}

// pluginFailures are the plugins, commands and tools that did not load.
func (a *app) pluginFailures() []manifest.Failure {
	if a.plugins == nil {
		return nil
	}
	return a.plugins.Failures
}

// pluginStderr is where a plugin's stderr goes. On a terminal the live
// status line may be drawn, so the plugin's output passes through the lock
// that clears it first. Anywhere else nothing is drawn over, and the plugin
// writes to elemctl's stderr itself: whole lines from either side stay
// whole, and no pipe and copy sit between.
func pluginStderr(a *app) io.Writer {
	if f, ok := a.stderr.(*os.File); ok && !isTerminal(f) {
		return f
	}
	return stderrLines{a}
}

// stderrLines passes a plugin's stderr through the app's stderr lock, so
// its lines do not cut into progress lines or the live status line.
type stderrLines struct{ a *app }

func (w stderrLines) Write(p []byte) (int, error) {
	w.a.errMu.Lock()
	defer w.a.errMu.Unlock()
	if w.a.status != nil {
		w.a.status.clearLocked()
	}
	return w.a.stderr.Write(p)
}

// reportPluginFailures prints a line per plugin that did not load before a
// command runs, through the progress channel (silenced by --quiet). Not
// before a command that keeps stderr plain (command.Command.PlainStderr),
// nor for the root (`--version`, an unknown command) and shell completion
// requests.
func (a *app) reportPluginFailures(ctx context.Context, cmd *cobra.Command) {
	if cmd == nil || !cmd.HasParent() || cmd.Annotations[plainStderrAnnotation] != "" {
		return
	}
	switch cmd.Name() {
	case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return
	}
	for _, f := range a.pluginFailures() {
		if !f.MCPOnly {
			a.progress(plugin.FailureLine(ctx, f, command.CLI))
		}
	}
}

// refuseUnknownWithFailures answers a command that does not exist while
// some plugins failed to load: the command may be theirs, so the answer is
// exit 1 with {"error", "plugin-failures"} on stderr instead of a usage
// error. nil when every plugin loaded.
func (a *app) refuseUnknownWithFailures(ctx context.Context, name string) error {
	var failed []manifest.Failure
	for _, f := range a.pluginFailures() {
		if !f.MCPOnly {
			failed = append(failed, f)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	var sources []string
	list := []any{}
	seen := map[string]bool{}
	for _, f := range failed {
		if !seen[f.Source] {
			seen[f.Source] = true
			sources = append(sources, f.Source)
		}
		list = append(list, jsonx.New("source", f.Source, "error", f.Error))
	}
	sort.Strings(sources)
	out, _ := jsonx.Marshal(jsonx.New(
		"error", i18n.T(ctx, "plugins.unknown-command", "name", name, "sources", strings.Join(sources, ", ")),
		"plugin-failures", list,
	))
	a.errMu.Lock()
	a.stderr.Write(out)
	a.errMu.Unlock()
	return &exitError{code: exitFailure}
}

// mcpPluginFailures are the failures the MCP server reports at start.
func mcpPluginFailures(a *app) []mcp.PluginFailure {
	var out []mcp.PluginFailure
	for _, f := range a.pluginFailures() {
		out = append(out, mcp.PluginFailure{Source: f.Source, Err: errors.New(f.Error)})
	}
	return out
}
