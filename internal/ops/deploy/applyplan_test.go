package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// applyStand is a Console API whose application is Updating until a time
// of the fake clock and Running from then on: an apply of known length in
// stand time. Its task list is tasks; with stamps, the apply's task
// carries its start and the card's date-updated its start, then its end
// (the console dates no task's end). others are the cards of other
// applications: Running, updated at the time given.
type applyStand struct {
	clock  *FakeClock
	mu     sync.Mutex
	start  time.Time
	end    time.Time
	tasks  []map[string]any
	others map[string]time.Time
	stamps bool
	reads  int
	lists  int       // reads of the task list
	cards  int       // reads of other applications' cards
	seen   time.Time // the first read that found the apply over
}

func (s *applyStand) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.URL.Path == "/console/sys/token":
		w.Write([]byte(`{"id_token":"test-token"}`))
	case r.Method == http.MethodGet && r.URL.Path == "/console/api/v2/tasks/application-tasks":
		s.lists++
		tasks := append([]map[string]any{}, s.tasks...)
		if s.stamps {
			task := map[string]any{"id": "t-now", "application-id": "app-1", "operation-type": "UpdateApplication",
				"status": "InProgress", "start-date": stamp(s.start)}
			if !s.clock.Now().Before(s.end) {
				task["status"] = "Completed"
			}
			tasks = append(tasks, task)
		}
		json.NewEncoder(w).Encode(tasks)
	case r.Method == http.MethodGet && s.others != nil && !s.others[strings.TrimPrefix(r.URL.Path, "/console/api/v2/applications/")].IsZero():
		s.cards++
		id := strings.TrimPrefix(r.URL.Path, "/console/api/v2/applications/")
		fmt.Fprintf(w, `{"id":%q,"status":"Running","uri":"https://host/other","date-updated":%q}`, id, stamp(s.others[id]))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/console/api/v2/applications/"):
		s.reads++
		status, updated := "Updating", s.start
		if now := s.clock.Now(); !now.Before(s.end) {
			status, updated = "Running", s.end
			if s.seen.IsZero() {
				s.seen = now
			}
		}
		fmt.Fprintf(w, `{"id":"app-1","status":%q,"uri":"https://host/app","date-updated":%q,"project":{"id":"p-1"}}`, status, stamp(updated))
	default:
		http.NotFound(w, r)
	}
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// applyRun is one apply wait: its card reads and how long after the end
// of the apply the wait saw it.
type applyRun struct {
	reads, lists int
	latency      time.Duration
	sample       applySample
	source       string
}

// waitApply waits for an apply of length d with the forecast the samples
// give.
func waitApply(t *testing.T, d time.Duration, samples []applySample) applyRun {
	t.Helper()
	return waitApplyWith(t, DefaultPolicy, d, samples)
}

func waitApplyWith(t *testing.T, policy PollPolicy, d time.Duration, samples []applySample) applyRun {
	t.Helper()
	f, ok := forecastOf(samples, sourceApplication)
	return runApplyWait(t, policy, d, func(*Ops, *applyStand) (applyForecast, bool) { return f, ok })
}

// runApplyWait waits for an apply of length d on the fake clock; the
// forecast is made once the stand is up (it may read it).
func runApplyWait(t *testing.T, policy PollPolicy, d time.Duration, forecast func(*Ops, *applyStand) (applyForecast, bool)) applyRun {
	t.Helper()
	clock := NewFakeClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	s := &applyStand{clock: clock, start: clock.Now(), end: clock.Now().Add(d)}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	defer srv.Close()
	o := &Ops{Client: fakeStandClient(t, srv.URL), Clock: clock, Poll: policy}
	f, ok := forecast(o, s)
	plan := newApplyPlan(f, ok, policy)
	plan.begin(clock.Now())
	if _, err := o.wait(context.Background(), "app-1", GoalStable, 300*time.Second, time.Time{}, plan); err != nil {
		t.Fatal(err)
	}
	sample, measured := plan.sample()
	if !measured {
		t.Fatal("the wait measured nothing")
	}
	return applyRun{reads: s.reads, lists: s.lists, latency: s.seen.Sub(s.end), sample: sample, source: f.source}
}

