package lsp_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/testio"
)

// TestCancelRequestEndsCommandsAtAnyInstant sends $/cancelRequest to
// deploy and probe at random instants across their run, seeded: each
// command must end within five seconds of the cancel, the probe must leave
// nothing on the stand, and no goroutine may stay inside an operation once
// the command ended.
func TestCancelRequestEndsCommandsAtAnyInstant(t *testing.T) {
	runs := 5
	if os.Getenv("ELEMCTL_FAULTS") == "full" {
		runs = 200
	}
	s := start(t, setup{})
	s.initialize()
	rng := rand.New(rand.NewPCG(20260301, 11))
	for _, name := range []string{"probe", "deploy"} {
		id := commandID(t, name)
		arg := map[string]any{"cwd": s.ws}
		began := time.Now()
		s.run(id, arg)
		span := time.Since(began)
		cancelled := 0
		for run := range runs {
			token := fmt.Sprintf("%s-%d", name, run)
			at := time.Duration(rng.Float64() * float64(span))
			r := s.start(id, arg, token)
			select {
			case <-r.done:
			case <-time.After(at):
				// The request may not have left yet at a very early
				// instant: its id is known once it has.
				reqID, ok := s.idOf(token)
				for !ok {
					time.Sleep(time.Millisecond)
					reqID, ok = s.idOf(token)
				}
				s.cancelRequest(reqID)
				select {
				case <-r.done:
					cancelled++
				case <-time.After(5 * time.Second):
					t.Fatalf("%s run %d: the command did not end within 5 s of the cancel (at %v of %v)", name, run, at, span)
				}
			}
			if stuck := testio.StuckGoroutines(5*time.Second, "elemctl/internal/ops/", "elemctl/internal/command."); len(stuck) > 0 {
				t.Fatalf("%s run %d: goroutines stay in the served command:\n%s", name, run, strings.Join(stuck, "\n\n"))
			}
			if apps, builds := probeLeftovers(s.stand); len(apps) > 0 || len(builds) > 0 {
				t.Fatalf("%s run %d: left applications %v and builds %v", name, run, apps, builds)
			}
		}
		t.Logf("%s: %d runs, %d cancelled mid-way, none hung (a run takes %v)", name, runs, cancelled, span.Round(time.Millisecond))
	}
}
