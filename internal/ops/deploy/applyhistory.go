package deploy

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Where a forecast of an apply comes from, most telling first. Applies of
// one project to one application take about as long each time; so, on the
// emulated stand, do those of the project's other applications and of the
// stand's other projects (the real platform's durations are not recorded
// anywhere – spec platform-api.md §9 – so the order follows how close the
// evidence is to the apply at hand):
//
//	application   this machine's exact measurements of the application's
//	              last applies
//	platform      the platform's own record of the application's last
//	              apply (its task's start-date, the date-updated of the
//	              card read before this apply): another machine, or the
//	              console, applied before
//	project       this machine's exact measurements of the project's other
//	              applications on the stand
//	stand         the platform's record of the stand's latest finished
//	              applies, any application (their tasks' start-dates, their
//	              cards' date-updated)
//	machine       this machine's exact measurements of any application on
//	              the stand
//	rough         the application's applies measured by polls alone (the
//	              platform gave no stamps): their end known within the
//	              polls' spacing
//
// The platform's record costs one read of the task list and of at most
// historyDepth other applications' cards, made only when this machine has
// no exact measurement of the application, while the apply runs: the
// wait's first read comes no sooner for it. The size of
// the build is not a source: nothing shows how it bears on the platform's
// apply time, and the stand's applies take the same time whatever the
// size.
const (
	sourceApplication = "application"
	sourcePlatform    = "platform"
	sourceProject     = "project"
	sourceStand       = "stand"
	sourceMachine     = "machine"
	sourceRough       = "rough"
)

// applyTarget is what a wait for an apply knows about it.
type applyTarget struct {
	appID string
	// projectID is the project of the build, when the caller knows it
	// (deploy does; apps apply does not).
	projectID string
	// before is the application's card read before the apply, when it
	// was (see cardBeforeApply): it dates the end of the apply before.
	before *jsonx.Object
}

// forecastApply finds the range the apply of t is expected to end in; ok
// is false when nothing tells (the wait then backs off as any other).
func (o *Ops) forecastApply(ctx context.Context, h *applyHistory, t applyTarget) (applyForecast, bool) {
	base := o.Client.Config().BaseURL
	own := o.ownApplies(h, t.appID)
	if f, ok := forecastOf(exactSamples(own), sourceApplication); ok {
		return f, true
	}
	mine, others := o.platformApplies(ctx, t.appID, t.before)
	if f, ok := forecastOf(mine, sourcePlatform); ok {
		return f, true
	}
	if t.projectID != "" {
		if f, ok := forecastOf(h.latestOthers(base, t.appID, t.projectID), sourceProject); ok {
			return f, true
		}
	}
	if f, ok := forecastOf(others, sourceStand); ok {
		return f, true
	}
	if f, ok := forecastOf(h.latestOthers(base, t.appID, ""), sourceMachine); ok {
		return f, true
	}
	return forecastOf(own, sourceRough)
}

// ownApplies are this machine's samples of the application's applies.
func (o *Ops) ownApplies(h *applyHistory, appID string) []applySample {
	return h.samples(applyKey(o.Client.Config().BaseURL, appID))
}

// cardBeforeApply is the application's card as it is before an apply, for
// the forecast (applyTarget.before): known when the caller read it, else
// read now – only when this machine has no exact measurement of the
// application's applies, the one case the forecast looks at it. nil when
// it is not needed or cannot be read (the forecast goes without it).
func (o *Ops) cardBeforeApply(ctx context.Context, appID string, known *jsonx.Object) *jsonx.Object {
	if known != nil {
		return known
	}
	if len(exactSamples(o.ownApplies(o.applyHistory(), appID))) > 0 {
		return nil
	}
	card, err := o.readCard(ctx, appID)
	if err != nil {
		return nil
	}
	return card
}

// logForecast tells when the apply should end, and by what.
func (o *Ops) logForecast(ctx context.Context, f applyForecast) {
	source := i18n.T(ctx, "deploy.forecast-"+f.source)
	var ends []string
	for _, r := range o.policy().normalized().joined(f.ends) {
		end := seconds(r.lo)
		if to := seconds(r.hi); to != end {
			end += "–" + to
		}
		if !slices.Contains(ends, end) {
			ends = append(ends, end)
		}
	}
	if n := len(ends); n > 1 {
		o.logf(ctx, "deploy.apply-forecast-either", "ends", strings.Join(ends[:n-1], ", "), "last", ends[n-1], "source", source)
		return
	}
	from, to := seconds(f.lo), seconds(f.hi)
	if from == to {
		o.logf(ctx, "deploy.apply-forecast", "seconds", from, "source", source)
		return
	}
	o.logf(ctx, "deploy.apply-forecast-range", "from", from, "to", to, "source", source)
}