func fakeStandClient(t *testing.T, url string) *platform.Client {
	t.Helper()
	cl, err := platform.NewClient(context.Background(), &platform.Config{BaseURL: url, ClientID: "id", ClientSecret: "secret",
		TLSVerify: true, NoProxy: true, Timeout: 5 * time.Second}, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// backoffReads is what the plain backoff costs for an apply of length d.
func backoffReads(d time.Duration) int {
	b := DefaultPolicy.Start()
	n := 1
	for at := time.Duration(0); at < d; at += b.Next() {
		n++
	}
	return n
}

// tenSecondPollReads is what a poll every 10 s reads over an apply of
// length d (at its start, and every 10 s until it sees the end): the
// budget of a wait with a forecast.
func tenSecondPollReads(d time.Duration) int { return int(math.Ceil(d.Seconds()/10)) + 1 }

// With a forecast as the platform's stamps give it (to the millisecond, or
// off by up to a fifth of a second either way), the end of an apply of any
// length from 2 to 60 s is seen within half a second, with no more card
// reads than a poll every 10 s makes over the same apply. Without a
// forecast the wait is the backoff itself.
func TestApplyWaitWithAForecastSeesTheEndWithinHalfASecond(t *testing.T) {
	worst, most := time.Duration(0), 0
	for d := 2 * time.Second; d <= 60*time.Second; d += 250 * time.Millisecond {
		if d < 31*time.Second {
			if cold := waitApply(t, d, nil); cold.reads != backoffReads(d) {
				t.Fatalf("%v without a forecast: %d reads, the backoff makes %d", d, cold.reads, backoffReads(d))
			}
		}
		for _, off := range []time.Duration{-200 * time.Millisecond, 0, 200 * time.Millisecond} {
			end := (d + off).Seconds()
			warm := waitApply(t, d, []applySample{{Lo: end, Hi: end, Exact: true}})
			worst, most = max(worst, warm.latency), max(most, warm.reads-tenSecondPollReads(d))
			if warm.latency > 500*time.Millisecond {
				t.Errorf("%v, forecast off by %v: the end was seen %v after it", d, off, warm.latency)
			}
			if warm.reads > tenSecondPollReads(d) {
				t.Errorf("%v, forecast off by %v: %d card reads, a 10 s poll makes %d", d, off, warm.reads, tenSecondPollReads(d))
			}
		}
		// A forecast spanning a second (stamps to the second, or applies
		// that vary): within the 10 s poll's reads, which cross the
		// second in steps of 0.4 s – or of half a second where that poll
		// makes only two reads.
		mid := d.Seconds()
		bound := 450 * time.Millisecond
		if tenSecondPollReads(d-500*time.Millisecond) < 3 {
			bound = 550 * time.Millisecond
		}
		if r := waitApply(t, d, []applySample{{Lo: mid - 0.5, Hi: mid + 0.5, Exact: true}}); r.reads > tenSecondPollReads(d) || r.latency > bound {
			t.Errorf("%v, a forecast of ±0.5 s: %d reads (budget %d), seen %v after the end", d, r.reads, tenSecondPollReads(d), r.latency)
		}
	}
	t.Logf("worst latency with a forecast %v; reads at most %+d against a 10 s poll", worst, most)
}

// The schedule itself: reads every Budget before the range, every Window
// across it, and never more than a Budget poll would make over the apply;
// a range too wide for that is crossed in wider steps. When the first of
// them comes a Budget or more in, one more comes half a Budget in.
func TestApplyScheduleKeepsTheTenSecondPollsBudget(t *testing.T) {
	p := DefaultPolicy.normalized()
	for _, c := range []struct {
		lo, hi time.Duration
		want   []time.Duration
	}{
		{2 * time.Second, 2 * time.Second, []time.Duration{2050 * time.Millisecond}},
		{30 * time.Second, 30 * time.Second, []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 30050 * time.Millisecond}},
		{60 * time.Second, 60 * time.Second, []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 30 * time.Second, 40 * time.Second, 50 * time.Second, 60050 * time.Millisecond}},
		{12 * time.Second, 12 * time.Second, []time.Duration{5 * time.Second, 12050 * time.Millisecond}},
		// Three reads across the range: with one more half a Budget in,
		// an apply that ends just after the last of them would be seen
		// by a read more than a 10 s poll makes.
		{29500 * time.Millisecond, 30500 * time.Millisecond, []time.Duration{10 * time.Second, 29883333333, 30216666666, 30549999999}},
		{12 * time.Second, 13200 * time.Millisecond, []time.Duration{12450 * time.Millisecond, 12850 * time.Millisecond, 13250 * time.Millisecond}},
		{5 * time.Second, 10 * time.Second, []time.Duration{7550 * time.Millisecond, 10050 * time.Millisecond}},
	} {
		got := p.schedule(applyForecast{lo: c.lo, hi: c.hi, ends: []endRange{{c.lo, c.hi}}})
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("forecast %v–%v: reads at %v, want %v", c.lo, c.hi, got, c.want)
		}
		if end, n := readsOverBudget(got); n > 0 {
			t.Errorf("forecast %v–%v: an end at %v is seen by read %d, a 10 s poll makes %d", c.lo, c.hi, end, n, tenSecondPollReads(end))
		}
	}
	if _, n := readsOverBudget([]time.Duration{5 * time.Second, 6 * time.Second, 7 * time.Second}); n != 3 {
		t.Errorf("three reads within the first 10 s: the check finds %d reads over a 10 s poll's, not 3", n)
	}
}

