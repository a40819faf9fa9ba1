package stand

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Fault is one rule of misbehaviour: which requests it matches, when it
// fires and what it does. docs/stand.md describes the file form.
type Fault struct {
	// Name names the rule in the request log and the firings; the default
	// is "rule N" (N its 1-based place in the set).
	Name string
	// Method is the request method ("" any), case-insensitive.
	Method string
	// Path is a URL path pattern matched segment by segment: "*" is one
	// segment, "**" any number of them (none included); "" is any path.
	// Example: "/console/api/v2/applications/*/project/update".
	Path string
	// When: at most one of Nth, Every and Probability; none fires on every
	// matching request.
	Nth         int     // the n-th matching request (1-based) only
	Every       int     // every k-th matching request
	Probability float64 // each matching request with this probability, drawn from the set's seed
	// Times bounds how often the rule fires (0 = no bound; Nth fires once).
	Times int
	// What.
	Effect Effect
	// Status is the answer of EffectStatus (400 to 599).
	Status int
	// RetryAfter is sent as Retry-After with EffectStatus: whole seconds,
	// at least 1; 0 sends none.
	RetryAfter time.Duration
	// Delay is how long EffectDelay holds the request, EffectSlowBody spreads
	// the answer and EffectSilence or EffectStarting lasts; real time, not
	// scaled by the stand's speed. For EffectApplyTakes it is how long the
	// apply takes, platform time as Durations are (the speed scales it).
	Delay time.Duration
}

// Effect is what a fault does.
type Effect string

// The effects. Those that shape the answer (status, reset-before,
// lose-answer, truncate, slow-body) are exclusive: on one request only the
// first firing rule of them applies. Delays add up; platform-level effects
// always apply.
const (
	// EffectStatus answers Status (with Retry-After when set) as a proxy in
	// front of the console would; the platform does not act.
	EffectStatus Effect = "status"
	// EffectDelay holds the request for Delay, then the platform acts and
	// answers; it acts even when the client gave up meanwhile, so a client
	// timeout loses the answer.
	EffectDelay Effect = "delay"
	// EffectResetBefore resets the connection before the platform acts.
	EffectResetBefore Effect = "reset-before"
	// EffectLoseAnswer lets the platform act, then closes the connection
	// before any byte of the answer.
	EffectLoseAnswer Effect = "lose-answer"
	// EffectTruncate lets the platform act, sends the headers with the whole
	// Content-Length and half of the body, then closes the connection.
	EffectTruncate Effect = "truncate"
	// EffectSlowBody lets the platform act and sends the answer's body in
	// small pieces spread over Delay.
	EffectSlowBody Effect = "slow-body"
	// EffectApplyFails makes a matching apply (POST .../project/update) that
	// the platform accepts fail as a compilation error does: a failed
	// UpdateApplication task and a silent rollback. It matches applies only.
	EffectApplyFails Effect = "apply-fails"
	// EffectApplyLeavesError makes a matching apply that fails leave the
	// application in Error instead of rolling back. It matches applies only.
	EffectApplyLeavesError Effect = "apply-leaves-error"
	// EffectApplyTakes makes a matching apply take Delay instead of the
	// stand's apply time: applications whose applies differ in length, as
	// those of different projects do. It matches applies only.
	EffectApplyTakes Effect = "apply-takes"
	// EffectSilence makes the whole stand answer nothing for Delay from this
	// request on: requests are held, then served.
	EffectSilence Effect = "silence"
	// EffectStarting makes the console answer as a console that is still
	// starting (404 Application "console" not found) for Delay from this
	// request on, this request included.
	EffectStarting Effect = "starting"
	// EffectExpireTokens makes every token issued so far refused from this
	// request on, this request included.
	EffectExpireTokens Effect = "expire-tokens"
)

// Effects lists every effect, in the order docs/stand.md describes them.
var Effects = []Effect{EffectStatus, EffectDelay, EffectResetBefore, EffectLoseAnswer, EffectTruncate,
	EffectSlowBody, EffectApplyFails, EffectApplyLeavesError, EffectApplyTakes, EffectSilence, EffectStarting, EffectExpireTokens}

// answers tells the effects that shape the answer of a request.
func (e Effect) answers() bool {
	switch e {
	case EffectStatus, EffectResetBefore, EffectLoseAnswer, EffectTruncate, EffectSlowBody:
		return true
	}
	return false
}

// onApplies tells the effects that match applies only.
func (e Effect) onApplies() bool {
	return e == EffectApplyFails || e == EffectApplyLeavesError || e == EffectApplyTakes
}

