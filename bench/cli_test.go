package bench

import (
	"os"
	"testing"
	"time"

	"github.com/elemctl/elemctl/platform/stand"
)

// BenchmarkVersion: `elemctl --version` wall time (target ≤ 10 ms).
func BenchmarkVersion(b *testing.B) {
	bin := elemctlBinary(b)
	_ = bin
	env := os.Environ()
	runTimed(b, env, "--version") // warm the page cache
	b.ResetTimer()
	reportMedian(b, "ms", 10, time.Millisecond, func() time.Duration { return runTimed(b, env, "--version") })
}

// BenchmarkAppsListBrief5000: `apps list --brief` over 5,000 applications of
// which 500 are live, end to end (target ≤ 150 ms).
func BenchmarkAppsListBrief5000(b *testing.B) {
	s := benchStand(b, stand.Options{})
	if err := s.SeedApps(5000, 500); err != nil {
		b.Fatal(err)
	}
	env := standEnv(b, s)
	runTimed(b, env, "apps", "list", "--brief") // token into the cache
	b.ResetTimer()
	reportMedian(b, "ms", 150, time.Millisecond, func() time.Duration { return runTimed(b, env, "apps", "list", "--brief") })
}