// readsOverBudget finds an end, up to the last of reads, that they see
// with more reads than a poll every 10 s makes over an apply of that
// length, and how many they make; n is 0 when there is none.
func readsOverBudget(reads []time.Duration) (end time.Duration, n int) {
	for end = time.Millisecond; len(reads) > 0 && end <= reads[len(reads)-1]; end += time.Millisecond {
		seenBy, _ := slices.BinarySearch(reads, end)
		if seenBy+1 > tenSecondPollReads(end) {
			return end, seenBy + 1
		}
	}
	return 0, 0
}

// Applies of different lengths – the stand's other applications, of other
// projects – are each an end of their own: every one of those lengths is
// seen within half a second, an apply between them within a 10 s poll's
// wait, and no apply costs more reads than a 10 s poll makes over it. As
// one range from the shortest to the longest (2–30 s, crossed in the two
// reads a 2 s apply allows) a 2 s apply was seen 14 s after its end.
func TestApplyWaitWithApplyLengthsThatDiffer(t *testing.T) {
	samples := []applySample{{Lo: 30, Hi: 30, Exact: true}, {Lo: 2, Hi: 2, Exact: true}, {Lo: 12, Hi: 12, Exact: true}}
	p := DefaultPolicy.normalized()
	f, _ := forecastOf(samples, sourceStand)
	want := []time.Duration{2050 * time.Millisecond, 12050 * time.Millisecond, 22050 * time.Millisecond, 30050 * time.Millisecond}
	if got := p.schedule(f); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads at %v, want %v", got, want)
	}
	for d := time.Second; d <= 40*time.Second; d += 250 * time.Millisecond {
		r := waitApply(t, d, samples)
		bound := DefaultPolicy.Budget
		for _, s := range samples {
			if d == seconds2duration(s.Lo) {
				bound = 500 * time.Millisecond
			}
		}
		if d > 30*time.Second {
			bound = DefaultPolicy.Max // outlasting them all: the backoff
		}
		if r.latency > bound {
			t.Errorf("%v: seen %v after the end, want within %v", d, r.latency, bound)
		}
		if d <= 30*time.Second && r.reads > tenSecondPollReads(d) {
			t.Errorf("%v: %d card reads, a 10 s poll makes %d", d, r.reads, tenSecondPollReads(d))
		}
	}
}

