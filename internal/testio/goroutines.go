package testio

import (
	"bytes"
	"runtime/pprof"
	"strings"
	"time"
)

// StuckGoroutines waits up to within for no goroutine of this process to
// be inside a function whose name holds one of marks (a package path such
// as "elemctl/internal/ops/"), and returns the stacks of those still there
// when the time is up: a served call that was cancelled must leave none.
func StuckGoroutines(within time.Duration, marks ...string) []string {
	deadline := time.Now().Add(within)
	for {
		stuck := goroutinesIn(marks)
		if len(stuck) == 0 || time.Now().After(deadline) {
			return stuck
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func goroutinesIn(marks []string) []string {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
	var out []string
	for _, stack := range strings.Split(buf.String(), "\n\n") {
		for _, m := range marks {
			if strings.Contains(stack, m) {
				out = append(out, stack)
				break
			}
		}
	}
	return out
}
