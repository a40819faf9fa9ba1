package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkBuildsListBrief2000: `builds list --brief` over a project of
// 2,000 builds with a local registry of 1,000 lines, end to end (target
// ≤ 100 ms). The registry remembers the newest 1,000 builds, so the brief
// cards and the history summary both consult it.
//
// The stand: elemctl stand --seed demo --builds 2000
func BenchmarkBuildsListBrief2000(b *testing.B) {
	const builds, lines = 2000, 1000
	s := benchStand(b, "--seed", "demo", "--builds", fmt.Sprint(builds))
	var ids []string
	for _, card := range s.get(b, "/projects/"+s.ProjectID+"/assemblies") {
		ids = append(ids, card["id"].(string))
	}
	if len(ids) != builds {
		b.Fatalf("the stand holds %d builds, want %d", len(ids), builds)
	}
	env := standEnv(b, s)
	// Builds are listed in upload order, 1.0-1 first.
	writeRegistry(b, dataDir(b, env), s.URL, s.ProjectID, ids[len(ids)-lines:], 1+len(ids)-lines)
	args := []string{"builds", "list", "--brief", "--project-id", s.ProjectID}
	runTimed(b, env, args...) // token into the cache
	b.ResetTimer()
	reportMedian(b, "ms", 100, time.Millisecond, func() time.Duration { return runTimed(b, env, args...) })
}

// dataDir is the ELEMCTL_DATA_DIR of a benchmark environment.
func dataDir(b *testing.B, env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "ELEMCTL_DATA_DIR="); ok {
			return v
		}
	}
	b.Fatal("the benchmark environment has no ELEMCTL_DATA_DIR")
	return ""
}

// writeRegistry writes one registry line per build, as `builds upload`
// into the project would have: ids[i] got the version 1.0-(first+i).
func writeRegistry(b *testing.B, dir, standURL, project string, ids []string, first int) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for i, id := range ids {
		line, err := json.Marshal(map[string]any{
			"assembly-id": id, "project-id": project, "version": fmt.Sprintf("1.0-%d", first+i),
			"branch": "main", "commit": fmt.Sprintf("%040x", i), "dirty": i%7 == 0, "project-dir": "/src/Acme/Tasks",
			"file": fmt.Sprintf("/src/dist/Tasks 1.0-%d.xasm", first+i), "stand": standURL, "command": "builds upload",
			"uploaded-at": "2026-01-02T10:00:00+03:00", "elemctl": "bench", "app-id": nil, "route": "project",
		})
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(line)
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "uploads.jsonl"), []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}
