package stand

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Application statuses.
const (
	statusRunning      = "Running"
	statusStopped      = "Stopped"
	statusError        = "Error"
	statusInitializing = "Initializing"
	statusUpdating     = "Updating"
	statusStarting     = "Starting"
	statusStopping     = "Stopping"
	statusDeleting     = "Deleting"
	statusDeleted      = "Deleted"
	statusUnknown      = "UNKNOWN"

	genericAppError = "Неизвестная ошибка. Обратитесь к администратору"

	taskInProgress = "InProgress"
	taskCompleted  = "Completed"
	taskFailed     = "Failed"

	opCreate = "create"
	opApply  = "apply"
	opStart  = "start"
	opStop   = "stop"
	opDelete = "delete"

	// defaultTechnologyVersion is the technology version of new applications.
	defaultTechnologyVersion = "8.0.25.100"
)

// statusAt is the status an application shows. While the
// CreateApplication task runs the console reports Initializing whatever
// the server says (spec §4.1), so a create shows Initializing from the
// POST answer until it ends; a state saved by an older stand, whose
// creating application stored Creating, shows the same.
func statusAt(a *App) string {
	if op := a.Op; op != nil && op.Kind == opCreate {
		return statusInitializing
	}
	return a.Status
}

// --- operations and lazy time ---

// startOp begins a platform operation; it completes when a request (or a
// snapshot) comes at or after its due time.
func (s *Stand) startOp(a *App, kind string, d time.Duration, buildID, failure, taskType string, now time.Time) *Operation {
	op := &Operation{Kind: kind, Started: now, Due: now.Add(s.scaled(d)), BuildID: buildID, Failure: failure, PrevStatus: a.Status}
	if taskType != "" {
		t := &Task{ID: newID(), AppID: a.ID, Status: taskInProgress, OperationType: taskType, Start: now}
		s.st.addTask(t)
		op.TaskID = t.ID
	}
	a.Op = op
	a.Status = map[string]string{opCreate: statusInitializing, opApply: statusUpdating, opStart: statusStarting, opStop: statusStopping, opDelete: statusDeleting}[kind]
	a.Updated = now
	s.st.pending[a.ID] = a
	s.changed()
	return op
}

// settle completes every operation and group task due by now, in the
// order they fell due.
func (s *Stand) settle(now time.Time) {
	for {
		var app *App
		var group *GroupTask
		var due time.Time
		for _, a := range s.st.pending {
			if a.Op == nil {
				delete(s.st.pending, a.ID)
				continue
			}
			if !a.Op.Due.After(now) && (app == nil || a.Op.Due.Before(due) || (a.Op.Due.Equal(due) && a.ID < app.ID)) {
				app, due = a, a.Op.Due
			}
		}
		for _, g := range s.st.groupTasks {
			if !g.Done && !g.Due.After(now) && (app == nil && group == nil || g.Due.Before(due)) {
				app, group, due = nil, g, g.Due
			}
		}
		switch {
		case group != nil:
			s.finishGroupTask(group)
		case app != nil:
			s.finishOp(app, due)
		default:
			return
		}
	}
}

