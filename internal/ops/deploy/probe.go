package deploy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
)

// ProbeNamePrefix starts the name of every throwaway application.
const ProbeNamePrefix = "elemctl-probe-"

// ProbeOptions are the inputs of a probe run.
type ProbeOptions struct {
	ProjectDir, OutputDir string
	Version, Name         string
	SpaceID               string
	Keep                  bool
}

// ProbeCleanup is the cleanup part of a probe report.
type ProbeCleanup struct {
	Kept                                        bool
	AppDeleted, AssemblyDeleted, ProjectDeleted *bool
	Problems                                    []string
	Command                                     string
	Steps                                       []string
}

// JSON renders the cleanup object.
func (c *ProbeCleanup) JSON() *jsonx.Object {
	var cmd, steps any
	if c.Command != "" {
		cmd = c.Command
	}
	// steps are null when nothing is left to do by hand: a cleanup that
	// went through, or one that never started.
	if c.Steps != nil {
		steps = c.Steps
	}
	return jsonx.New("kept", c.Kept, "app-deleted", boolOrNil(c.AppDeleted), "assembly-deleted", boolOrNil(c.AssemblyDeleted),
		"project-deleted", boolOrNil(c.ProjectDeleted), "problems", emptyIfNil(c.Problems), "command", cmd,
		"steps", steps)
}

// ProbeReport is the answer of a probe run (spec cli.md §4.6).
type ProbeReport struct {
	OK                             bool
	ProjectDir, Vendor, Name, File string
	Version                        string
	ProjectID                      string
	ProjectCreated                 *bool
	ProjectRenamedFrom             string
	AssemblyID, AppID, AppName     string
	Status                         string
	Errors                         []platform.CompileError
	Messages                       []string
	Cleanup                        ProbeCleanup
	CompatibilityRefused           string
	MessagesDropped                int
	Hint                           string

	// createSent: the create request went out, so an application of
	// AppName may exist even when AppID is unknown.
	createSent bool
}

// JSON renders the report with its keys in the documented order.
func (r *ProbeReport) JSON() *jsonx.Object {
	errs := make([]any, 0, len(r.Errors))
	for _, e := range r.Errors {
		errs = append(errs, e.JSON())
	}
	orNil := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	return jsonx.New(
		"ok", r.OK,
		"project-dir", r.ProjectDir,
		"vendor", r.Vendor,
		"name", r.Name,
		"file", r.File,
		"version", r.Version,
		"project-id", orNil(r.ProjectID),
		"project-created", boolOrNil(r.ProjectCreated),
		"project-renamed-from", orNil(r.ProjectRenamedFrom),
		"assembly-id", orNil(r.AssemblyID),
		"app-id", orNil(r.AppID),
		"app-name", r.AppName,
		"status", orNil(r.Status),
		"errors", errs,
		"messages", emptyIfNil(r.Messages),
		"cleanup", r.Cleanup.JSON(),
		"compatibility-refused", orNil(r.CompatibilityRefused),
		"messages-dropped", r.MessagesDropped,
		"hint", orNil(r.Hint),
	)
}

// probeToken is 8 hex digits with at least one letter, so the name and
// the version can never be read as a number.
func probeToken() string {
	for {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand does not fail on supported systems
		}
		tok := hex.EncodeToString(b[:])
		if strings.Trim(tok, "0123456789") != "" {
			return tok
		}
	}
}

// ProbeInterruptedError is a probe the caller stopped after the upload:
// the cleanup ran on a fresh context, and the message says what it did or
// the command that finishes it.
type ProbeInterruptedError struct {
	Message string
	Report  *ProbeReport
	Err     error
	// Hint is the command that removes what is left, "" when nothing is.
	Hint string
}

func (e *ProbeInterruptedError) ErrorHint() string { return e.Hint }

func (e *ProbeInterruptedError) Error() string { return e.Message }
func (e *ProbeInterruptedError) Unwrap() error { return e.Err }

