package deploy

import (
	"context"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// The waits for an application being made (a probe's compilation, apps
// create --wait) and being removed are planned as an apply's is (see
// applyPlan), by how long the same operation took before on the stand:
// the creations from the project's builds, the deletions of any
// application. Without such a record they back off as any other wait; each
// records what it saw, in the apply history.

// createKey names, in the apply history, the creations of applications
// from a project's builds on a stand; deleteKey the deletions of
// applications on a stand. Both hold a space after the stand's address,
// as no application key does, so no apply's forecast takes them for an
// application's applies (see latestOthers).
func createKey(baseURL, projectID string) string { return baseURL + " create " + projectID }
func deleteKey(baseURL string) string            { return baseURL + " delete" }

// planBy is the plan of a wait for an operation recorded under key: the
// polls around where its recent runs ended, none without a record. It
// measures the wait either way.
func (o *Ops) planBy(history *applyHistory, key string) *applyPlan {
	f, ok := forecastOf(history.samples(key), "")
	return newApplyPlan(f, ok, o.policy())
}

// waitCreated is Wait for an application that was just created (the create
// was accepted a moment ago) from a build of projectID, to be ready: its
// polls planned by the project's recent creations on the stand, its own
// creation recorded when it saw it end – by the card's stamps, from
// date-created to date-updated, when they agree with the polls (see
// stampedUntil), else by the polls. projectID "" plans and records nothing.
func (o *Ops) waitCreated(ctx context.Context, appID, projectID string, timeout time.Duration, since time.Time) (*jsonx.Object, error) {
	if projectID == "" {
		return o.Wait(ctx, appID, GoalReady, timeout, since)
	}
	history := o.applyHistory()
	key := createKey(o.Client.Config().BaseURL, projectID)
	plan := o.planBy(history, key)
	card, err := o.wait(ctx, appID, GoalReady, timeout, since, plan)
	if s, ok := plan.sample(); ok {
		if stamped, ok := createdUntil(card, s); ok {
			s = stamped
		}
		history.record(key, projectID, s, o.now(), false)
	}
	return card, err
}

// createdUntil is the creation a wait saw end (measured), by the card's
// own stamps; false when they are missing, the card has not settled, or
// the stamps do not agree with the polls.
func createdUntil(card *jsonx.Object, measured applySample) (applySample, bool) {
	if card == nil {
		return applySample{}, false
	}
	startText := card.Str("date-created")
	start, ok := parseStamp(startText)
	if !ok {
		return applySample{}, false
	}
	return stampedUntil(start, startText, card, measured)
}

// stampedUntil is the operation that began at start, by the platform's
// stamp, and ended at the date-updated of settled, when that is the one
// the polls saw end (measured). The wait began a moment after the
// platform took the operation, so its own bracket may sit a little before
// the stamps' span; a second's tolerance covers that and clocks'
// rounding, not another operation.
func stampedUntil(start time.Time, startText string, settled *jsonx.Object, measured applySample) (applySample, bool) {
	s, ok := appliedUntil(start, startText, settled, longestSample)
	if !ok || s.Hi < measured.Lo-1 || s.Lo > measured.Hi+1 {
		return applySample{}, false
	}
	return s, true
}
