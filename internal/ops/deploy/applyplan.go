package deploy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"
)

// The platform says nothing about when an apply will end, and a poll that
// is to report the end within half a second has to come every half second
// – 120 card reads a minute, where the backoff makes 13 over a whole 30 s
// apply. What does tell is the application's own past: the applies of one
// project to one application take about as long each time. So a wait with
// history polls sparsely until shortly before the end the last applies
// suggest, then every PollPolicy.Window (0.4 s) through a narrow window
// around it, and falls back to the backoff when the apply outlasts it. A
// first apply (no history) polls as every other wait does.

// applySample is one apply's end as a wait saw it, in seconds from the
// start of the wait: after the last poll that found the application busy
// (Lo) and by the first that found it settled (Hi).
type applySample struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

func (s applySample) mid() float64 { return (s.Lo + s.Hi) / 2 }

// applyPlan is the poll rhythm of one apply wait, and its measurement.
type applyPlan struct {
	policy PollPolicy
	// expected is the end the history suggests, half the window's width
	// on each side of it, and the spacing of the polls in the window; zero
	// without history.
	expected, half, step time.Duration

	start    time.Time
	from, to time.Time // the dense window
	early    *Backoff  // the pauses before the window
	late     *Backoff  // the pauses after it

	lastBusy, settled time.Time
}

// historyDepth is how many recent applies the expectation is taken from.
const historyDepth = 3

// roughSample: a sample whose end is known less closely than this many
// window steps (one second at the default policy) is a rough one.
const roughSample = 2.5

// newApplyPlan plans a wait from the recent samples of the application
// (oldest first). The expected end is the median of the last applies'
// ends; the window reaches half of their spread, and at least the
// uncertainty of the latest measurement, to each side, within one to three
// window steps.
func newApplyPlan(samples []applySample, p PollPolicy) *applyPlan {
	p = p.normalized()
	plan := &applyPlan{policy: p}
	// A wait without history measures its end only to within its backoff
	// (seconds); once a wait around the end measured it closely, the
	// rough measurements no longer count.
	rough := roughSample * p.Window.Seconds()
	var close []applySample
	for _, s := range samples {
		if s.Hi-s.Lo <= rough {
			close = append(close, s)
		}
	}
	if len(close) > 0 {
		samples = close
	}
	if len(samples) > historyDepth {
		samples = samples[len(samples)-historyDepth:]
	}
	if len(samples) == 0 {
		return plan
	}
	mids := make([]float64, len(samples))
	for i, s := range samples {
		mids[i] = s.mid()
	}
	sorted := slices.Clone(mids)
	sort.Float64s(sorted)
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	latest := samples[len(samples)-1]
	if latest.Hi-latest.Lo > rough {
		// Only a rough end is known: a few polls spread over it narrow it
		// down for the next apply, at the cost of a handful of reads.
		plan.expected = seconds2duration(latest.mid())
		plan.half = seconds2duration(latest.mid() - latest.Lo)
		plan.step = max(p.Window, plan.half/3)
		return plan
	}
	half := max((sorted[len(sorted)-1]-sorted[0])/2, (latest.Hi-latest.Lo)/2)
	plan.expected = seconds2duration(median)
	plan.half = min(max(seconds2duration(half), p.Window), 3*p.Window)
	plan.step = p.Window
	return plan
}

func seconds2duration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// begin fixes the plan to the wait's start.
func (a *applyPlan) begin(start time.Time) {
	a.start = start
	if a.expected <= 0 {
		return
	}
	a.from = start.Add(a.expected - a.half)
	a.to = start.Add(a.expected + a.half + a.step)
	// Before the window the backoff starts at an eighth of the expected
	// time (within one and eight first pauses): a long apply is not asked
	// about four times in its first second.
	early := a.policy
	early.First = min(max(a.expected/8, a.policy.First), 8*a.policy.First)
	a.early = early.Start()
}