// usesDelay tells the effects that need Delay.
func (e Effect) usesDelay() bool {
	return e == EffectDelay || e == EffectSlowBody || e == EffectSilence || e == EffectStarting || e == EffectApplyTakes
}

// FaultSet is the stand's rules with the seed of their probabilities: the
// same seed and the same sequence of requests fire the same rules.
type FaultSet struct {
	Seed   int64
	Faults []Fault
}

// Firing is one time a rule fired.
type Firing struct {
	Rule   string
	Effect Effect
	Method string
	Path   string
	At     time.Time
}

// maxFirings bounds the firing record of a long-running stand.
const maxFirings = 100_000

// faultRule is a rule as the engine runs it.
type faultRule struct {
	Fault
	method  string   // upper case, "" any
	pattern []string // path segments, nil = any path
	seen    int      // matching requests so far
	fired   int
}

// faultEngine holds the rules and the state their effects leave; its lock
// and the stand's are never held together.
type faultEngine struct {
	mu      sync.Mutex
	seed    int64
	rules   []*faultRule
	rng     *rand.Rand
	firings []Firing
	// silentTill is when the silence of EffectSilence ends.
	silentTill time.Time
	// watches are the arrivals a test waits for.
	watches  map[int]*watch
	watchSeq int
}

type watch struct {
	method  string
	pattern []string
	ch      chan Call
	done    chan struct{}
}

// faultPlan is what the rules decided for one request.
type faultPlan struct {
	delay            time.Duration
	answer           *Fault // the effect that shapes the answer, nil = none
	applyFails       bool
	applyLeavesError bool
	applyTakes       time.Duration // 0: the stand's apply time
	failRule         string        // the rule that made the apply fail
	rules            []string
}

func (p *faultPlan) fired() string { return strings.Join(p.rules, ", ") }

// validate reports the first problem of a rule; where names the rule.
func (f Fault) validate(where string) error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("stand: fault %s: %s: %s", where, field, fmt.Sprintf(format, args...))
	}
	known := false
	for _, e := range Effects {
		known = known || e == f.Effect
	}
	switch {
	case f.Effect == "":
		return bad("effect", "missing (one of %s)", effectNames())
	case !known:
		return bad("effect", "%q is none of %s", f.Effect, effectNames())
	case strings.ContainsAny(f.Method, " \t/"):
		return bad("method", "%q is not a method", f.Method)
	case f.Path != "" && !strings.HasPrefix(f.Path, "/"):
		return bad("path", "%q must start with /", f.Path)
	case f.Nth < 0:
		return bad("nth", "%d is negative", f.Nth)
	case f.Every < 0:
		return bad("every", "%d is negative", f.Every)
	case f.Probability < 0 || f.Probability > 1:
		return bad("probability", "%g is outside 0..1", f.Probability)
	case f.Times < 0:
		return bad("times", "%d is negative", f.Times)
	}
	when := 0
	for _, set := range []bool{f.Nth > 0, f.Every > 0, f.Probability > 0} {
		if set {
			when++
		}
	}
	if when > 1 {
		return bad("nth/every/probability", "at most one of them may be set")
	}
	switch {
	case f.Effect == EffectStatus && (f.Status < 400 || f.Status > 599):
		return bad("status", "effect status needs a status from 400 to 599, not %d", f.Status)
	case f.Effect != EffectStatus && f.Status != 0:
		return bad("status", "only effect status takes a status")
	case f.RetryAfter < 0:
		return bad("retry-after", "%v is negative", f.RetryAfter)
	case f.Effect != EffectStatus && f.RetryAfter != 0:
		return bad("retry-after", "only effect status sends Retry-After")
	case f.Effect.usesDelay() && f.Delay <= 0:
		return bad("delay", "effect %s needs a delay above zero", f.Effect)
	case !f.Effect.usesDelay() && f.Delay != 0:
		return bad("delay", "effect %s takes no delay", f.Effect)
	}
	return nil
}

func effectNames() string {
	names := make([]string, len(Effects))
	for i, e := range Effects {
		names[i] = string(e)
	}
	return strings.Join(names, ", ")
}

// compile checks a set and turns it into rules; rule names default to
// "rule N".
func compileFaults(set FaultSet) ([]*faultRule, error) {
	rules := make([]*faultRule, 0, len(set.Faults))
	for i, f := range set.Faults {
		where := fmt.Sprintf("rule %d", i+1)
		if f.Name != "" {
			where += fmt.Sprintf(" (%q)", f.Name)
		} else {
			f.Name = fmt.Sprintf("rule %d", i+1)
		}
		if err := f.validate(where); err != nil {
			return nil, err
		}
		rules = append(rules, newFaultRule(f))
	}
	return rules, nil
}

