package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// currentGC reads the collector's settings without keeping a change.
func currentGC() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func restoreGC(t *testing.T) {
	percent, limit := currentGC()
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

func TestServersRaiseTheCollectorGoal(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	// t.Setenv sets them empty; the tuning asks whether they are set at all.
	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	debug.SetGCPercent(100)
	tuneCollectorForServing()
	if percent, limit := currentGC(); percent != serverGCPercent || limit != serverMemoryLimit {
		t.Fatalf("GOGC %d, limit %d; want %d and %d", percent, limit, serverGCPercent, serverMemoryLimit)
	}
}

func TestServersKeepTheUsersCollectorSettings(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	tuneCollectorForServing()
	if percent, limit := currentGC(); percent != 50 || limit != 1<<30 {
		t.Fatalf("GOGC %d, limit %d; the user's 50 and 1GiB must stay", percent, limit)
	}
}

func unsetenv(t *testing.T, name string) {
	t.Helper()
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