func exactSamples(samples []applySample) []applySample {
	var out []applySample
	for _, s := range samples {
		if s.Exact {
			out = append(out, s)
		}
	}
	return out
}

// platformApplies reads the platform's record of earlier applies once,
// without repeats (a forecast is only a speed-up). The console dates a
// task's start only (spec §3.5); an apply's end is the date-updated of its
// application's card, while that apply is the newest task of the
// application and the card has settled. So:
//
//   - mine is the application's own last apply, when before (its card read
//     before this apply; nil: not read) dates its end: the newest of the
//     application's tasks that began by that date must be a finished apply
//     (this apply's task began later, and on a fast stand may be over by the
//     time the list is read);
//   - others are the stand's latest applies of other applications that are
//     still their newest task, oldest first; their cards are read for it,
//     at most historyDepth of them, side by side.
func (o *Ops) platformApplies(ctx context.Context, appID string, before *jsonx.Object) (mine, others []applySample) {
	// Reads that take longer than half a Budget (a huge stand, a slow one)
	// are given up: the wait goes without rather than start late.
	ctx, cancel := context.WithTimeout(ctx, o.policy().normalized().Budget/2)
	defer cancel()
	// Of the stand's tasks, listed oldest first, each application's newest
	// task is what counts, when it is a finished apply with its start:
	// only those are kept as the list is read, so a long-lived stand's
	// other tasks (tens of thousands of creations and deletions) cost no
	// memory.
	type newest struct {
		start     time.Time
		startText string
	}
	var last map[string]*newest
	cutoff, dated := time.Time{}, false
	if before != nil {
		cutoff, dated = parseStamp(before.Str("date-updated"))
	}
	if !dated {
		before = nil
	}
	if err := o.call(ctx, func(ctx context.Context) error {
		_, e := platform.ListPicking(ctx, o.Client, platform.Request{Path: "/tasks/application-tasks", ReadRetries: []time.Duration{}},
			func() { last = map[string]*newest{} },
			func(t *jsonx.RawObject) (struct{}, bool, error) {
				app := t.StrBytes("application-id")
				mine := string(app) == appID
				finishedApply := isFinishedTask(t) && isApplyTask(t)
				var start time.Time
				var startText string
				ok := false
				if mine || finishedApply {
					startText = t.Str("start-date")
					start, ok = parseStamp(startText)
				}
				if mine && (before == nil || !ok || start.After(cutoff)) {
					return struct{}{}, false, nil // not the apply before this one
				}
				if !finishedApply || !ok {
					// Another operation, one under way, or a finished one
					// without a start: the application's newest task is no
					// apply this can date.
					delete(last, string(app))
					return struct{}{}, false, nil
				}
				if n := last[string(app)]; n != nil {
					*n = newest{start, startText}
				} else {
					last[string(app)] = &newest{start, startText}
				}
				return struct{}{}, false, nil
			}, "tasks")
		return e
	}); err != nil {
		return nil, nil
	}
	if n := last[appID]; n != nil {
		if s, ok := appliedUntil(n.start, n.startText, before, o.limits().Start); ok {
			mine = append(mine, s)
		}
	}
	type candidate struct {
		app string
		*newest
	}
	var cands []candidate
	for app, n := range last {
		if app != appID {
			cands = append(cands, candidate{app, n})
		}
	}
	slices.SortFunc(cands, func(a, b candidate) int { return a.start.Compare(b.start) })
	cands = cands[max(0, len(cands)-historyDepth):]
	samples := make([]*applySample, len(cands))
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Go(func() {
			card, err := o.readCard(ctx, c.app)
			if err != nil {
				return
			}
			if s, ok := appliedUntil(c.start, c.startText, card, o.limits().Start); ok {
				samples[i] = &s
			}
		})
	}
	wg.Wait()
	for _, s := range samples {
		if s != nil {
			others = append(others, *s)
		}
	}
	return mine, others
}

// appliedUntil is the apply that started at start and ended at the
// date-updated of card, its application settled since; false when the card
// is not settled or its stamp does not fit (before the start, or longer
// than a wait would last: something else changed the application since).
func appliedUntil(start time.Time, startText string, card *jsonx.Object, longest time.Duration) (applySample, bool) {
	if !IsStable(card.Str("status")) {
		return applySample{}, false
	}
	endText := card.Str("date-updated")
	end, ok := parseStamp(endText)
	if !ok || end.Before(start) || end.Sub(start) > longest {
		return applySample{}, false
	}
	return stampedSample(start, end, startText, endText), true
}

// isApplyTask tells the task of an apply.
func isApplyTask(t jsonx.Fields) bool {
	return strings.EqualFold(t.Str("operation-type"), "UpdateApplication")
}