// Ends less than a Window apart are crossed as one range; the reads of a
// later end count those planned for the earlier ones.
func TestApplyScheduleJoinsEndsThatTouch(t *testing.T) {
	p := DefaultPolicy.normalized()
	f := applyForecast{ends: []endRange{{20 * time.Second, 20 * time.Second}, {20200 * time.Millisecond, 20200 * time.Millisecond},
		{22 * time.Second, 22 * time.Second}}}
	want := []time.Duration{10 * time.Second, 20250 * time.Millisecond, 22050 * time.Millisecond}
	if got := p.schedule(f); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads at %v, want %v", got, want)
	}
	// Three ends within the first 10 s: a 10 s poll makes two reads over
	// the first of them and no more until 10 s, so the third gets none.
	f = applyForecast{ends: []endRange{{2 * time.Second, 2 * time.Second}, {4 * time.Second, 4 * time.Second}, {6 * time.Second, 6 * time.Second}}}
	want = []time.Duration{2050 * time.Millisecond, 4050 * time.Millisecond}
	if got := p.schedule(f); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads at %v, want %v", got, want)
	}
}

// Without the platform's stamps the wait learns from its own polls: a
// first apply (backoff only, its end known within seconds) leaves a rough
// sample, each next wait narrows it within the 10 s poll's reads, and
// within five applies the end is seen within half a second.
func TestApplyWaitLearnsTheApplyLengthFromItsPolls(t *testing.T) {
	for _, d := range []time.Duration{2 * time.Second, 7300 * time.Millisecond, 13 * time.Second, 21700 * time.Millisecond, 30 * time.Second, 58 * time.Second} {
		var samples []applySample
		var runs []applyRun
		for range 5 {
			r := waitApply(t, d, samples)
			runs = append(runs, r)
			samples = append(samples, r.sample)
		}
		for i, r := range runs {
			t.Logf("%v: apply %d read %d times, saw the end %v after it, measured it within %.2f s", d, i+1, r.reads, r.latency, r.sample.Hi-r.sample.Lo)
		}
		if runs[4].latency > 500*time.Millisecond {
			t.Errorf("%v: the fifth apply was seen %v after its end (runs %+v)", d, runs[4].latency, runs)
		}
		for i, r := range runs[1:] {
			if r.reads > tenSecondPollReads(d) {
				t.Errorf("%v: apply %d read the card %d times, a 10 s poll %d", d, i+2, r.reads, tenSecondPollReads(d))
			}
		}
	}
}

// Waits that measure the end by their polls alone (a deletion, which the
// platform does not stamp) keep narrowing it: every wait's read in the
// middle of the range finds the end before it or after it. With one read
// at the range's end, a wait never found the application busy, so each
// measurement was the range again and a lead later: the range widened by a
// lead every third wait, and the end came up to 0.4 s late before it was
// narrowed again, over and over.
func TestRoughEndsAreNarrowedWaitAfterWait(t *testing.T) {
	lead := DefaultPolicy.Window / 8
	for _, d := range []time.Duration{500 * time.Millisecond, 1250 * time.Millisecond, 2 * time.Second, 3 * time.Second,
		7300 * time.Millisecond, 13 * time.Second, 21700 * time.Millisecond, 30 * time.Second} {
		var samples []applySample
		for i := range 40 {
			r := waitApply(t, d, samples)
			samples = append(samples, r.sample)
			if r.sample.Exact {
				t.Fatalf("%v: wait %d measured the end exactly without stamps", d, i+1)
			}
			if i >= 7 && r.latency > 3*lead {
				t.Errorf("%v: wait %d saw the end %v after it, want within %v", d, i+1, r.latency, 3*lead)
			}
			if i >= 1 && r.reads > tenSecondPollReads(d) {
				t.Errorf("%v: wait %d read the card %d times, a 10 s poll %d", d, i+1, r.reads, tenSecondPollReads(d))
			}
		}
	}
}

// With the poll pauses scaled (ELEMCTL_POLL_SCALE, for a stand whose time
// runs faster), the plan scales alike: the same applies, ten times
// faster, are seen within a tenth of the time with the same reads.
func TestApplyWaitOnAScaledPolicy(t *testing.T) {
	policy := DefaultPolicy.Scaled(0.1)
	for _, d := range []time.Duration{730 * time.Millisecond, 2170 * time.Millisecond, 6 * time.Second} {
		r := waitApplyWith(t, policy, d, []applySample{{Lo: d.Seconds(), Hi: d.Seconds(), Exact: true}})
		if r.latency > 50*time.Millisecond || r.reads > tenSecondPollReads(10*d) {
			t.Errorf("%v at a tenth of the time: seen %v after its end with %d reads", d, r.latency, r.reads)
		}
	}
}

