package deploy

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// applyStand is a Console API whose application is Updating until a time
// of the fake clock and Running from then on: an apply of known length in
// stand time.
type applyStand struct {
	clock *FakeClock
	mu    sync.Mutex
	end   time.Time
	reads int
	seen  time.Time // the first read that found the apply over
}

func (s *applyStand) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.URL.Path == "/console/sys/token":
		w.Write([]byte(`{"id_token":"test-token"}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/console/api/v2/applications/"):
		s.reads++
		status := "Updating"
		if now := s.clock.Now(); !now.Before(s.end) {
			status = "Running"
			if s.seen.IsZero() {
				s.seen = now
			}
		}
		fmt.Fprintf(w, `{"id":"app-1","status":%q,"uri":"https://host/app"}`, status)
	default:
		http.NotFound(w, r)
	}
}

// applyRun is one apply wait: its card reads and how long after the end
// of the apply the wait saw it.
type applyRun struct {
	reads   int
	latency time.Duration
	sample  applySample
}

// waitApply waits for an apply of length d with the history samples.
func waitApply(t *testing.T, d time.Duration, samples []applySample) applyRun {
	t.Helper()
	return waitApplyWith(t, DefaultPolicy, d, samples)
}

func waitApplyWith(t *testing.T, policy PollPolicy, d time.Duration, samples []applySample) applyRun {
	t.Helper()

	ctx := context.Background()
	clock := NewFakeClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	s := &applyStand{clock: clock, end: clock.Now().Add(d)}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	defer srv.Close()
	cl, err := platform.NewClient(ctx, &platform.Config{BaseURL: srv.URL, ClientID: "id", ClientSecret: "secret",
		TLSVerify: true, NoProxy: true, Timeout: 5 * time.Second}, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	o := &Ops{Client: cl, Clock: clock, Poll: policy}
	plan := newApplyPlan(samples, policy)
	if _, err := o.wait(context.Background(), "app-1", GoalStable, 300*time.Second, time.Time{}, plan); err != nil {
		t.Fatal(err)
	}
	sample, ok := plan.sample()
	if !ok {
		t.Fatal("the wait measured nothing")
	}
	return applyRun{reads: s.reads, latency: s.seen.Sub(s.end), sample: sample}
}

// todayReads is what the plain backoff costs for an apply of length d.
func todayReads(d time.Duration) int {
	b := DefaultPolicy.Start()
	n := 1
	for at := time.Duration(0); at < d; at += b.Next() {
		n++
	}
	return n
}

// With the application's history, the end of an apply of any length from
// 2 to 30 s (stand time) is seen within half a second, with no more card
// reads than the backoff makes for the same apply (two more at most for
// applies under 3.5 s, where it polls densely anyway), and at most its 13
// over a 30 s apply. Without history the wait is the backoff itself.
func TestApplyWaitWithHistorySeesTheEndWithinHalfASecond(t *testing.T) {
	if n := todayReads(30 * time.Second); n != 13 {
		t.Fatalf("the backoff makes %d reads over a 30 s apply; the bounds below assume 13", n)
	}
	worst, fewer := time.Duration(0), 0
	for d := 2 * time.Second; d <= 30*time.Second; d += 250 * time.Millisecond {
		cold := waitApply(t, d, nil)
		if cold.reads != todayReads(d) {
			t.Fatalf("%v without history: %d reads, the backoff makes %d", d, cold.reads, todayReads(d))
		}
		// The history a previous wait around the end leaves: the end known
		// to within a window step, off by up to a step either way.
		for _, off := range []time.Duration{-200 * time.Millisecond, 0, 200 * time.Millisecond} {
			mid := (d + off).Seconds()
			warm := waitApply(t, d, []applySample{{Lo: mid - 0.2, Hi: mid + 0.2}})
			worst = max(worst, warm.latency)
			if warm.latency > 500*time.Millisecond {
				t.Errorf("%v, history off by %v: the end was seen %v after it", d, off, warm.latency)
			}
			allowed := todayReads(d)
			if d < 3500*time.Millisecond {
				allowed += 2
			}
			if warm.reads > allowed {
				t.Errorf("%v, history off by %v: %d card reads, more than %d", d, off, warm.reads, allowed)
			}
			if warm.reads < todayReads(d) {
				fewer++
			}
		}
	}
	t.Logf("worst latency with history %v; %d of the waits read the card less often than the backoff", worst, fewer)
}

// History is learnt: a first apply (backoff only, its end known within
// seconds) leaves a rough sample, the next wait narrows it to a second at
// most, and from the one after on the end is seen within half a second.
func TestApplyWaitLearnsTheApplyLength(t *testing.T) {
	for _, d := range []time.Duration{2 * time.Second, 7300 * time.Millisecond, 13 * time.Second, 21700 * time.Millisecond, 30 * time.Second} {
		var samples []applySample
		var runs []applyRun
		for range 3 {
			r := waitApply(t, d, samples)
			runs = append(runs, r)
			samples = append(samples, r.sample)
		}
		t.Logf("%v: reads %d/%d/%d (backoff %d), seen %v/%v/%v after the end", d, runs[0].reads, runs[1].reads, runs[2].reads,
			todayReads(d), runs[0].latency, runs[1].latency, runs[2].latency)
		if runs[2].latency > 500*time.Millisecond {
			t.Errorf("%v: the third apply was seen %v after its end (runs %+v)", d, runs[2].latency, runs)
		}
		if s := runs[1].sample; s.Hi-s.Lo > roughSample*DefaultPolicy.Window.Seconds() {
			t.Errorf("%v: the second wait knows the end only within %.2f s", d, s.Hi-s.Lo)
		}
	}
}

// With the poll pauses scaled (ELEMCTL_POLL_SCALE, for a stand whose time
// runs faster), the plan scales alike: the same applies, ten times
// faster, are learnt and seen within a tenth of the time.
func TestApplyWaitLearnsOnAScaledPolicy(t *testing.T) {
	policy := DefaultPolicy.Scaled(0.1)
	for _, d := range []time.Duration{730 * time.Millisecond, 2170 * time.Millisecond, 3 * time.Second} {
		var samples []applySample
		var last applyRun
		for range 3 {
			last = waitApplyWith(t, policy, d, samples)
			samples = append(samples, last.sample)
		}
		if last.latency > 50*time.Millisecond {
			t.Errorf("%v at a tenth of the time: the third apply was seen %v after its end", d, last.latency)
		}
	}
}

// What counts as a rough measurement is measured in window steps, so a
// scaled policy judges the same samples alike.
func TestRoughSamplesScaleWithThePolicy(t *testing.T) {
	for _, f := range []float64{1, 0.1, 0.01} {
		p := DefaultPolicy.Scaled(f)
		rough := newApplyPlan([]applySample{{Lo: 27.32 * f, Hi: 32.32 * f}}, p)
		close := newApplyPlan([]applySample{{Lo: 29.8 * f, Hi: 30.2 * f}}, p)
		if rough.step <= p.Window || close.step != p.Window {
			t.Errorf("scale %g: a 5 s bracket plans steps of %v, a 0.4 s one %v (window %v)", f, rough.step, close.step, p.Window)
		}
	}
}

// An apply that takes much longer than its history (the project grew) is
// still seen: after the window the wait backs off from its start again.
func TestApplyWaitOutlastingItsHistory(t *testing.T) {
	r := waitApply(t, 25*time.Second, []applySample{{Lo: 9.8, Hi: 10.2}})
	if r.latency > DefaultPolicy.Max {
		t.Errorf("an apply 15 s longer than its history was seen %v after its end", r.latency)
	}
	r = waitApply(t, 3*time.Second, []applySample{{Lo: 19.8, Hi: 20.2}})
	if r.latency > DefaultPolicy.Max {
		t.Errorf("an apply 17 s shorter than its history was seen %v after its end", r.latency)
	}
}

// The history file keeps the last applies of each application, survives a
// damaged file and holds a bounded number of applications.
func TestApplyHistoryFile(t *testing.T) {
	dir := t.TempDir()
	o := &Ops{Registry: registry.New(func(k string) string {
		if k == "ELEMCTL_DATA_DIR" {
			return dir
		}
		return ""
	}, "linux")}
	h := o.applyHistory()
	if h == nil || filepath.Dir(h.path) != dir {
		t.Fatalf("history at %+v, want it in %s", h, dir)
	}
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i := range historySamples + 2 {
		h.record("a", applySample{Lo: float64(i), Hi: float64(i) + 0.4}, now)
	}
	got := h.samples("a")
	if len(got) != historySamples || got[0].Lo != 2 || got[len(got)-1].Lo != historySamples+1 {
		t.Errorf("samples %v", got)
	}
	if h.samples("b") != nil {
		t.Error("another application has samples")
	}
	for i := range historyApps + 5 {
		h.record(fmt.Sprintf("app-%d", i), applySample{Lo: 1, Hi: 2}, now.Add(time.Duration(i)*time.Second))
	}
	f := h.read()
	if len(f.Apps) != historyApps || f.Apps["app-0"] != nil || f.Apps["a"] != nil || f.Apps[fmt.Sprintf("app-%d", historyApps+4)] == nil {
		t.Errorf("%d applications kept; the least recently used must go first", len(f.Apps))
	}
	if err := os.WriteFile(h.path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if h.samples("app-1") != nil {
		t.Error("a damaged file gave samples")
	}
	h.record("c", applySample{Lo: 1, Hi: 1.4}, now)
	if len(h.samples("c")) != 1 {
		t.Error("a damaged file was not replaced")
	}
	if err := os.WriteFile(h.path, []byte(`{"apps":{"x":{"applies":[{"lo":-1,"hi":2},{"lo":3,"hi":1},{"lo":1,"hi":1.5}]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := h.samples("x"); len(got) != 1 || got[0].Lo != 1 {
		t.Errorf("damaged samples were kept: %v", got)
	}
	var none *applyHistory
	none.record("x", applySample{}, now)
	if none.samples("x") != nil {
		t.Error("no history gave samples")
	}
}
