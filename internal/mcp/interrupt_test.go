package mcp

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/testio"
)

// TestCancelledCallsEndAtAnyInstant cancels deploy, probe and
// build_assembly (notifications/cancelled: the in-process client cancels
// the call's context) at random instants across their run, seeded: each
// call must end within five seconds of the cancel, the probe must leave
// nothing on the stand, and no goroutine may stay inside an operation once
// the call ended.
func TestCancelledCallsEndAtAnyInstant(t *testing.T) {
	runs := 5
	if os.Getenv("ELEMCTL_FAULTS") == "full" {
		runs = 200
	}
	h := start(t, setup{})
	needTools(t, h, "deploy", "probe", "build_assembly")
	fastPolls(h)
	project := demoProject(t)
	out := t.TempDir()
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"build_assembly", map[string]any{"project_dir": project, "output_dir": out}},
		{"probe", map[string]any{"project_dir": project}},
		{"deploy", map[string]any{"app_id": h.demo.AppID, "project_id": h.demo.ProjectID, "project_dir": project}},
	}
	rng := rand.New(rand.NewPCG(20260301, 7))
	for _, c := range calls {
		began := time.Now()
		if res := h.call(c.tool, c.args); res.IsError {
			t.Fatalf("%s uncancelled: %s", c.tool, textOf(res))
		}
		span := time.Since(began)
		ended := 0
		for run := range runs {
			at := time.Duration(rng.Float64() * float64(span))
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = h.callWith(ctx, c.tool, c.args, nil)
			}()
			select {
			case <-done:
			case <-time.After(at):
				cancel()
				select {
				case <-done:
					ended++
				case <-time.After(5 * time.Second):
					t.Fatalf("%s run %d: the call did not end within 5 s of the cancel (at %v of %v)", c.tool, run, at, span)
				}
			}
			cancel()
			if stuck := testio.StuckGoroutines(5*time.Second, "elemctl/internal/ops/", "elemctl/internal/command."); len(stuck) > 0 {
				t.Fatalf("%s run %d: goroutines stay in the served call:\n%s", c.tool, run, strings.Join(stuck, "\n\n"))
			}
			if c.tool == "probe" {
				waitFor(t, "the probe's cleanup", func() bool { return len(liveProbes(t, h)) == 0 })
			}
		}
		t.Logf("%s: %d runs, %d cancelled mid-way, none hung (a run takes %v)", c.tool, runs, ended, span.Round(time.Millisecond))
	}
}
