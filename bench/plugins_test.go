package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// pluginEnv is an environment with the plugins of dir and nothing from the
// user's own plugin directory.
func pluginEnv(b *testing.B, dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ELEMCTL_NO_PLUGINS=") || strings.HasPrefix(kv, "ELEMCTL_PLUGIN_PATH=") {
			continue
		}
		env = append(env, kv)
	}
	home := b.TempDir()
	env = append(env, "XDG_DATA_HOME="+filepath.Join(home, "data"), "LOCALAPPDATA="+filepath.Join(home, "local"),
		"ELEMCTL_DATA_DIR="+filepath.Join(home, "elemctl"))
	if dir != "" {
		env = append(env, "ELEMCTL_PLUGIN_PATH="+dir)
	}
	return env
}

// twentyPlugins writes 20 plugin directories of three commands each.
func twentyPlugins(b *testing.B) string {
	root := b.TempDir()
	for i := 0; i < 20; i++ {
		dir := filepath.Join(root, fmt.Sprintf("plugin-%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		var cmds []string
		for j := 0; j < 3; j++ {
			cmds = append(cmds, fmt.Sprintf(`{"name": "p%02d-c%d", "help": "a command", "arguments": [
				{"name": "app", "cli_alias": "--app-id", "required": false},
				{"name": "--count", "type": "int", "default": 1},
				{"name": "--tag", "multiple": true},
				{"name": "--verbose", "type": "bool"}]}`, i, j))
		}
		manifest := fmt.Sprintf(`{"name": "plugin-%02d", "executable": "run", "requires": ["multiple", "cli-alias"], "commands": [%s]}`, i, strings.Join(cmds, ","))
		if err := os.WriteFile(filepath.Join(dir, "elemctl-plugin.json"), []byte(manifest), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkStartupWith20Plugins: what 20 installed plugins add to an
// elemctl start, paired runs with and without them (target ≤ 5 ms). The
// command is `elemctl inspect --help`: a core command whose start looks
// for plugins like any other (`--version` is answered before they are
// looked for).
func BenchmarkStartupWith20Plugins(b *testing.B) {
	elemctlBinary(b)
	without, with := pluginEnv(b, ""), pluginEnv(b, twentyPlugins(b))
	runTimed(b, with, "inspect", "--help")
	runTimed(b, without, "inspect", "--help")
	b.ResetTimer()
	var diffs []float64
	for i := 0; i < b.N; i++ {
		// Several pairs per iteration: one pair is below the noise of
		// process start.
		var w, wo []time.Duration
		for k := 0; k < 9; k++ {
			wo = append(wo, runTimed(b, without, "inspect", "--help"))
			w = append(w, runTimed(b, with, "inspect", "--help"))
		}
		diffs = append(diffs, float64(medianOf(w)-medianOf(wo))/float64(time.Millisecond))
	}
	sort.Float64s(diffs)
	b.ReportMetric(diffs[len(diffs)/2], "ms")
	b.ReportMetric(5, "target-ms")
}

func medianOf(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkPluginRoundTrip: `elemctl echo` of a Go plugin end to end – the
// elemctl start, discovery, the plugin's start, handshake, run and exit
// (target ≤ 30 ms).
func BenchmarkPluginRoundTrip(b *testing.B) {
	elemctlBinary(b)
	dir := filepath.Join(b.TempDir(), "testplugin")
	name := "testplugin"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", exe, "../internal/plugin/testplugin")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	manifest, err := exec.Command(exe, "manifest").Output()
	if err != nil {
		b.Fatal(err)
	}
	abs, _ := json.Marshal(exe)
	manifest = []byte(strings.Replace(string(manifest), `"executable": "testplugin"`, `"executable": `+string(abs), 1))
	if err := os.WriteFile(filepath.Join(dir, "elemctl-plugin.json"), manifest, 0o644); err != nil {
		b.Fatal(err)
	}
	env := pluginEnv(b, filepath.Dir(dir))
	runTimed(b, env, "echo", "a", "--count", "2")
	b.ResetTimer()
	reportStartMedian(b, "ms", 30, time.Millisecond, func() time.Duration { return runTimed(b, env, "echo", "a", "--count", "2") })
}