// An apply that takes much longer than its forecast (the project grew) is
// still seen: after the planned reads the wait backs off from its start
// again; one much shorter (a build that fails to compile) is seen by the
// reads before the range, the first of them half a Budget in.
func TestApplyWaitOutlastingItsForecast(t *testing.T) {
	r := waitApply(t, 25*time.Second, []applySample{{Lo: 10, Hi: 10, Exact: true}})
	if r.latency > DefaultPolicy.Max {
		t.Errorf("an apply 15 s longer than forecast was seen %v after its end", r.latency)
	}
	r = waitApply(t, 3*time.Second, []applySample{{Lo: 40, Hi: 40, Exact: true}})
	if r.latency != DefaultPolicy.Budget/2-3*time.Second || r.reads != 1 {
		t.Errorf("an apply 37 s shorter than forecast was seen %v after its end, by read %d", r.latency, r.reads)
	}
	r = waitApply(t, 7*time.Second, []applySample{{Lo: 40, Hi: 40, Exact: true}})
	if r.latency != DefaultPolicy.Budget-7*time.Second || r.reads != tenSecondPollReads(7*time.Second) {
		t.Errorf("an apply 33 s shorter than forecast was seen %v after its end, by read %d", r.latency, r.reads)
	}
}

// A wait that sees the apply end measures it by the platform's stamps:
// the apply task's start-date and the settled card's date-updated.
func TestExactApplyFromThePlatformsStamps(t *testing.T) {
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	task := taskOf
	measured := applySample{Lo: 29.6, Hi: 30.1}
	cases := []struct {
		name    string
		tasks   []*jsonx.Object
		card    *jsonx.Object
		want    applySample
		wantErr bool
	}{
		{"date-updated", []*jsonx.Object{task("operation-type", "UpdateApplication", "start-date", stamp(start))},
			taskOf("status", "Running", "date-updated", stamp(start.Add(29870*time.Millisecond))), applySample{Lo: 29.87, Hi: 29.87, Exact: true}, false},
		{"whole seconds", []*jsonx.Object{task("operation-type", "UpdateApplication", "start-date", "2026-03-01T10:00:00Z")},
			taskOf("status", "Running", "date-updated", "2026-03-01T10:00:30Z"), applySample{Lo: 29, Hi: 31, Exact: true}, false},
		{"an older apply", []*jsonx.Object{task("operation-type", "UpdateApplication", "start-date", stamp(start))},
			taskOf("status", "Running", "date-updated", stamp(start.Add(5*time.Second))), applySample{}, true},
		{"no apply task", []*jsonx.Object{task("operation-type", "CreateApplication", "start-date", stamp(start))},
			taskOf("status", "Running", "date-updated", stamp(start.Add(30*time.Second))), applySample{}, true},
		{"no card", []*jsonx.Object{task("operation-type", "UpdateApplication", "start-date", stamp(start))},
			nil, applySample{}, true},
		{"a card still busy", []*jsonx.Object{task("operation-type", "UpdateApplication", "start-date", stamp(start))},
			taskOf("status", "Updating", "date-updated", stamp(start.Add(30*time.Second))), applySample{}, true},
	}
	for _, c := range cases {
		got, ok := exactApply(c.tasks, c.card, measured)
		if ok == c.wantErr || math.Abs(got.Lo-c.want.Lo) > 1e-6 || math.Abs(got.Hi-c.want.Hi) > 1e-6 || got.Exact != c.want.Exact {
			t.Errorf("%s: %+v %v, want %+v", c.name, got, ok, c.want)
		}
	}
}