// Probe compiles a project on the platform without touching any real
// application: it uploads the build without a project id, creates a
// throwaway application from it (creating is compiling), reports the
// errors located in the sources and removes everything it made (spec
// cli.md §4). Once the upload is sent, an interruption still cleans up:
// the cleanup runs on a fresh context bounded by Limits.Cleanup.
func (o *Ops) Probe(ctx context.Context, opts ProbeOptions) (*ProbeReport, error) {
	token := probeToken()
	dir, err := assembly.FindProjectDir(ctx, opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	desc, err := assembly.ReadDescriptor(ctx, dir)
	if err != nil {
		return nil, err
	}
	if err := assembly.ProbePrerequisites(ctx, desc); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(opts.Name)
	if name == "" {
		name = ProbeNamePrefix + token
	}
	version := strings.TrimSpace(opts.Version)
	if version == "" {
		version = desc.Version + "-probe-" + token
	}
	out := opts.OutputDir
	if out == "" {
		tmp, remove, err := TempOutput(ctx, TempProbePrefix, o.log)
		if err != nil {
			return nil, err
		}
		defer remove()
		out = tmp
	}
	res, err := assembly.Build(ctx, assembly.BuildOptions{ProjectDir: dir, OutputDir: out, Version: version, Getenv: o.Getenv})
	if err != nil {
		return nil, err
	}
	o.logf(ctx, "deploy.built", "file", res.File, "version", res.Version)

	r := &ProbeReport{ProjectDir: res.ProjectDir, Vendor: res.Vendor, Name: res.Name, File: res.File,
		Version: res.Version, AppName: name, Errors: []platform.CompileError{}, Messages: []string{}}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	// From here on the platform may hold something of this run: the
	// upload and the create are let finish even when the caller stops, so
	// their ids are known and the cleanup can remove what they made.
	guarded := context.WithoutCancel(ctx)
	o.pending(i18n.T(ctx, "probe.pending-upload", "build", res.Version))
	up, err := upload.Upload(guarded, o.Client, upload.Options{File: res.File, SpaceID: opts.SpaceID, CommitID: res.Commit,
		Log: o.log, Hint: o.Hint})
	o.pending("")
	if err != nil {
		return nil, err
	}
	r.AssemblyID, r.ProjectID = up.AssemblyID, up.ProjectID
	r.Version = up.Version
	if up.Project != nil {
		r.ProjectCreated = up.Project.Created
		if up.Project.RenamedFrom != nil {
			r.ProjectRenamedFrom = *up.Project.RenamedFrom
		}
	}
	if up.AssemblyID == "" {
		return nil, platform.NewError(ctx, platform.KindGeneral, "probe.no-build-id")
	}
	o.logf(ctx, "deploy.uploaded", "id", up.AssemblyID)
	if up.Project != nil {
		o.log(up.Project.Line(ctx))
	}

	runErr := o.probeCompile(ctx, guarded, opts, desc, res, r)
	cleanupCtx, cancel := context.WithTimeout(guarded, o.limits().Cleanup)
	defer cancel()
	if opts.Keep {
		o.keepProbe(cleanupCtx, r)
	} else {
		o.cleanupProbe(cleanupCtx, r)
	}
	if ctx.Err() != nil {
		key := "probe.interrupted-clean"
		args := []any{}
		command := ""
		if len(r.Cleanup.Problems) > 0 || opts.Keep {
			key = "probe.interrupted-left"
			command = firstNonEmpty(r.Cleanup.Command, strings.Join(r.Cleanup.Steps, " && "))
			args = []any{"command", command}
		}
		return nil, &ProbeInterruptedError{Message: i18n.T(ctx, key, args...), Report: r, Err: ctx.Err(), Hint: command}
	}
	if runErr != nil {
		return nil, runErr
	}
	return r, nil
}

// probeCompile creates the throwaway application and waits for it: the
// creation is the compilation. A platform refusal is the verdict, not an
// error; anything else is returned for the caller to raise after the
// cleanup.
func (o *Ops) probeCompile(ctx, guarded context.Context, opts ProbeOptions, desc *assembly.Descriptor, res *assembly.BuildResult, r *ProbeReport) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	o.logf(ctx, "probe.creating", "name", r.AppName)
	before := o.now().UTC().Add(-time.Second)
	body := jsonx.New("source", jsonx.New("type", "repository", "project-version-id", r.AssemblyID),
		"display-name", r.AppName, "publication-context", r.AppName, "development-mode", false)
	if opts.SpaceID != "" {
		body.Set("space-id", opts.SpaceID)
	}
	o.pending(i18n.T(ctx, "probe.pending-create", "name", r.AppName, "command", o.hint(ctx, probeCleanupHint(r.AppName))))
	answer, createErr := o.Client.Post(guarded, "/applications", body)
	o.pending("")
	r.createSent = true
	if card, ok := answer.(*jsonx.Object); ok {
		r.AppID = card.Str("id")
	}
	if readback.Uncertain(createErr) {
		// The answer was lost: the probe's name is its own, so the list
		// tells whether the platform created the application.
		o.logf(ctx, "probe.create-may-have-reached", "error", createErr)
		card, err := o.findCreated(guarded, r.AppName)
		switch {
		case err != nil:
			o.writeProbeLine(ctx, r, res)
			return readback.Unknown(ctx, i18n.T(ctx, "deploy.what-create", "name", r.AppName), createErr, err)
		case card == nil:
			o.writeProbeLine(ctx, r, res)
			return readback.NotDone(ctx, i18n.T(ctx, "deploy.what-create", "name", r.AppName), createErr)
		}
		r.AppID = card.Str("id")
		o.logf(ctx, "readback.made", "what", i18n.T(ctx, "deploy.what-create", "name", r.AppName))
		createErr = nil
	}
	o.writeProbeLine(ctx, r, res)
	var ae *platform.APIError
	if createErr != nil {
		if errors.As(createErr, &ae) {
			o.probeRefused(ctx, r, desc, ae, before)
			return nil
		}
		return createErr
	}
	if r.AppID == "" {
		return platform.NewError(ctx, platform.KindGeneral, "probe.no-app-id")
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	card, err := o.waitCreated(ctx, r.AppID, r.ProjectID, o.limits().Ready, before)
	if err == nil {
		r.OK = true
		r.Status = card.Str("status")
		o.logf(ctx, "probe.passed")
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.As(err, &ae) && compileRefusal(ae) {
		o.probeRefused(ctx, r, desc, ae, before)
		return nil
	}
	return err
}

// compileRefusal tells a wait that ended on the compilation's verdict –
// the application in status Error – from one the platform did not let
// finish (a gateway's 502, a wait that ran out): only the first is a
// failed compilation.
func compileRefusal(ae *platform.APIError) bool {
	card, ok := ae.Body.(*jsonx.Object)
	return ok && ae.Status == 0 && card.Str("status") == platform.StatusError
}

// probeRefused fills the verdict of a refused compilation: the status,
// the failed tasks' texts (or the error's), and either the
// compatibility-mode refusal or the located errors.
func (o *Ops) probeRefused(ctx context.Context, r *ProbeReport, desc *assembly.Descriptor, ae *platform.APIError, since time.Time) {
	if card, ok := ae.Body.(*jsonx.Object); ok {
		r.Status = card.Str("status")
	}
	taskRefusals := false
	if r.AppID != "" {
		if tasks, err := o.appTasks(ctx, r.AppID); err == nil {
			for _, t := range failedTasks(tasks, since) {
				r.Messages = append(r.Messages, taskLine(ctx, t))
				taskRefusals = true
			}
		}
	}
	if len(r.Messages) == 0 {
		r.Messages = append(r.Messages, ae.Message)
	}
	if mode, lines, dropped, ok := platform.CompatibilityRefusal(r.Messages); ok {
		r.CompatibilityRefused = mode
		r.Messages = lines
		r.MessagesDropped = dropped
		r.Errors = []platform.CompileError{}
		o.logf(ctx, "probe.compatibility-refused", "mode", mode, "file", desc.Path, "declared", statusWord(desc.Compatibility))
		return
	}
	r.Errors = platform.ParseCompileErrors(r.Messages, r.Vendor+"/"+r.Name+"/")
	if (taskRefusals || r.Status == platform.StatusError) && len(r.Errors) == 0 {
		r.Hint = i18n.T(ctx, "deploy.server-log-hint")
	}
	o.logf(ctx, "probe.failed", "count", len(r.Messages))
	for _, e := range r.Errors {
		o.logf(ctx, "probe.error-line", "file", e.File, "line", e.Line, "column", e.Column, "message", e.Message)
	}
}

// writeProbeLine records the probe's upload right after the create, with
// the application when the platform named one.
func (o *Ops) writeProbeLine(ctx context.Context, r *ProbeReport, res *assembly.BuildResult) {
	if o.Registry == nil {
		return
	}
	dir, file := res.ProjectDir, res.File
	e := registry.Entry{AssemblyID: r.AssemblyID, ProjectID: r.ProjectID, Version: r.Version, Branch: res.Branch,
		Commit: res.Commit, Dirty: res.Dirty, ProjectDir: &dir, File: &file, Stand: o.Client.Config().BaseURL,
		Command: registry.CommandProbe, UploadedAt: registry.Stamp(time.Now()), Elemctl: o.Version, AppID: r.AppID,
		Route: registry.RouteNoProjectID}
	o.log(o.Registry.Append(ctx, e))
}

// keepProbe leaves everything in place and says how to remove it.
func (o *Ops) keepProbe(ctx context.Context, r *ProbeReport) {
	c := &r.Cleanup
	c.Kept = true
	o.locateLeftovers(ctx, r)
	c.Command, c.Steps = o.cleanupCommands(ctx, r, false, false)
	o.logf(ctx, "probe.kept", "flag", o.argOr("keep"))
	o.logCleanupCommands(ctx, c)
}

// logCleanupCommands tells the commands that finish a cleanup: the one
// command, and the steps only when there are any.
func (o *Ops) logCleanupCommands(ctx context.Context, c *ProbeCleanup) {
	if c.Command != "" {
		o.logf(ctx, "probe.cleanup-command", "command", c.Command)
	}
	if len(c.Steps) > 0 {
		key := "probe.cleanup-steps"
		if c.Command == "" {
			key = "probe.cleanup-steps-only"
		}
		o.logf(ctx, key, "steps", strings.Join(c.Steps, "\n  "))
	}
}

// locateLeftovers completes what a run knows of what it made when an
// answer was lost: the application by the probe's name (its create went
// out), the project by the build's id.
func (o *Ops) locateLeftovers(ctx context.Context, r *ProbeReport) {
	if r.AppID == "" && r.createSent {
		if card, err := o.findCreated(ctx, r.AppName); err == nil && card != nil {
			r.AppID = card.Str("id")
		}
	}
	if r.ProjectID == "" && r.AssemblyID != "" {
		if p, err := upload.FindBuildProject(ctx, o.Client, r.AssemblyID, nil); err == nil && p != nil {
			r.ProjectID = p.Str("id")
		}
	}
}

// cleanupProbe removes the run's application, then its build (only once
// the application is gone: the platform refuses to delete the build of a
// living application), then its project (only when the run created it and
// the build went). Every failure is a problem, never an error.
func (o *Ops) cleanupProbe(ctx context.Context, r *ProbeReport) {
	c := &r.Cleanup
	// Until it is done, a forced stop would leave what the run made.
	command, steps := o.cleanupCommands(ctx, r, false, false)
	o.pending(i18n.T(ctx, "probe.pending", "app", firstNonEmpty(r.AppID, r.AppName), "build", firstNonEmpty(r.Version, r.AssemblyID),
		"command", firstNonEmpty(command, strings.Join(steps, " && "))))
	defer o.pending("")
	problem := func(key string, args ...any) {
		p := i18n.T(ctx, key, args...)
		c.Problems = append(c.Problems, p)
		o.logf(ctx, "probe.cleanup-problem", "text", p)
	}
	o.locateLeftovers(ctx, r)
	appGone := true
	var listed *buildsAhead
	defer func() { listed.stop() }()
	switch {
	case r.AppID != "":
		appGone = false
		if err := o.deleteWhenFree(ctx, r.AppID); err != nil && !platform.IsAPIStatus(err, http.StatusNotFound) {
			problem("probe.cleanup-app-failed", "app", r.AppID, "error", err)
		} else {
			// The list the build's card is found in does not change
			// while the application goes.
			if r.ProjectID != "" {
				listed = o.readBuildsAhead(ctx, r.ProjectID)
			}
			gone, err := o.WaitGone(ctx, r.AppID, o.limits().Delete)
			switch {
			case err != nil:
				problem("probe.cleanup-app-failed", "app", r.AppID, "error", err)
			case !gone:
				problem("probe.cleanup-app-timeout", "app", r.AppID, "seconds", seconds(o.limits().Delete))
			default:
				appGone = true
			}
		}
		c.AppDeleted = ptr(appGone)
	case r.createSent:
		// The create went out and the application could not be found:
		// the list could not be read, or it was never made.
		if _, err := o.findCreated(ctx, r.AppName); err != nil {
			appGone = false
			c.AppDeleted = ptr(false)
			problem("probe.cleanup-app-unknown", "name", r.AppName, "error", err)
		}
	}
	buildGone := false
	switch {
	case !appGone:
		c.AssemblyDeleted = ptr(false)
		problem("probe.cleanup-build-left", "id", r.AssemblyID, "app", firstNonEmpty(r.AppID, r.AppName))
	case r.ProjectID == "":
		c.AssemblyDeleted = ptr(false)
		problem("probe.cleanup-build-no-project", "id", r.AssemblyID)
	default:
		if err := o.deleteBuild(ctx, r.ProjectID, r.AssemblyID, listed); err != nil {
			c.AssemblyDeleted = ptr(false)
			problem("probe.cleanup-build-failed", "id", r.AssemblyID, "error", err)
		} else {
			buildGone = true
			c.AssemblyDeleted = ptr(true)
		}
	}
	// project-deleted stays null for a project this run did not create, or
	// could not try to delete while its build stays; false is a deletion
	// that failed.
	if r.ProjectCreated != nil && *r.ProjectCreated && buildGone {
		if err := o.deleteProject(ctx, r.ProjectID); err != nil {
			c.ProjectDeleted = ptr(false)
			problem("probe.cleanup-project-failed", "project", r.ProjectID, "error", err)
		} else {
			c.ProjectDeleted = ptr(true)
		}
	}
	if len(c.Problems) > 0 {
		c.Command, c.Steps = o.cleanupCommands(ctx, r, appGone, buildGone)
		o.logCleanupCommands(ctx, c)
	} else {
		o.logf(ctx, "probe.cleaned")
	}
}

// deleteBuild deletes the probe's build, found in the list read ahead
// (listed; nil reads it now). An answer lost on the way is read back in
// the project's build list: gone, it was deleted; still there, the
// deletion is asked once more (see deleteWhenFree).
func (o *Ops) deleteBuild(ctx context.Context, projectID, buildID string, listed *buildsAhead) error {
	change := readback.Change{
		Settle: readback.SettleOf(o.Client),
		What:   i18n.T(ctx, "probe.what-delete-build", "build", buildID),
		Send: func(ctx context.Context) (any, error) {
			return nil, o.deleteListedBuild(ctx, projectID, buildID, listed)
		},
		Check: func(ctx context.Context) (bool, error) {
			builds, err := o.listBuilds(ctx, projectID)
			if platform.IsAPIStatus(err, http.StatusNotFound) {
				return true, nil
			}
			return err == nil && buildlist.Find(builds, buildID, "") == nil, err
		},
		Log: o.log,
	}
	_, err := change.Do(ctx)
	if platform.IsNotDone(err) {
		_, err = change.Do(ctx)
	}
	return err
}

// deleteProject deletes a project the probe created; an answer lost on
// the way is read back (the project gone, or listed as deleted), and a
// deletion not made is asked once more (see deleteWhenFree).
func (o *Ops) deleteProject(ctx context.Context, projectID string) error {
	change := readback.Change{
		Settle: readback.SettleOf(o.Client),
		What:   i18n.T(ctx, "probe.what-delete-project", "project", projectID),
		Send: func(ctx context.Context) (any, error) {
			return o.Client.Delete(ctx, "/projects/"+url.PathEscape(projectID))
		},
		Check: func(ctx context.Context) (bool, error) {
			card, err := o.Client.GetObject(ctx, "/projects/"+url.PathEscape(projectID))
			if platform.IsAPIStatus(err, http.StatusNotFound) {
				return true, nil
			}
			return err == nil && platform.IsDeletedProject(card), err
		},
		Log: o.log,
	}
	_, err := change.Do(ctx)
	if platform.IsNotDone(err) {
		_, err = change.Do(ctx)
	}
	if platform.IsAPIStatus(err, http.StatusNotFound) {
		return nil
	}
	return err
}

// cleanupCommands are the command that removes what a probe left and the
// same as single steps in their order, leaving out the steps already done.
// The one command works from the application (by id, or by the probe's
// name when only the create's answer was lost); without an application
// only the steps remain.
func (o *Ops) cleanupCommands(ctx context.Context, r *ProbeReport, appGone, buildGone bool) (string, []string) {
	cmd := ""
	app := r.AppID
	if app == "" && r.createSent && !appGone {
		app = r.AppName
	}
	if app != "" {
		cmd = o.hint(ctx, probeCleanupHint(app))
	}
	steps := []string{}
	if app != "" && !appGone {
		steps = append(steps, o.hint(ctx, deleteAppHint(app)))
	}
	if r.AssemblyID != "" && r.ProjectID != "" && !buildGone {
		steps = append(steps, o.hint(ctx, deleteBuildHint(r.Version, r.ProjectID)))
	}
	if r.ProjectCreated != nil && *r.ProjectCreated && r.ProjectID != "" {
		steps = append(steps, o.hint(ctx, deleteProjectHint(r.ProjectID)))
	}
	return cmd, steps
}

// deleteWhenFree asks for an application's deletion; while the
// application is still busy (a create that has not finished yet, when a
// probe is interrupted mid-wait) the request is repeated for up to
// Limits.Busy. A deletion whose answer was lost and that reading back
// shows was not made is asked once more: a cleanup must not stop at one
// lost answer, and nothing can be deleted twice.
func (o *Ops) deleteWhenFree(ctx context.Context, appID string) error {
	clock := o.clock()
	var start time.Time
	var backoff *Backoff
	again := true
	for {
		err := o.deleteApp(ctx, appID)
		if platform.IsNotDone(err) && again {
			again = false
			continue
		}
		if err == nil || !platform.IsBusy(err) {
			return err
		}
		now := clock.Now()
		if backoff == nil {
			start, backoff = now, o.policy().Start()
			o.logf(ctx, "probe.cleanup-busy", "app", appID, "seconds", seconds(o.limits().Busy))
		}
		waited := now.Sub(start)
		if waited >= o.limits().Busy {
			return err
		}
		o.status(i18n.T(ctx, "deploy.status-busy", "app", appID, "elapsed", seconds(waited)))
		if e := clock.Sleep(ctx, min(backoff.Next(), o.limits().Busy-waited)); e != nil {
			return err
		}
	}
}
