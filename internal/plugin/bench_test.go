package plugin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/plugin"
)

// BenchmarkInstall20: discovering 20 plugins of three commands each and
// adding them to a catalog – the whole cost plugins add to every elemctl
// start before the command tree is built (target ≤ 5 ms).
func BenchmarkInstall20(b *testing.B) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	root := b.TempDir()
	for i := 0; i < 20; i++ {
		dir := filepath.Join(root, fmt.Sprintf("plugin-%02d", i))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\n"), 0o755)
		manifest := fmt.Sprintf(`{"name": "plugin-%02d", "executable": "run", "requires": ["multiple"], "commands": [`, i)
		for j := 0; j < 3; j++ {
			if j > 0 {
				manifest += ","
			}
			manifest += fmt.Sprintf(`{"name": "p%02d-c%d", "help": "a command", "arguments": [
				{"name": "app", "cli_alias": "--app-id", "required": false},
				{"name": "--count", "type": "int", "default": 1},
				{"name": "--tag", "multiple": true},
				{"name": "--verbose", "type": "bool"}]}`, i, j)
		}
		os.WriteFile(filepath.Join(dir, "elemctl-plugin.json"), []byte(manifest+"]}"), 0o644)
	}
	env := map[string]string{"ELEMCTL_PLUGIN_PATH": root, "HOME": b.TempDir()}
	getenv := func(k string) string { return env[k] }
	b.ResetTimer()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		cat := catalog.Core()
		start := time.Now()
		l := plugin.Install(ctx, cat, plugin.Options{Getenv: getenv})
		total += time.Since(start)
		if len(l.Commands) != 60 {
			b.Fatalf("%d commands, failures %+v", len(l.Commands), l.Failures)
		}
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(time.Millisecond), "ms")
	b.ReportMetric(5, "target-ms")
}