// The forecast takes the most telling source there is: this machine's
// exact measurements of the application, else the platform's record of
// its applies, else the project's other applications measured here, else
// the stand's latest applies, else any application measured here, else
// the application's rough measurements; the task list is read only when
// the application has no exact measurement here. The platform's record of
// an apply is its task's start-date and its card's date-updated (the
// console dates no task's end), read for at most three other applications
// whose newest task is that apply.
func TestForecastSources(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	// ended: the date-updated of each application's card; an apply's end
	// is there.
	var ended map[string]time.Time
	applied := func(app string, at, d time.Duration) map[string]any {
		ended[app] = start.Add(at + d)
		return map[string]any{"id": "t", "application-id": app, "operation-type": "UpdateApplication", "status": "Completed",
			"start-date": stamp(start.Add(at))}
	}
	task := func(app, op string, at time.Duration) map[string]any {
		return map[string]any{"id": "t", "application-id": app, "operation-type": op, "status": "Completed", "start-date": stamp(start.Add(at))}
	}
	for _, c := range []struct {
		name    string
		tasks   func() []map[string]any
		history map[string]*historyEntry
		project string
		source  string
		lo, hi  time.Duration
		lists   int
		cards   int
	}{
		{name: "nothing", lists: 1},
		{name: "application", history: map[string]*historyEntry{"app-1": {Applies: []applySample{{Lo: 11, Hi: 11, Exact: true}}}},
			tasks:  func() []map[string]any { return []map[string]any{applied("app-1", 0, 20*time.Second)} },
			source: sourceApplication, lo: 11 * time.Second, hi: 11 * time.Second},
		{name: "platform", history: map[string]*historyEntry{"app-1": {Applies: []applySample{{Lo: 9, Hi: 14}}}},
			tasks: func() []map[string]any {
				return []map[string]any{applied("app-2", 0, 20*time.Second), applied("app-1", time.Minute, 12*time.Second)}
			},
			source: sourcePlatform, lo: 12 * time.Second, hi: 12 * time.Second, lists: 1, cards: 1},
		// On a fast stand this apply may be over when the list is read:
		// the apply before it is still the one the card read before dates.
		{name: "platform, this apply already over", history: map[string]*historyEntry{"app-1": {Applies: []applySample{{Lo: 9, Hi: 14}}}},
			tasks: func() []map[string]any {
				return []map[string]any{applied("app-2", 0, 20*time.Second), applied("app-1", time.Minute, 12*time.Second),
					task("app-1", "UpdateApplication", time.Hour)}
			},
			source: sourcePlatform, lo: 12 * time.Second, hi: 12 * time.Second, lists: 1, cards: 1},
		{name: "project", project: "p-1",
			history: map[string]*historyEntry{"app-2": {Project: "p-1", Applies: []applySample{{Lo: 7, Hi: 7, Exact: true}}},
				"app-3": {Project: "p-9", Applies: []applySample{{Lo: 40, Hi: 40, Exact: true}}}},
			tasks:  func() []map[string]any { return []map[string]any{applied("app-4", 0, 20*time.Second)} },
			source: sourceProject, lo: 7 * time.Second, hi: 7 * time.Second, lists: 1, cards: 1},
		{name: "stand", project: "p-1",
			history: map[string]*historyEntry{"app-3": {Project: "p-9", Applies: []applySample{{Lo: 40, Hi: 40, Exact: true}}}},
			tasks: func() []map[string]any {
				return []map[string]any{applied("app-4", 0, 50*time.Second), applied("app-5", time.Minute, 21*time.Second),
					applied("app-6", 2*time.Minute, 20*time.Second), applied("app-7", 3*time.Minute, 22*time.Second)}
			},
			source: sourceStand, lo: 20 * time.Second, hi: 22 * time.Second, lists: 1, cards: 3},
		// An apply that is no longer its application's newest task, or
		// whose card was changed long after (a later stop and start), is
		// not measured by the card.
		{name: "stand, only what the cards date", project: "p-1",
			history: map[string]*historyEntry{"app-3": {Project: "p-9", Applies: []applySample{{Lo: 40, Hi: 40, Exact: true}}}},
			tasks: func() []map[string]any {
				tasks := []map[string]any{applied("app-4", 0, 25*time.Second), applied("app-5", time.Minute, 21*time.Second),
					task("app-5", "DeleteApplication", 2*time.Minute), applied("app-6", 3*time.Minute, 20*time.Second)}
				ended["app-6"] = start.Add(50 * time.Minute)
				return tasks
			},
			source: sourceStand, lo: 25 * time.Second, hi: 25 * time.Second, lists: 1, cards: 2},
		// An application whose newest task is under way, or no apply (the
		// creations and deletions a long-lived stand lists by the ten
		// thousand), has no apply the card dates; nor any card read.
		{name: "stand, past what is under way and what is no apply", project: "p-1",
			history: map[string]*historyEntry{"app-3": {Project: "p-9", Applies: []applySample{{Lo: 40, Hi: 40, Exact: true}}}},
			tasks: func() []map[string]any {
				underWay := task("app-5", "UpdateApplication", 2*time.Minute)
				underWay["status"] = "InProgress"
				return []map[string]any{applied("app-4", 0, 25*time.Second), applied("app-5", time.Minute, 21*time.Second), underWay,
					task("app-8", "CreateApplication", 3*time.Minute), task("app-8", "DeleteApplication", 4*time.Minute),
					task("app-9", "CreateApplication", 5*time.Minute)}
			},
			source: sourceStand, lo: 25 * time.Second, hi: 25 * time.Second, lists: 1, cards: 1},
		{name: "machine", project: "p-1",
			history: map[string]*historyEntry{"app-3": {Project: "p-9", Applies: []applySample{{Lo: 40, Hi: 40, Exact: true}}},
				"app-1": {Applies: []applySample{{Lo: 9, Hi: 14}}}},
			source: sourceMachine, lo: 40 * time.Second, hi: 40 * time.Second, lists: 1},
		{name: "rough", history: map[string]*historyEntry{"app-1": {Applies: []applySample{{Lo: 9, Hi: 14}}}},
			source: sourceRough, lo: 9 * time.Second, hi: 14 * time.Second, lists: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			clock := NewFakeClock(start.Add(time.Hour))
			ended = map[string]time.Time{}
			var tasks []map[string]any
			if c.tasks != nil {
				tasks = c.tasks()
			}
			var before *jsonx.Object
			if end, ok := ended["app-1"]; ok {
				before = taskOf("id", "app-1", "status", "Running", "date-updated", stamp(end))
				delete(ended, "app-1")
			}
			s := &applyStand{clock: clock, start: clock.Now(), end: clock.Now().Add(time.Second), tasks: tasks, others: ended}
			srv := httptest.NewServer(http.HandlerFunc(s.serve))
			defer srv.Close()
			o := &Ops{Client: fakeStandClient(t, srv.URL), Clock: clock, Registry: registryIn(dir)}
			h := o.applyHistory()
			f := historyFile{Apps: map[string]*historyEntry{}}
			for app, e := range c.history {
				f.Apps[applyKey(srv.URL, app)] = e
			}
			data, _ := json.Marshal(f)
			if err := os.WriteFile(h.path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			got, ok := o.forecastApply(context.Background(), h, applyTarget{appID: "app-1", projectID: c.project, before: before})
			if ok != (c.source != "") || got.source != c.source || got.lo != c.lo || got.hi != c.hi {
				t.Errorf("forecast %+v %v, want %s %v–%v", got, ok, c.source, c.lo, c.hi)
			}
			if s.lists != c.lists || s.cards != c.cards {
				t.Errorf("the task list was read %d times and other cards %d, want %d and %d", s.lists, s.cards, c.lists, c.cards)
			}
		})
	}
}