// isFinishedTask tells a task that finished well (Completed, or Done as
// some stands say).
func isFinishedTask(t jsonx.Fields) bool {
	s := strings.ToLower(t.Str("status"))
	return s == "completed" || s == "done"
}

// stampedSample is an apply that took end − start by the platform's
// stamps: exact to the millisecond when both carry a fraction of a second,
// else within a second either way.
func stampedSample(start, end time.Time, startText, endText string) applySample {
	d := end.Sub(start).Seconds()
	if hasFraction(startText) && hasFraction(endText) {
		return applySample{Lo: d, Hi: d, Exact: true}
	}
	return applySample{Lo: max(d-1, 0), Hi: d + 1, Exact: true}
}

// hasFraction tells an ISO stamp with a fraction of a second.
func hasFraction(stamp string) bool {
	_, rest, ok := strings.Cut(stamp, "T")
	if !ok {
		_, rest, _ = strings.Cut(stamp, " ")
	}
	return strings.Contains(rest, ".")
}

// exactApply is the length of the apply a wait just saw end, by the
// platform's stamps: the newest apply task of the application (tasks are
// its own, oldest first) from its start-date to the date-updated of the
// card the wait saw settled (the console dates no task's end). false when
// the stamps are missing or do not agree with what the polls saw
// (measured): they are then not this apply's.
func exactApply(tasks []*jsonx.Object, settled *jsonx.Object, measured applySample) (applySample, bool) {
	var task *jsonx.Object
	for i := len(tasks) - 1; i >= 0 && task == nil; i-- {
		if isApplyTask(tasks[i]) {
			task = tasks[i]
		}
	}
	if task == nil || settled == nil {
		return applySample{}, false
	}
	startText := task.Str("start-date")
	start, ok := parseStamp(startText)
	if !ok {
		return applySample{}, false
	}
	return stampedUntil(start, startText, settled, measured)
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
	Used time.Time `json:"used"`
	// Project is the application's project when an apply last said it.
	Project string        `json:"project,omitempty"`
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

// longestSample bounds a sample that may plan a wait.
const longestSample = 24 * time.Hour

// valid tells a sample that may plan a wait: a damaged line must not.
func (s applySample) valid() bool { return s.Lo >= 0 && s.Hi >= s.Lo && s.Hi < longestSample.Seconds() }

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
		if s.valid() {
			out = append(out, s)
		}
	}
	return out
}

// latestOthers are the latest exact samples of the applications on the
// stand at baseURL other than appID – of projectID only, when given – one
// per application, the most recently used last, at most historyDepth.
func (h *applyHistory) latestOthers(baseURL, appID, projectID string) []applySample {
	if h == nil {
		return nil
	}
	type used struct {
		at time.Time
		s  applySample
	}
	var found []used
	for key, e := range h.read().Apps {
		app, ok := strings.CutPrefix(key, baseURL+" ")
		if !ok || app == appID || strings.Contains(app, " ") || projectID != "" && e.Project != projectID {
			continue
		}
		for i := len(e.Applies) - 1; i >= 0; i-- {
			if s := e.Applies[i]; s.Exact && s.valid() {
				found = append(found, used{e.Used, s})
				break
			}
		}
	}
	slices.SortFunc(found, func(a, b used) int { return a.at.Compare(b.at) })
	var out []applySample
	for _, u := range found[max(0, len(found)-historyDepth):] {
		out = append(out, u.s)
	}
	return out
}

// record adds one apply of key (of project, when known). replace puts it
// in the place of the key's last sample instead: the same apply, measured
// better.
func (h *applyHistory) record(key, project string, s applySample, now time.Time, replace bool) {
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
	if project != "" {
		e.Project = project
	}
	if replace && len(e.Applies) > 0 {
		e.Applies[len(e.Applies)-1] = s
	} else {
		e.Applies = append(e.Applies, s)
	}
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

// measuredApply is an apply a wait saw end, recorded by polls, waiting for
// the verification's task list to measure it by the platform's stamps.
type measuredApply struct {
	history *applyHistory
	key     string
	sample  applySample
	settled *jsonx.Object
}

// refineApply replaces the polls' measurement of the apply just waited for
// with the platform's, when its stamps tell it (see exactApply); tasks are
// the application's, as the verification read them.
func (o *Ops) refineApply(appID string, tasks []*jsonx.Object) {
	m := o.measured
	o.measured = nil
	if m == nil || m.key != applyKey(o.Client.Config().BaseURL, appID) {
		return
	}
	if s, ok := exactApply(tasks, m.settled, m.sample); ok {
		m.history.record(m.key, "", s, o.now(), true)
	}
}
