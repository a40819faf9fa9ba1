package bench

import (
	"os"
	"os/exec"
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
	exe := helperBinary(b, "empty", "package main\n\nfunc main() {}\n")
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