func (s *Stand) finishOp(a *App, at time.Time) {
	op := a.Op
	a.Op = nil
	delete(s.st.pending, a.ID)
	a.Updated = at
	task := s.st.taskByID[op.TaskID]
	endTask := func(failure string) {
		if task == nil {
			return
		}
		task.End = at
		task.Status = taskCompleted
		if failure != "" {
			task.Status, task.ErrorMessage = taskFailed, failure
		}
	}
	switch op.Kind {
	case opCreate:
		endTask(op.Failure)
		if op.Failure == "" {
			a.Status, a.Published, a.Error = statusRunning, true, ""
		} else {
			a.Status, a.Error = statusError, genericAppError
		}
	case opApply:
		endTask(op.Failure)
		b := s.st.buildByID[op.BuildID]
		switch {
		case op.Failure == "" && b != nil:
			if b.Kind == kindExtension {
				s.upsertExtension(a, b)
			} else {
				a.BuildID, a.ProjectID, a.ExportBuildID = b.ID, b.ProjectID, ""
			}
			a.Status, a.Published, a.Error = statusRunning, true, ""
			s.housekeep(a)
		case op.LeaveError:
			a.Status, a.Error = statusError, genericAppError
		case op.PrevStatus == statusError:
			a.Status = statusError
		default:
			// Silent rollback: the previous build runs again.
			a.Status, a.Published = statusRunning, true
		}
	case opStart:
		if op.PrevStatus == statusError {
			a.Status = statusError
		} else {
			a.Status, a.Published = statusRunning, true
		}
	case opStop:
		if op.PrevStatus == statusError {
			a.Status = statusError
		} else {
			a.Status = statusStopped
		}
	case opDelete:
		endTask("")
		a.Status, a.Published = statusDeleted, false
	}
	// The application may have been the last to need a deleted build.
	s.archivesFreed()
	s.changed()
}

// --- cards ---

type sourceJSON struct {
	Type             string `json:"type"`
	ImageID          string `json:"image-id"`
	ProjectVersionID string `json:"project-version-id"`
	ProjectVersion   string `json:"project-version"`
}

type refJSON struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

type appJSON struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	DisplayName        string     `json:"display-name"`
	PublicationContext string     `json:"publication-context"`
	Status             string     `json:"status"`
	URI                string     `json:"uri,omitempty"`
	Error              string     `json:"error,omitempty"`
	TechnologyVersion  string     `json:"technology-version"`
	DevelopmentMode    bool       `json:"development-mode"`
	SpaceID            string     `json:"space-id"`
	DateCreated        string     `json:"date-created"`
	DateUpdated        string     `json:"date-updated"`
	Source             sourceJSON `json:"source"`
	Project            refJSON    `json:"project"`
	DefaultUserList    string     `json:"default-user-list"`
	UserLists          []string   `json:"user-lists"`
}

func (s *Stand) appCard(a *App, q *req) appJSON {
	status := statusAt(a)
	card := appJSON{
		ID: a.ID, Name: a.Name, DisplayName: a.DisplayName, PublicationContext: a.PublicationContext,
		Status: status, Error: a.Error, TechnologyVersion: a.TechnologyVersion,
		DevelopmentMode: a.DevelopmentMode, SpaceID: a.SpaceID,
		DateCreated: isoTime(a.Created), DateUpdated: isoTime(a.Updated),
		Source:          sourceJSON{Type: "image", ImageID: a.ProjectID, ProjectVersionID: a.BuildID},
		Project:         refJSON{ID: a.ProjectID},
		DefaultUserList: a.DefaultUserList, UserLists: append([]string{}, a.UserLists...),
	}
	if b := s.st.buildByID[a.BuildID]; b != nil {
		card.Source.ProjectVersion = b.Version
	}
	if p := s.st.projectByID[a.ProjectID]; p != nil {
		card.Project.Name = p.Presentation
	}
	if a.Published && status != statusDeleted && status != statusDeleting {
		card.URI = q.baseURL + "/applications/" + a.PublicationContext
	}
	return card
}

func (s *Stand) listApps(q *req) {
	// Handlers run under s.mu, so one buffer serves every listing; a pool
	// would lose it at each collection and fault a new one in.
	b := s.listBuf[:0]
	if s.opts.Wrap {
		b = append(b, `{"items":`...)
	}
	b = append(b, '[')
	for i, a := range s.st.apps {
		if i > 0 {
			b = append(b, ',')
		}
		card := s.appCard(a, q)
		b = card.appendJSON(b)
	}
	b = append(b, ']')
	if s.opts.Wrap {
		b = append(b, '}')
	}
	q.w.Header().Set("Content-Type", "application/json")
	q.w.WriteHeader(http.StatusOK)
	q.w.Write(b)
	s.listBuf = b[:0]
}