// The first apply ever of an application, on a stand where another one
// applied before: the platform's record of that apply (its task's start,
// its card's date-updated) forecasts it, and the end is seen within half a
// second, within a 10 s poll's reads, on the fake clock.
func TestFirstApplyForecastByTheStandsRecord(t *testing.T) {
	for _, d := range []time.Duration{2 * time.Second, 5 * time.Second, 12 * time.Second, 30 * time.Second, 60 * time.Second} {
		r := runApplyWait(t, DefaultPolicy, d, func(o *Ops, s *applyStand) (applyForecast, bool) {
			earlier := s.start.Add(-time.Hour)
			s.tasks = []map[string]any{{"id": "t0", "application-id": "other", "operation-type": "UpdateApplication",
				"status": "Completed", "start-date": stamp(earlier)}}
			s.others = map[string]time.Time{"other": earlier.Add(d)}
			return o.forecastApply(context.Background(), nil, applyTarget{appID: "app-1"})
		})
		if r.source != sourceStand || r.latency > 500*time.Millisecond || r.reads > tenSecondPollReads(d) {
			t.Errorf("%v: forecast from %q, seen %v after the end, %d reads (budget %d)", d, r.source, r.latency, r.reads, tenSecondPollReads(d))
		}
	}
}

// taskOf is an object of string fields: a task or a card.
func taskOf(kv ...string) *jsonx.Object {
	o := jsonx.New()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i], kv[i+1])
	}
	return o
}

