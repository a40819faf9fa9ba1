package platform

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/uuidtext"
)

// IsUUID tells an id from a name.
func IsUUID(s string) bool { return uuidtext.Valid(s) }

// Application statuses.
const (
	StatusRunning = "Running"
	StatusStopped = "Stopped"
	StatusError   = "Error"
	StatusDeleted = "Deleted"
	StatusUnknown = "UNKNOWN"
)

// AppStatuses are the statuses an application card shows: the settled
// ones, then those of a change under way.
var AppStatuses = []string{StatusRunning, StatusStopped, StatusError,
	"Starting", "Stopping", "Initializing", "Updating", "Frozen", "Creating", "Deleting", StatusDeleted}

// IsDeletedApp tells a tombstone (status Deleted, any case).
func IsDeletedApp(card jsonx.Fields) bool { return IsDeletedStatus(card.StrBytes("status")) }

// IsDeletedStatus is IsDeletedApp for a card's status already read.
func IsDeletedStatus(status []byte) bool { return bytes.EqualFold(status, []byte(StatusDeleted)) }

// AppProjectID is the project an application card names: project.id, else
// source.image-id.
func AppProjectID(card *jsonx.Object) string {
	if id := card.Obj("project").Str("id"); id != "" {
		return id
	}
	return card.Obj("source").Str("image-id")
}

// AppName is the name users see: name, else display-name.
func AppName(card jsonx.Fields) string { return string(AppNameBytes(card)) }

// AppNameBytes is AppName without a string made (see jsonx.Fields).
func AppNameBytes(card jsonx.Fields) []byte {
	if n := card.StrBytes("name"); len(n) > 0 {
		return n
	}
	return card.StrBytes("display-name")
}

// ListApps reads every application, tombstones included.
func (c *Client) ListApps(ctx context.Context) ([]*jsonx.Object, error) {
	return c.List(ctx, Request{Path: "/applications"}, "applications")
}

// ListAppsKeeping reads the application list keeping only the cards keep
// accepts (see ListKeeping).
func (c *Client) ListAppsKeeping(ctx context.Context, keep func(*jsonx.RawObject) bool) ([]*jsonx.Object, error) {
	return c.ListKeeping(ctx, Request{Path: "/applications"}, keep, "applications")
}

// GetApp reads an application card as the platform sent it.
func (c *Client) GetApp(ctx context.Context, id string) (*jsonx.Object, error) {
	return c.GetObject(ctx, "/applications/"+url.PathEscape(id))
}

// MatchAppName finds applications whose name, display-name or
// publication-context equals name exactly, case-insensitively.
func MatchAppName(apps []*jsonx.Object, name string, includeDeleted bool) []*jsonx.Object {
	var out []*jsonx.Object
	for _, a := range apps {
		if AppNamed(a, name, includeDeleted) {
			out = append(out, a)
		}
	}
	return out
}

// AppNamed tells whether an application's name, display-name or
// publication-context equals name exactly, case-insensitively.
func AppNamed(a jsonx.Fields, name string, includeDeleted bool) bool {
	if !includeDeleted && IsDeletedApp(a) {
		return false
	}
	for _, k := range [...]string{"name", "display-name", "publication-context"} {
		if v := a.Str(k); v != "" && strings.EqualFold(v, name) {
			return true
		}
	}
	return false
}

// ResolveApp turns an application reference into an id: a UUID passes
// through without a request; a name must match exactly one live
// application. No match and several matches are errors; the latter lists
// the ids, since guessing would act on the wrong application.
func (c *Client) ResolveApp(ctx context.Context, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	if IsUUID(ref) {
		return ref, nil
	}
	// Only the live cards of that name are kept from the list.
	apps, err := c.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool { return AppNamed(a, ref, false) })
	if err != nil {
		return "", err
	}
	return PickApp(ctx, apps, ref)
}

// PickApp resolves a name among already listed applications.
func PickApp(ctx context.Context, apps []*jsonx.Object, ref string) (string, error) {
	found := MatchAppName(apps, ref, false)
	switch len(found) {
	case 0:
		return "", ConfigErrorf(ctx, "client.app-not-found", "ref", ref)
	case 1:
		return found[0].Str("id"), nil
	}
	ids := make([]string, len(found))
	for i, a := range found {
		ids[i] = a.Str("id")
	}
	return "", ConfigErrorf(ctx, "client.app-ambiguous", "ref", ref, "ids", strings.Join(ids, ", "))
}

// OpenDebugSession asks the platform for a debug session of an application:
// the answer holds debug-token, debug-address and client-debug-address, or
// is nil when the platform sent no body.
func (c *Client) OpenDebugSession(ctx context.Context, id string) (any, error) {
	return c.Post(ctx, "/applications/"+url.PathEscape(id)+"/actions/debug", nil)
}

// IsDeletedProject tells a deleted project: the platform keeps it listed
// with a "deleted" flag, and any truthy value counts.
func IsDeletedProject(card *jsonx.Object) bool { return jsonx.Truthy(card.Value("deleted")) }

// ListBuilds reads a project's build list ("assemblies"); only what
// survived the platform's housekeeping is there.
func (c *Client) ListBuilds(ctx context.Context, projectID string) ([]*jsonx.Object, error) {
	return c.List(ctx, Request{Path: buildsPath(projectID)}, "assemblies")
}

// EachBuild reads a project's build list as it arrives and hands each card
// to visit undecoded (see ListEach).
func (c *Client) EachBuild(ctx context.Context, projectID string, begin func(), visit func(key string, card *jsonx.RawObject) error) error {
	return c.ListEach(ctx, Request{Path: buildsPath(projectID)}, begin, visit, "assemblies")
}

func buildsPath(projectID string) string {
	return "/projects/" + url.PathEscape(projectID) + "/assemblies"
}

// ListProjects reads every project, deleted ones and group entries
// included (the platform keeps them listed).
func (c *Client) ListProjects(ctx context.Context) ([]*jsonx.Object, error) {
	return c.List(ctx, Request{Path: "/projects"}, "projects")
}

// taskReadAttempts bounds the reads of the task list.
const taskReadAttempts = 3

// TaskReadPause is the pause between two reads of the task list.
const TaskReadPause = 5 * time.Second

// ListAppTasks reads the tasks of the application appID ("": of every
// application), oldest first. The platform lists every application's
// tasks in one answer, which grows with the stand: it is read as it
// arrives and only appID's tasks are decoded. It is also the answer most
// likely to break off mid-body, so a read whose connection broke, or that
// a gateway turned away, is repeated, up to three attempts, with pause
// between them (nil: TaskReadPause of real time).
func (c *Client) ListAppTasks(ctx context.Context, appID string, pause func(context.Context) error) ([]*jsonx.Object, error) {
	if pause == nil {
		pause = func(ctx context.Context) error {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(TaskReadPause):
				return nil
			}
		}
	}
	for attempt := 1; ; attempt++ {
		tasks, err := c.ListKeeping(ctx, Request{Path: "/tasks/application-tasks", ReadRetries: []time.Duration{}}, func(t *jsonx.RawObject) bool {
			return appID == "" || string(t.StrBytes("application-id")) == appID
		}, "tasks")
		if err == nil || !IsTransport(err) && !IsTurnedAway(err) || attempt >= taskReadAttempts || ctx.Err() != nil {
			return tasks, err
		}
		if e := pause(ctx); e != nil {
			return nil, err
		}
	}
}
