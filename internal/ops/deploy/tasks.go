package deploy

import (
	"context"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// appTasks reads the tasks of one application, oldest first as the
// platform lists them. The pause between broken reads is the poll policy's
// cap (five seconds in production, like the reference).
func (o *Ops) appTasks(ctx context.Context, appID string) ([]*jsonx.Object, error) {
	var tasks []*jsonx.Object
	err := o.call(ctx, func(ctx context.Context) error {
		var e error
		tasks, e = o.Client.ListAppTasks(ctx, appID, func(ctx context.Context) error { return o.clock().Sleep(ctx, o.policy().Max) })
		return e
	})
	if err != nil {
		return nil, err
	}
	return tasks, nil
}

// isFailedTask tells a task that ended in Error or Failed.
func isFailedTask(t *jsonx.Object) bool {
	s := strings.ToLower(t.Str("status"))
	return s == "error" || s == "failed"
}

// failedTasks are the failed tasks started at or after since, freshest
// first. A task without a readable start date counts: better a stale
// refusal reported than a fresh one hidden.
func failedTasks(tasks []*jsonx.Object, since time.Time) []*jsonx.Object {
	var out []*jsonx.Object
	for i := len(tasks) - 1; i >= 0; i-- {
		t := tasks[i]
		if !isFailedTask(t) {
			continue
		}
		if startedBefore(t, since) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// startedBefore tells a task whose start date is readable and earlier
// than since. The platform stamps to the millisecond, our clock finer: a
// task of the apply sent in the same millisecond as since is stamped
// before it, so since is cut to the millisecond first.
func startedBefore(t *jsonx.Object, since time.Time) bool {
	if since.IsZero() {
		return false
	}
	start, ok := parseStamp(t.Str("start-date"))
	return ok && start.Before(since.Truncate(time.Millisecond))
}

// tasksSince are the tasks started at or after since (a task without a
// readable start date counts, as in failedTasks).
func tasksSince(tasks []*jsonx.Object, since time.Time) []*jsonx.Object {
	var out []*jsonx.Object
	for _, t := range tasks {
		if startedBefore(t, since) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// taskLine is "<operation-type>: <text>" of a failed task.
func taskLine(ctx context.Context, t *jsonx.Object) string {
	op := t.Str("operation-type")
	text := t.Str("error-message")
	if text == "" {
		text = i18n.T(ctx, "deploy.no-error-text")
	}
	if op == "" {
		return text
	}
	return op + ": " + text
}

// taskProblem is the verification problem of a failed task.
func taskProblem(ctx context.Context, t *jsonx.Object) string {
	name := t.Str("operation-type")
	if name == "" {
		name = t.Str("id")
	}
	if name == "" {
		name = "task"
	}
	text := t.Str("error-message")
	if text == "" {
		text = i18n.T(ctx, "deploy.no-error-text")
	}
	return i18n.T(ctx, "deploy.task-failed", "task", name, "status", t.Str("status"), "text", text)
}

// stampLayouts are the ISO-8601 spellings tasks carry; a value without a
// zone is UTC.
var stampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04:05Z0700",
}

func parseStamp(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range stampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