// observe notes what a poll sent at sent and answered at answered found.
// The platform looked at the application somewhere in between: a busy
// answer proves the apply ran at sent, a settled one that it had ended by
// answered, so the two bound the end from both sides whatever the
// latency.
func (a *applyPlan) observe(sent, answered time.Time, settled bool) {
	if !settled {
		a.lastBusy = sent
	} else if a.settled.IsZero() {
		a.settled = answered
	}
}

// next is the pause after a poll at now; backoff is the wait's own.
func (a *applyPlan) next(now time.Time, backoff *Backoff) time.Duration {
	switch {
	case a.expected <= 0:
		return backoff.Next()
	case now.Before(a.from):
		pause := a.early.Next()
		// A poll that would land past the window's first step is brought
		// back to the window's start; one that lands in it is kept, so a
		// short apply costs no extra poll.
		if now.Add(pause).After(a.from.Add(a.step)) {
			pause = a.from.Sub(now)
		}
		return pause
	case now.Before(a.to):
		return a.step
	}
	// Longer than the history said: the backoff from its start, as for an
	// end that is probably near.
	if a.late == nil {
		a.late = a.policy.Start()
	}
	return a.late.Next()
}

// sample is the measurement of the wait, when it saw the application
// settle.
func (a *applyPlan) sample() (applySample, bool) {
	if a == nil || a.settled.IsZero() {
		return applySample{}, false
	}
	s := applySample{Hi: a.settled.Sub(a.start).Seconds()}
	if !a.lastBusy.IsZero() {
		s.Lo = a.lastBusy.Sub(a.start).Seconds()
	}
	return s, true
}

// applyHistory keeps the recent applies of each application in a small
// file beside the registry of uploads. It is only a speed-up: a history
// that cannot be read or written changes nothing but the poll rhythm.
type applyHistory struct{ path string }

// ApplyHistoryFile is the history's file name in elemctl's data directory.
const ApplyHistoryFile = "apply-times.json"

// Bounds of the history file.
const (
	historySamples = 5   // per application
	historyApps    = 200 // the most recently used are kept
)

type historyFile struct {
	Apps map[string]*historyEntry `json:"apps"`
}

type historyEntry struct {
	Used    time.Time     `json:"used"`
	Applies []applySample `json:"applies"`
}

// applyHistory is the history beside the registry; nil without one.
func (o *Ops) applyHistory() *applyHistory {
	if o.Registry == nil || o.Registry.Path() == "" {
		return nil
	}
	return &applyHistory{path: filepath.Join(filepath.Dir(o.Registry.Path()), ApplyHistoryFile)}
}

// applyKey names an application on a stand.
func applyKey(baseURL, appID string) string { return baseURL + " " + appID }

func (h *applyHistory) read() historyFile {
	var f historyFile
	if data, err := os.ReadFile(h.path); err == nil {
		_ = json.Unmarshal(data, &f)
	}
	if f.Apps == nil {
		f.Apps = map[string]*historyEntry{}
	}
	return f
}

// samples are the recent applies of key, oldest first.
func (h *applyHistory) samples(key string) []applySample {
	if h == nil {
		return nil
	}
	e := h.read().Apps[key]
	if e == nil {
		return nil
	}
	var out []applySample
	for _, s := range e.Applies {
		// A damaged line must not plan a wait.
		if s.Lo >= 0 && s.Hi >= s.Lo && s.Hi < 24*3600 {
			out = append(out, s)
		}
	}
	return out
}

// record adds one apply of key.
func (h *applyHistory) record(key string, s applySample, now time.Time) {
	if h == nil {
		return
	}
	f := h.read()
	e := f.Apps[key]
	if e == nil {
		e = &historyEntry{}
		f.Apps[key] = e
	}
	e.Used = now.UTC()
	e.Applies = append(e.Applies, s)
	if len(e.Applies) > historySamples {
		e.Applies = e.Applies[len(e.Applies)-historySamples:]
	}
	for len(f.Apps) > historyApps {
		oldest := ""
		for k, v := range f.Apps {
			if oldest == "" || v.Used.Before(f.Apps[oldest].Used) {
				oldest = k
			}
		}
		delete(f.Apps, oldest)
	}
	data, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	_ = atomicfile.Write(h.path, data, 0o600)
}