func registryIn(dir string) *registry.Registry {
	return registry.New(func(k string) string {
		if k == "ELEMCTL_DATA_DIR" {
			return dir
		}
		return ""
	}, "linux")
}

// The history file keeps the last applies of each application, survives a
// damaged file and holds a bounded number of applications.
func TestApplyHistoryFile(t *testing.T) {
	dir := t.TempDir()
	o := &Ops{Registry: registryIn(dir)}
	h := o.applyHistory()
	if h == nil || filepath.Dir(h.path) != dir {
		t.Fatalf("history at %+v, want it in %s", h, dir)
	}
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i := range historySamples + 2 {
		h.record("a", "", applySample{Lo: float64(i), Hi: float64(i) + 0.4}, now, false)
	}
	got := h.samples("a")
	if len(got) != historySamples || got[0].Lo != 2 || got[len(got)-1].Lo != historySamples+1 {
		t.Errorf("samples %v", got)
	}
	h.record("a", "p", applySample{Lo: 9, Hi: 9, Exact: true}, now, true)
	got = h.samples("a")
	if len(got) != historySamples || got[len(got)-1] != (applySample{Lo: 9, Hi: 9, Exact: true}) || h.read().Apps["a"].Project != "p" {
		t.Errorf("a replaced sample: %v", got)
	}
	if h.samples("b") != nil {
		t.Error("another application has samples")
	}
	for i := range historyApps + 5 {
		h.record(fmt.Sprintf("app-%d", i), "", applySample{Lo: 1, Hi: 2}, now.Add(time.Duration(i)*time.Second), false)
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
	h.record("c", "", applySample{Lo: 1, Hi: 1.4}, now, false)
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
	none.record("x", "", applySample{}, now, false)
	if none.samples("x") != nil || none.latestOthers("u", "x", "") != nil {
		t.Error("no history gave samples")
	}
}

// A creation is measured by its card's own stamps, from date-created to
// the date-updated of the settled card, when they agree with the polls.
func TestCreationFromTheCardsStamps(t *testing.T) {
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	measured := applySample{Lo: 11.6, Hi: 12.1}
	card := func(status string, took time.Duration) *jsonx.Object {
		return taskOf("status", status, "date-created", stamp(start), "date-updated", stamp(start.Add(took)))
	}
	cases := []struct {
		name string
		card *jsonx.Object
		want applySample
		ok   bool
	}{
		{"running", card("Running", 11900*time.Millisecond), applySample{Lo: 11.9, Hi: 11.9, Exact: true}, true},
		{"a failed compilation", card("Error", 12*time.Second), applySample{Lo: 12, Hi: 12, Exact: true}, true},
		{"changed since", card("Running", 40*time.Second), applySample{}, false},
		{"still creating", card("Initializing", 12*time.Second), applySample{}, false},
		{"no date-created", taskOf("status", "Running", "date-updated", stamp(start)), applySample{}, false},
		{"no card", nil, applySample{}, false},
	}
	for _, c := range cases {
		got, ok := createdUntil(c.card, measured)
		if ok != c.ok || math.Abs(got.Lo-c.want.Lo) > 1e-6 || math.Abs(got.Hi-c.want.Hi) > 1e-6 || got.Exact != c.want.Exact {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