// liveApp finds an application that is not deleted.
func (s *Stand) liveApp(id string) (*App, error) {
	a := s.st.appByID[id]
	if a == nil || a.Status == statusDeleted {
		return nil, refuseMessage(http.StatusNotFound, "Application %q not found", id)
	}
	return a, nil
}

// idleApp finds a live application with no operation in progress.
func (s *Stand) idleApp(id string) (*App, error) {
	a, err := s.liveApp(id)
	if err != nil {
		return nil, err
	}
	if a.Op != nil {
		return nil, refuseMessage(http.StatusNotFound, "Application %q is busy", id)
	}
	return a, nil
}

func (s *Stand) getApp(q *req) {
	a, err := s.liveApp(q.param(0))
	answerCard(q, a, err, func(a *App) any { return s.appCard(a, q) })
}

// --- create ---

func str(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

func (s *Stand) createApp(q *req) {
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	a, err := s.newApp(body, q.now)
	if err != nil {
		answer(q.w, err)
		return
	}
	writeJSON(q.w, http.StatusOK, s.appCard(a, q))
}

// newApp validates a create body and starts the creation.
func (s *Stand) newApp(body map[string]any, now time.Time) (*App, error) {
	display := str(body["display-name"])
	if err := checkDisplayName(display); err != nil {
		return nil, err
	}
	src, _ := body["source"].(map[string]any)
	buildID, projectID := str(src["project-version-id"]), str(src["image-id"])
	if buildID == "" && projectID == "" {
		return nil, refuseInvalid("source.project-version-id or source.image-id must be set")
	}
	if buildID != "" && projectID != "" {
		return nil, refuseInvalid("only one of source.project-version-id and source.image-id may be set")
	}
	cantCreate := refuseMessage(http.StatusBadRequest, "Can't create application")
	var b *Build
	var p *Project
	if buildID != "" {
		b = s.st.buildByID[buildID]
		if b == nil || b.Deleted {
			return nil, cantCreate
		}
		p = s.st.projectByID[b.ProjectID]
	} else {
		p = s.st.projectByID[projectID]
		if p != nil {
			b = s.latestBuild(p.ID) // nil: an empty skeleton
		}
	}
	if p == nil || p.Deleted || p.Kind != kindApplication {
		return nil, cantCreate
	}
	ctx := str(body["publication-context"])
	if ctx == "" {
		ctx = display
	}
	if err := checkPublicationContext(ctx); err != nil {
		return nil, err
	}
	spaceID := str(body["space-id"])
	if spaceID == "" {
		spaceID = p.SpaceID
	} else if !isUUID(spaceID) {
		return nil, refuseInvalid("space-id %q is not a valid UUID", spaceID)
	} else if _, err := s.space(spaceID); err != nil {
		return nil, err
	}
	for _, other := range s.st.apps {
		if other.Status != statusDeleted && strings.EqualFold(other.PublicationContext, ctx) {
			return nil, refuseCode(http.StatusConflict, "ALREADY_EXISTS", "Application with publication context %q already exists", ctx)
		}
	}
	failure := ""
	if b != nil {
		arch, err := s.readBuild(b)
		if err != nil {
			return nil, cantCreate
		}
		if !arch.descriptor.present(keyDevLanguage...) {
			// No application is created: the server refuses without a cause.
			return nil, cantCreate
		}
		failure = s.compileFailure(arch, "Ошибка создания приложения")
	}
	devMode := true
	if v, ok := body["development-mode"].(bool); ok {
		devMode = v
	}
	tech := str(body["technology-version"])
	if tech == "" {
		tech = defaultTechnologyVersion
	}
	a := &App{
		ID: newID(), Name: strings.ReplaceAll(ctx, "/", "-"), DisplayName: display, PublicationContext: ctx,
		SpaceID: spaceID, ProjectID: p.ID, TechnologyVersion: tech, DevelopmentMode: devMode,
		Created: now, Updated: now, TokenAccess: map[string]bool{},
	}
	if b != nil {
		a.BuildID, a.CreatedFromBuildID = b.ID, b.ID
	}
	s.attachUserLists(a, now)
	s.st.addApp(a)
	s.startOp(a, opCreate, s.durations.Create, a.BuildID, failure, "CreateApplication", now)
	return a, nil
}

// attachUserLists gives a new application its own empty user list and
// connects the control-panel list.
func (s *Stand) attachUserLists(a *App, now time.Time) {
	own := &UserList{ID: newID(), Presentation: fmt.Sprintf("Список пользователей приложения %q", a.DisplayName), SpaceID: a.SpaceID, AppID: a.ID}
	s.st.addUserList(own)
	a.DefaultUserList = own.ID
	a.UserLists = nil
	for _, l := range s.st.userLists {
		if l.ControlPanel {
			a.UserLists = append(a.UserLists, l.ID)
		}
	}
	a.UserLists = append(a.UserLists, own.ID)
}

// --- start, stop, delete ---

func (s *Stand) startApp(q *req) { s.switchApp(q, opStart, statusRunning, s.durations.Start) }
func (s *Stand) stopApp(q *req)  { s.switchApp(q, opStop, statusStopped, s.durations.Stop) }

func (s *Stand) switchApp(q *req, kind, target string, d time.Duration) {
	a, err := s.idleApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if a.Status == statusUnknown {
		refuseInternal("Can't %s application %s", kind, a.ID).write(q.w)
		return
	}
	if a.Status != target {
		s.startOp(a, kind, d, "", "", "", q.now)
	}
	q.w.WriteHeader(http.StatusOK)
}

func (s *Stand) deleteApp(q *req) {
	a, err := s.idleApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if a.Drafts {
		refuseCode(http.StatusBadRequest, "FAILED_PRECONDITION", "The development environment of application %q has uncommitted changes", a.DisplayName).write(q.w)
		return
	}
	if a.Status == statusUnknown {
		// Deletion begins with a data export, which needs the database.
		refuseInternal("Can't delete application %s", a.ID).write(q.w)
		return
	}
	s.startOp(a, opDelete, s.durations.Delete, "", "", "DeleteApplication", q.now)
	q.w.WriteHeader(http.StatusOK)
}

// --- apply ---

func (s *Stand) applyBuild(q *req) {
	a, err := s.idleApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if a.Status == statusUnknown {
		refuseInternal("Can't update application %s", a.ID).write(q.w)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	b, err := s.applySource(body)
	if err != nil {
		answer(q.w, err)
		return
	}
	const prefix = "Ошибка обновления приложения"
	failure := ""
	descriptorEntry := ""
	switch {
	case b.Kind == kindExtension && (b.ManifestVersion == "" || b.ManifestVersion == "1.0"):
		failure = `Unknown project kind: "Extension"`
	case b.Kind == kindLibrary:
		failure = prefix + ": Contact administrator for details"
	default:
		arch, err := s.readBuild(b)
		switch {
		case err != nil || !arch.descriptor.present(keyDevLanguage...):
			failure = prefix + ": Contact administrator for details"
		default:
			failure = s.compileFailure(arch, prefix)
			descriptorEntry = arch.descriptorEntry
		}
	}
	if failure == "" && q.plan.applyFails {
		// A fault: the build fails to compile as a marked build does.
		failure = fmt.Sprintf("%s: %s [1:1]: <Сервер> Ошибка компиляции (правило отказа стенда %q)", prefix, descriptorEntry, q.plan.failRule)
	}
	takes := s.durations.Apply
	if q.plan.applyTakes > 0 {
		takes = q.plan.applyTakes
	}
	op := s.startOp(a, opApply, takes, b.ID, failure, "UpdateApplication", q.now)
	op.LeaveError = q.plan.applyLeavesError
	if b.Kind != kindExtension {
		a.ExportBuildID = b.ID
	}
	writeJSON(q.w, http.StatusOK, s.appCard(a, q))
}

// applySource resolves the build of a project/update body: image-id is a
// BUILD id there, or project-id with an optional assembly-version.
func (s *Stand) applySource(body map[string]any) (*Build, error) {
	src, _ := body["source"].(map[string]any)
	if id := str(src["image-id"]); id != "" {
		b := s.st.buildByID[id]
		if b == nil || b.Deleted {
			return nil, refuseMessage(http.StatusBadRequest, "Can't update application")
		}
		return b, nil
	}
	pid := str(src["project-id"])
	if pid == "" {
		return nil, refuseInvalid("source.image-id or source.project-id must be set")
	}
	p, err := s.liveProject(pid)
	if err != nil {
		return nil, err
	}
	if v := str(src["assembly-version"]); v != "" {
		if b := s.buildByVersion(p.ID, v); b != nil {
			return b, nil
		}
		return nil, refuseMessage(http.StatusNotFound, "Assembly with version %s not found", v)
	}
	if b := s.latestBuild(p.ID); b != nil {
		return b, nil
	}
	return nil, refuseMessage(http.StatusBadRequest, "Can't update application")
}

// --- debug ---

func (s *Stand) debugApp(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if !s.debugOn {
		refuseCode(http.StatusBadRequest, "FAILED_PRECONDITION", "Debugging is disabled on the server of application %q", a.DisplayName).write(q.w)
		return
	}
	host := q.baseURL
	if u, err := url.Parse(q.baseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	writeJSON(q.w, http.StatusOK, map[string]string{
		"debug-token":          randomHex(16),
		"debug-address":        "wss://" + host + "/debug/server",
		"client-debug-address": "wss://" + host + "/debug/client",
	})
}

// --- tasks ---

// taskJSON is a task as the console lists it: its start is dated, its end
// is not (spec §3.5). The stand's own record of the end is on its control
// endpoint (/stand/tasks), for tests and benchmarks.
type taskJSON struct {
	ID            string `json:"id"`
	ApplicationID string `json:"application-id"`
	Status        string `json:"status"`
	OperationType string `json:"operation-type"`
	ErrorMessage  string `json:"error-message"`
	StartDate     string `json:"start-date"`
}

func (s *Stand) listTasks(q *req) {
	out := make([]taskJSON, 0, len(s.st.tasks))
	for _, t := range s.st.tasks {
		out = append(out, taskCard(t))
	}
	s.writeList(q.w, out)
}

func taskCard(t *Task) taskJSON {
	return taskJSON{t.ID, t.AppID, t.Status, t.OperationType, t.ErrorMessage, isoTime(t.Start)}
}

// taskRecordJSON is a task with the end the stand recorded, which the
// console does not show.
type taskRecordJSON struct {
	taskJSON
	EndDate string `json:"end-date,omitempty"`
}

// taskRecords are the tasks with their ends, every operation due by now
// settled first (the clock read under the lock, as a request's is).
func (s *Stand) taskRecords() []taskRecordJSON {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(time.Now())
	s.saveIfDirty()
	out := make([]taskRecordJSON, 0, len(s.st.tasks))
	for _, t := range s.st.tasks {
		out = append(out, taskRecordJSON{taskCard(t), isoTime(t.End)})
	}
	return out
}

// --- export ---

func (s *Stand) exportApp(q *req) {
	a := s.st.appByID[q.param(0)]
	if a == nil || a.Status == statusDeleted {
		writeJSON(q.w, http.StatusNotFound, map[string]any{"error": map[string]string{"message": fmt.Sprintf("Application with id %s not found.", q.param(0))}})
		return
	}
	if ext := q.r.URL.Query().Get("extension-id"); q.v21 && ext != "" {
		s.writeExtensionExport(q, a, ext)
		return
	}
	id := a.ExportBuildID
	if id == "" {
		id = a.BuildID
	}
	b := s.st.buildByID[id]
	if b == nil {
		refuseInternal("Unable to export application %s", a.ID).write(q.w)
		return
	}
	data, err := s.exportArchive(b)
	if err != nil {
		refuseInternal("Unable to export application %s", a.ID).write(q.w)
		return
	}
	writeArchive(q.w, data)
}

// --- group tasks ---

type groupTaskJSON struct {
	ID                string   `json:"id"`
	Status            string   `json:"status"`
	TechnologyVersion string   `json:"technology-version"`
	Applications      []string `json:"applications"`
	DateCreated       string   `json:"date-created"`
}

func (s *Stand) groupTaskCard(g *GroupTask) groupTaskJSON {
	status := taskInProgress
	if g.Done {
		status = taskCompleted
	}
	return groupTaskJSON{g.ID, status, g.TechnologyVersion, append([]string{}, g.AppIDs...), isoTime(g.Created)}
}

func (s *Stand) createGroupTask(q *req) {
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	version := str(body["technology-version"])
	if version == "" {
		refuseInvalid("technology-version must not be empty").write(q.w)
		return
	}
	list, _ := body["applications"].([]any)
	if len(list) == 0 {
		refuseInvalid("applications must not be empty").write(q.w)
		return
	}
	g := &GroupTask{ID: newID(), TechnologyVersion: version, Created: q.now, Due: q.now.Add(s.scaled(s.durations.Apply))}
	for _, v := range list {
		id := str(v)
		if _, err := s.liveApp(id); err != nil {
			answer(q.w, err)
			return
		}
		g.AppIDs = append(g.AppIDs, id)
	}
	s.st.groupTasks = append(s.st.groupTasks, g)
	s.changed()
	writeJSON(q.w, http.StatusOK, s.groupTaskCard(g))
}

func (s *Stand) getGroupTask(q *req) {
	for _, g := range s.st.groupTasks {
		if g.ID == q.param(0) {
			writeJSON(q.w, http.StatusOK, s.groupTaskCard(g))
			return
		}
	}
	refuseMessage(http.StatusNotFound, "Task %q not found", q.param(0)).write(q.w)
}

func (s *Stand) finishGroupTask(g *GroupTask) {
	g.Done = true
	for _, id := range g.AppIDs {
		if a := s.st.appByID[id]; a != nil && a.Status != statusDeleted {
			a.TechnologyVersion = g.TechnologyVersion
			a.Updated = g.Due
		}
	}
	s.changed()
}

// --- dumps ---

type dumpJSON struct {
	ID                string `json:"id"`
	ApplicationID     string `json:"application-id"`
	Status            string `json:"status"`
	Description       string `json:"description"`
	IncludeUsers      bool   `json:"include-users"`
	IncludeBinaryData bool   `json:"include-binary-data"`
	DateCreated       string `json:"date-created"`
}

func dumpCard(d *Dump, now time.Time) dumpJSON {
	status := taskInProgress
	if !d.Due.After(now) {
		status = taskCompleted
	}
	return dumpJSON{d.ID, d.AppID, status, d.Description, d.IncludeUsers, d.IncludeBinaryData, isoTime(d.Created)}
}

func (s *Stand) createDump(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	flag := func(key string) bool {
		v, ok := body[key].(bool)
		return v || !ok
	}
	d := &Dump{ID: newID(), AppID: a.ID, Description: str(body["description"]), IncludeUsers: flag("include-users"),
		IncludeBinaryData: flag("include-binary-data"), Created: q.now, Due: q.now.Add(s.scaled(s.durations.Stop))}
	s.st.dumps = append(s.st.dumps, d)
	s.changed()
	writeJSON(q.w, http.StatusOK, dumpCard(d, q.now))
}

func (s *Stand) getDump(q *req) {
	if _, err := s.liveApp(q.param(0)); err != nil {
		answer(q.w, err)
		return
	}
	for _, d := range s.st.dumps {
		if d.ID == q.param(1) && d.AppID == q.param(0) {
			writeJSON(q.w, http.StatusOK, dumpCard(d, q.now))
			return
		}
	}
	refuseMessage(http.StatusNotFound, "Dump %q not found", q.param(1)).write(q.w)
}
