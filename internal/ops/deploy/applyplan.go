package deploy

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// The platform says nothing about when an apply will end, and a poll that
// is to report the end within half a second has to come every half second
// – 120 card reads a minute, where the reference's 10 s poll makes 7 over a
// whole minute's apply. What does tell is how long applies took before: the
// application's own, the project's other applications' on the stand, any
// application's on the stand (see applyForecast). A wait with a forecast
// reads the card no more often than a 10 s poll would (PollPolicy.Budget)
// until an expected end, then every PollPolicy.Window (0.4 s) across the
// range around it, and backs off from a quarter of a second when the apply
// outlasts them all. Applies of different lengths (other applications, of
// other projects) are each an expected end of their own, not one range
// from the shortest to the longest: a range that wide could be crossed only
// in steps of many seconds, and an apply as short as the shortest would be
// seen late by all of them. A wait without any forecast polls as every
// other wait does.

// applySample is one apply's end, in seconds from the start of the wait:
// it came after Lo and by Hi. A wait measures it between the last poll
// that found the application busy and the first that found it settled; the
// platform's own stamps – the apply task's start-date and the card's
// date-updated – measure it to their precision (Exact).
type applySample struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Exact bool    `json:"exact,omitempty"`
}

// applyForecast is where an apply is expected to end, from the start of
// the wait: the ranges the samples give (ends, by their start), lo and hi
// bounding them all, and where that came from (see forecastSources).
type applyForecast struct {
	lo, hi time.Duration
	ends   []endRange
	source string
	// rough: the ends were measured by polls, not by the platform's
	// stamps (see cover).
	rough bool
}

// endRange is a range an apply may end in, from the start of the wait.
type endRange struct{ lo, hi time.Duration }

// historyDepth is how many recent applies a forecast is taken from.
const historyDepth = 3

// forecastOf is the forecast the last historyDepth samples give; false
// without samples. Each exact sample is an end of its own (the schedule
// joins those that touch); brackets measured by polls each hold the same
// end, so their common part is where it is – or, when they have none (the
// applies varied more than the brackets are wide), all of them.
func forecastOf(samples []applySample, source string) (applyForecast, bool) {
	if len(samples) == 0 {
		return applyForecast{}, false
	}
	if len(samples) > historyDepth {
		samples = samples[len(samples)-historyDepth:]
	}
	lo, hi := math.Inf(1), 0.0
	commonLo, commonHi, exact := 0.0, math.Inf(1), true
	for _, s := range samples {
		lo, hi = min(lo, s.Lo), max(hi, s.Hi)
		commonLo, commonHi = max(commonLo, s.Lo), min(commonHi, s.Hi)
		exact = exact && s.Exact
	}
	f := applyForecast{source: source, rough: !exact}
	switch {
	case exact:
		for _, s := range samples {
			f.ends = append(f.ends, endRange{seconds2duration(s.Lo), seconds2duration(s.Hi)})
		}
		slices.SortFunc(f.ends, func(a, b endRange) int { return cmp.Compare(a.lo, b.lo) })
	case commonLo <= commonHi:
		lo, hi = commonLo, commonHi
		fallthrough
	default:
		f.ends = []endRange{{seconds2duration(lo), seconds2duration(hi)}}
	}
	f.lo, f.hi = seconds2duration(lo), seconds2duration(hi)
	return f, true
}

func seconds2duration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// applyPlan is the poll rhythm of one apply wait, and its measurement.
type applyPlan struct {
	policy   PollPolicy
	forecast applyForecast
	// polls are the planned reads after the first, from the start;
	// none without a forecast.
	polls []time.Duration
	late  *Backoff // the pauses once the planned reads are used up

	start             time.Time
	lastBusy, settled time.Time
	// ahead is how much sooner than planned each read is sent (see
	// sendAhead).
	ahead time.Duration
}

// maxAhead bounds sendAhead: a round trip longer than that is taken for a
// slow server, not a network.
const maxAhead = 2 * time.Second

// sendAhead sends every planned read a network's round trip (rtt, see
// platform.Client.RoundTrip) sooner, so it reaches the platform when
// planned. The plan counts from the answer that accepted the operation,
// which the platform sent half a round trip before it came, having begun
// the operation about then; a read takes half a round trip to reach the
// platform. Without it, every verdict would come a round trip later over
// a network than on loopback.
func (a *applyPlan) sendAhead(rtt time.Duration) {
	if a != nil {
		a.ahead = min(max(rtt, 0), maxAhead)
	}
}

// newApplyPlan plans a wait; ok false means no forecast (the plain
// backoff).
func newApplyPlan(f applyForecast, ok bool, p PollPolicy) *applyPlan {
	p = p.normalized()
	plan := &applyPlan{policy: p}
	if ok {
		plan.forecast = f
		plan.polls = p.schedule(f)
	}
	return plan
}