func newFaultRule(f Fault) *faultRule {
	r := &faultRule{Fault: f, method: strings.ToUpper(strings.TrimSpace(f.Method))}
	if f.Path != "" {
		r.pattern = splitPath(f.Path)
	}
	return r
}

func splitPath(p string) []string { return strings.Split(strings.Trim(p, "/"), "/") }

// matchPath matches path segments against a pattern: "*" is one segment,
// "**" any number of them.
func matchPath(pattern, segs []string) bool {
	for i, p := range pattern {
		if p == "**" {
			rest := pattern[i+1:]
			for k := i; k <= len(segs); k++ {
				if matchPath(rest, segs[k:]) {
					return true
				}
			}
			return false
		}
		if i >= len(segs) || (p != "*" && p != segs[i]) || (p == "*" && segs[i] == "") {
			return false
		}
	}
	return len(pattern) == len(segs)
}

func matches(method string, pattern []string, reqMethod string, segs []string) bool {
	if method != "" && method != reqMethod {
		return false
	}
	return pattern == nil || matchPath(pattern, segs)
}

// isApply tells an apply request: POST /console/api/v2[.1]/applications/{id}/project/update.
func isApply(method string, segs []string) bool {
	return method == http.MethodPost && len(segs) == 7 && segs[0] == "console" && segs[1] == "api" &&
		(segs[2] == "v2" || segs[2] == "v2.1") && segs[3] == "applications" && segs[4] != "" &&
		segs[5] == "project" && segs[6] == "update"
}

func newFaultEngine() *faultEngine {
	return &faultEngine{watches: map[int]*watch{}, rng: seededRand(0)}
}

func seededRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(seed)^0x9e3779b97f4a7c15))
}

// SetFaults replaces the rules, counting afresh; an invalid rule is refused
// by its place and name and the field at fault, and nothing changes.
func (s *Stand) SetFaults(set FaultSet) error {
	rules, err := compileFaults(set)
	if err != nil {
		return err
	}
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seed, e.rules, e.rng = set.Seed, rules, seededRand(set.Seed)
	return nil
}

// AddFault appends one rule to the set.
func (s *Stand) AddFault(f Fault) error {
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	place := len(e.rules) + 1
	where := fmt.Sprintf("rule %d", place)
	if f.Name != "" {
		where += fmt.Sprintf(" (%q)", f.Name)
	} else {
		f.Name = where
	}
	if err := f.validate(where); err != nil {
		return err
	}
	e.rules = append(e.rules, newFaultRule(f))
	return nil
}

// removeFaults drops the rules of a name (the knobs' own rules).
func (s *Stand) removeFaults(name string) {
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	kept := e.rules[:0]
	for _, r := range e.rules {
		if r.Name != name {
			kept = append(kept, r)
		}
	}
	clear(e.rules[len(kept):])
	e.rules = kept
}

// ClearFaults removes every rule and ends a silence in progress. Tokens
// already expired stay refused and a starting console goes on starting
// (SetStarting(0) ends it).
func (s *Stand) ClearFaults() {
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rules = nil
	e.silentTill = time.Time{}
}

// Faults returns the rules in force, names filled in.
func (s *Stand) Faults() FaultSet {
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	set := FaultSet{Seed: e.seed}
	for _, r := range e.rules {
		set.Faults = append(set.Faults, r.Fault)
	}
	return set
}

// Firings lists what fired so far, oldest first.
func (s *Stand) Firings() []Firing {
	e := s.faults
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Firing(nil), e.firings...)
}

// Watch delivers a Call each time a request matching method ("" any) and
// pattern (as Fault.Path) arrives, before the platform acts and before any
// fault's effect, so a test can interrupt a client at exactly that moment;
// an EffectDelay rule holds the request meanwhile. The stand waits for a
// reader when 64 arrivals are unread; stop ends the watch and releases it.
func (s *Stand) Watch(method, pattern string) (arrivals <-chan Call, stop func()) {
	w := &watch{method: strings.ToUpper(strings.TrimSpace(method)), ch: make(chan Call, 64), done: make(chan struct{})}
	if pattern != "" {
		w.pattern = splitPath(pattern)
	}
	e := s.faults
	e.mu.Lock()
	e.watchSeq++
	id := e.watchSeq
	e.watches[id] = w
	e.mu.Unlock()
	var once sync.Once
	return w.ch, func() {
		once.Do(func() {
			e.mu.Lock()
			delete(e.watches, id)
			e.mu.Unlock()
			close(w.done)
		})
	}
}

