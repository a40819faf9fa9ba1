package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkVersion: `elemctl --version` wall time (target ≤ 10 ms).
func BenchmarkVersion(b *testing.B) {
	bin := elemctlBinary(b)
	_ = bin
	env := os.Environ()
	runTimed(b, env, "--version") // warm the page cache
	b.ResetTimer()
	reportStartMedian(b, "ms", 10, time.Millisecond, func() time.Duration { return runTimed(b, env, "--version") })
}

// BenchmarkEmptyGoProgram: the start of a Go program that does nothing,
// built and run the way elemctl is. It has no target: it is the machine's
// share of every start figure here (process creation, the Go runtime's
// start, exit), against which Version and PluginRoundTrip read.
func BenchmarkEmptyGoProgram(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module empty\n\ngo 1.21\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	exe := filepath.Join(dir, "empty")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", exe, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	run := func() time.Duration {
		start := time.Now()
		if err := exec.Command(exe).Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	run() // warm the page cache
	b.ResetTimer()
	b.ReportMetric(medianSample(b, startSamples, time.Millisecond, run), "ms")
}

// BenchmarkAppsListBrief5000: `apps list --brief` over 5,000 applications of
// which 500 are live, end to end (target ≤ 150 ms).
//
// The stand: elemctl stand --apps 500 --deleted-apps 4500
func BenchmarkAppsListBrief5000(b *testing.B) {
	s := benchStand(b, "--apps", "500", "--deleted-apps", "4500")
	env := standEnv(b, s)
	runTimed(b, env, "apps", "list", "--brief") // token into the cache
	b.ResetTimer()
	reportMedian(b, "ms", 150, time.Millisecond, func() time.Duration { return runTimed(b, env, "apps", "list", "--brief") })
}