// schedule places the reads of a wait for an apply expected to end in
// f.ends: each of them covered in turn (see cover), those that touch (less
// than a Window apart) as one.
//
// An apply that ends long before every expected end – a build that fails
// to compile, a project much smaller than the stand's others – is seen by
// the first read planned. When that comes a Budget or more after the
// start, a read half a Budget in is free: a 10 s poll reads once before
// then too, so with every later read no sooner than the poll's read of
// the same number (withinBudget), no end costs more reads than that poll
// would make.
func (p PollPolicy) schedule(f applyForecast) []time.Duration {
	var out []time.Duration
	for _, r := range p.joined(f.ends) {
		out = p.cover(out, r, f.rough)
	}
	if len(out) > 0 && out[0] >= p.Budget {
		if early := append([]time.Duration{p.Budget / 2}, out...); p.withinBudget(early) {
			out = early
		}
	}
	return out
}

// withinBudget tells whether reads at these times after the start make,
// by any end of the apply, no more reads than a poll every Budget makes
// over it (its first read at the start). An end just after the j-th read
// (from 0) is seen by the read after it – the backoff's first, after the
// last planned – so that read is within the poll's reads exactly when the
// j-th comes no sooner than j Budgets.
func (p PollPolicy) withinBudget(reads []time.Duration) bool {
	for j, at := range reads {
		if at < time.Duration(j)*p.Budget {
			return false
		}
	}
	return true
}

// joined are the ends, those less than a Window apart made one.
func (p PollPolicy) joined(ends []endRange) []endRange {
	var out []endRange
	for _, r := range ends {
		if n := len(out); n > 0 && r.lo-out[n-1].hi < p.Window {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// cover adds to the reads planned so far (out) those for an end between
// r.lo and r.hi: the range cut into steps of at most Window, a read at the
// end of each (a lead of an eighth of a Window after it: the end is
// stamped when the platform's operation finishes, the read must come
// after it), so an end anywhere in the range is seen within a step and the
// lead; before the range, Budget apart from the last read planned, as many
// reads as a poll every Budget would make over an apply that ends at r.lo
// beyond those. When the range needs more reads than that poll would make
// in all, the steps widen to fit; when the reads planned already use them
// all, the range gets none (the backoff after the last planned read, or
// the next range's reads, see the end).
//
// A rough range – ends measured by polls – is cut into two steps at least,
// as the budget allows. Its wait measures the end only between its own
// reads: with one read, at the range's end, the end is never found busy,
// so the measurement is the range again and a lead later, and the range
// grew by a lead every few waits until it needed two steps. A read in the
// middle finds the end before it or after it, and halves the range the
// next wait covers.
func (p PollPolicy) cover(out []time.Duration, r endRange, rough bool) []time.Duration {
	lead := p.Window / 8
	budget := int(math.Ceil(float64(r.lo)/float64(p.Budget))) + 1 - len(out)
	if budget < 1 {
		return out
	}
	span := max(r.hi-r.lo, 0)
	least := 1
	if rough && span > 0 {
		least = 2
	}
	steps := min(max(least, int(math.Ceil(float64(span)/float64(p.Window)))), budget)
	step := span / time.Duration(steps)
	first := r.lo + step + lead
	var last time.Duration
	if len(out) > 0 {
		last = out[len(out)-1]
	}
	// The reads before the range, Budget apart, at least half a Budget
	// before its first.
	for at, n := last+p.Budget, budget-steps; n > 0 && at <= first-p.Budget/2; at, n = at+p.Budget, n-1 {
		out = append(out, at)
	}
	for k := range steps {
		out = append(out, first+time.Duration(k)*step)
	}
	return out
}

// begin fixes the plan to the wait's start: the moment the apply was
// accepted.
func (a *applyPlan) begin(start time.Time) {
	if a != nil && a.start.IsZero() {
		a.start = start
	}
}

// firstRead is the pause before a wait's first read at now: with a
// forecast the first read comes at the first planned one, not at once –
// the operation has only just begun. false: read at once.
func (a *applyPlan) firstRead(now time.Time) (time.Duration, bool) {
	if a == nil || len(a.polls) == 0 {
		return 0, false
	}
	return max(a.polls[0]-a.ahead-now.Sub(a.start), 0), true
}

// observe notes what a poll sent at sent and answered at answered found.
// The platform looked at the application somewhere in between: a busy
// answer proves the apply ran at sent, a settled one that it had ended by
// answered, so the two bound the end from both sides whatever the
// latency.
func (a *applyPlan) observe(sent, answered time.Time, settled bool) {
	if a == nil {
		return
	}
	if !settled {
		a.lastBusy = sent
	} else if a.settled.IsZero() {
		a.settled = answered
	}
}

// next is the pause after a poll at now; backoff is the wait's own.
func (a *applyPlan) next(now time.Time, backoff *Backoff) time.Duration {
	if a == nil || a.polls == nil {
		return backoff.Next()
	}
	elapsed := now.Sub(a.start) + a.ahead
	if i, _ := slices.BinarySearch(a.polls, elapsed+time.Millisecond); i < len(a.polls) {
		return a.polls[i] - elapsed
	}
	// Longer than the forecast said: the backoff from its start, as for
	// an end that is probably near.
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
	if a.polls != nil {
		// No read in the forecast's range found it busy: the end is taken
		// to be no earlier than the forecast said (the same project's
		// apply again), else one such wait would undo what the earlier
		// ones narrowed down.
		s.Lo = max(s.Lo, min(a.forecast.lo.Seconds(), s.Hi))
	}
	return s, true
}