// notifyWatches tells the watches of an arrival; it waits while a watch's
// buffer is full, until it is read or stopped, or the stand closes.
func (s *Stand) notifyWatches(c Call, segs []string) {
	e := s.faults
	e.mu.Lock()
	var targets []*watch
	for _, w := range e.watches {
		if matches(w.method, w.pattern, c.Method, segs) {
			targets = append(targets, w)
		}
	}
	e.mu.Unlock()
	for _, w := range targets {
		select {
		case w.ch <- c:
		case <-w.done:
		case <-s.closing:
		}
	}
}

// decide runs the rules over one request: it counts it, fires what fires,
// records the firings and applies the platform-level effects at once.
func (s *Stand) decide(method string, segs []string, path string, now time.Time) faultPlan {
	var plan faultPlan
	var expire bool
	var starting time.Duration
	e := s.faults
	e.mu.Lock()
	apply := isApply(method, segs)
	for _, r := range e.rules {
		if !matches(r.method, r.pattern, method, segs) || (r.Effect.onApplies() && !apply) {
			continue
		}
		r.seen++
		fires := true
		switch {
		case r.Nth > 0:
			fires = r.seen == r.Nth
		case r.Every > 0:
			fires = r.seen%r.Every == 0
		case r.Probability > 0:
			fires = e.rng.Float64() < r.Probability
		}
		if !fires || (r.Times > 0 && r.fired >= r.Times) || (r.Effect.answers() && plan.answer != nil) {
			continue
		}
		r.fired++
		if len(e.firings) >= maxFirings {
			e.firings = append(e.firings[:0], e.firings[len(e.firings)/2:]...)
		}
		e.firings = append(e.firings, Firing{Rule: r.Name, Effect: r.Effect, Method: method, Path: path, At: now})
		plan.rules = append(plan.rules, r.Name)
		switch r.Effect {
		case EffectDelay:
			plan.delay += r.Delay
		case EffectApplyFails:
			plan.applyFails = true
			if plan.failRule == "" {
				plan.failRule = r.Name
			}
		case EffectApplyLeavesError:
			plan.applyLeavesError = true
		case EffectApplyTakes:
			if plan.applyTakes == 0 {
				plan.applyTakes = r.Delay
			}
		case EffectSilence:
			if till := now.Add(r.Delay); till.After(e.silentTill) {
				e.silentTill = till
			}
		case EffectStarting:
			starting = max(starting, r.Delay)
		case EffectExpireTokens:
			expire = true
		default:
			f := r.Fault
			plan.answer = &f
		}
	}
	e.mu.Unlock()
	if expire {
		s.ExpireTokens()
	}
	if starting > 0 {
		s.startUntil(now.Add(starting))
	}
	return plan
}

// silentUntil is when the silence in progress ends (zero when none).
func (e *faultEngine) silentUntil(now time.Time) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.silentTill.After(now) {
		return e.silentTill
	}
	return time.Time{}
}

// errStandClosing ends a held request when the stand closes; errClientGone
// when its client went away.
var (
	errStandClosing = errors.New("stand: closing")
	errClientGone   = errors.New("stand: the client went away")
)

// hold waits d of real time, or until the stand closes.
func (s *Stand) hold(d time.Duration) error { return s.holdUnlessGone(d, nil) }

// holdUnlessGone waits d of real time, or until gone is closed (the client
// went away; nil never is) or the stand closes.
func (s *Stand) holdUnlessGone(d time.Duration, gone <-chan struct{}) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-gone:
		return errClientGone
	case <-s.closing:
		return errStandClosing
	}
}

// holdWhileSilent holds a request until the silence in progress ends (it
// may be extended meanwhile), or the stand closes.
func (s *Stand) holdWhileSilent() error {
	for {
		now := time.Now()
		till := s.faults.silentUntil(now)
		if till.IsZero() {
			return nil
		}
		if err := s.hold(till.Sub(now)); err != nil {
			return err
		}
	}
}

// breakRuleName names the rules BreakNextResponses adds.
func breakRuleName(method, path string) string {
	return "break " + strings.ToUpper(method) + " " + path
}

// applyLeavesErrorRule names the rule SetApplyLeavesError adds.
const applyLeavesErrorRule = "apply leaves error"
