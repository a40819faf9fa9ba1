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
	// EnvFile is the --env-file the run was given, repeated in the cleanup
	// commands it prints.
	EnvFile string
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
	var cmd any
	if c.Command != "" {
		cmd = c.Command
	}
	return jsonx.New("kept", c.Kept, "app-deleted", boolOrNil(c.AppDeleted), "assembly-deleted", boolOrNil(c.AssemblyDeleted),
		"project-deleted", boolOrNil(c.ProjectDeleted), "problems", emptyIfNil(c.Problems), "command", cmd,
		"steps", emptyIfNil(c.Steps))
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
	Errors                         []CompileError
	Messages                       []string
	Cleanup                        ProbeCleanup
	CompatibilityRefused           string
	MessagesDropped                int
	Hint                           string
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
}

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
	dir, err := assembly.FindProjectDir(opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	desc, err := assembly.ReadDescriptor(dir)
	if err != nil {
		return nil, err
	}
	if err := assembly.ProbePrerequisites(desc); err != nil {
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
		tmp, remove, err := TempOutput(TempProbePrefix, o.log)
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
	o.logf("deploy.built", "file", res.File, "version", res.Version)

	r := &ProbeReport{ProjectDir: res.ProjectDir, Vendor: res.Vendor, Name: res.Name, File: res.File,
		Version: res.Version, AppName: name, Errors: []CompileError{}, Messages: []string{}}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	// From here on the platform may hold something of this run: the
	// upload and the create are let finish even when the caller stops, so
	// their ids are known and the cleanup can remove what they made.
	guarded := context.WithoutCancel(ctx)
	up, err := upload.Upload(guarded, o.Client, upload.Options{File: res.File, SpaceID: opts.SpaceID, CommitID: res.Commit, Log: o.log})
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
		return nil, platform.NewError(platform.KindGeneral, "probe.no-build-id")
	}
	o.logf("deploy.uploaded", "id", up.AssemblyID)
	if up.Project != nil {
		o.log(up.Project.Line())
	}

	runErr := o.probeCompile(ctx, guarded, opts, desc, res, r)
	cleanupCtx, cancel := context.WithTimeout(guarded, o.limits().Cleanup)
	defer cancel()
	if opts.Keep {
		o.keepProbe(r, opts.EnvFile)
	} else {
		o.cleanupProbe(cleanupCtx, r, opts.EnvFile)
	}
	if ctx.Err() != nil {
		key := "probe.interrupted-clean"
		args := []any{}
		if len(r.Cleanup.Problems) > 0 || opts.Keep {
			key = "probe.interrupted-left"
			args = []any{"command", firstNonEmpty(r.Cleanup.Command, strings.Join(r.Cleanup.Steps, " && "))}
		}
		return nil, &ProbeInterruptedError{Message: i18n.T(key, args...), Report: r, Err: ctx.Err()}
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
	o.logf("probe.creating", "name", r.AppName)
	before := o.now().UTC().Add(-time.Second)
	body := jsonx.New("source", jsonx.New("type", "repository", "project-version-id", r.AssemblyID),
		"display-name", r.AppName, "publication-context", r.AppName, "development-mode", false)
	if opts.SpaceID != "" {
		body.Set("space-id", opts.SpaceID)
	}
	answer, createErr := o.Client.Post(guarded, "/applications", body)
	if card, ok := answer.(*jsonx.Object); ok {
		r.AppID = card.Str("id")
	}
	o.writeProbeLine(r, res)
	var ae *platform.APIError
	if createErr != nil {
		if errors.As(createErr, &ae) {
			o.probeRefused(ctx, r, desc, ae, before)
			return nil
		}
		return createErr
	}
	if r.AppID == "" {
		return platform.NewError(platform.KindGeneral, "probe.no-app-id")
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	card, err := o.Wait(ctx, r.AppID, GoalReady, o.limits().Ready, before)
	if err == nil {
		r.OK = true
		r.Status = card.Str("status")
		o.logf("probe.passed")
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.As(err, &ae) {
		o.probeRefused(ctx, r, desc, ae, before)
		return nil
	}
	return err
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
				r.Messages = append(r.Messages, taskLine(t))
				taskRefusals = true
			}
		}
	}
	if len(r.Messages) == 0 {
		r.Messages = append(r.Messages, ae.Message)
	}
	if mode, lines, dropped, ok := CompatibilityRefusal(r.Messages); ok {
		r.CompatibilityRefused = mode
		r.Messages = lines
		r.MessagesDropped = dropped
		r.Errors = []CompileError{}
		o.logf("probe.compatibility-refused", "mode", mode, "file", desc.Path, "declared", statusWord(desc.Compatibility))
		return
	}
	r.Errors = ParseCompileErrors(r.Messages, r.Vendor+"/"+r.Name+"/")
	if (taskRefusals || r.Status == platform.StatusError) && len(r.Errors) == 0 {
		r.Hint = i18n.T("deploy.server-log-hint")
	}
	o.logf("probe.failed", "count", len(r.Messages))
	for _, e := range r.Errors {
		o.logf("probe.error-line", "file", e.File, "line", e.Line, "column", e.Column, "message", e.Message)
	}
}

// writeProbeLine records the probe's upload right after the create, with
// the application when the platform named one.
func (o *Ops) writeProbeLine(r *ProbeReport, res *assembly.BuildResult) {
	if o.Registry == nil {
		return
	}
	dir, file := res.ProjectDir, res.File
	e := registry.Entry{AssemblyID: r.AssemblyID, ProjectID: r.ProjectID, Version: r.Version, Branch: res.Branch,
		Commit: res.Commit, Dirty: res.Dirty, ProjectDir: &dir, File: &file, Stand: o.Client.Config().BaseURL,
		Command: registry.CommandProbe, UploadedAt: registry.Stamp(time.Now()), Elemctl: o.Version, AppID: r.AppID,
		Route: registry.RouteNoProjectID}
	o.log(o.Registry.Append(e))
}

// keepProbe leaves everything in place and says how to remove it.
func (o *Ops) keepProbe(r *ProbeReport, envFile string) {
	c := &r.Cleanup
	c.Kept = true
	c.Command, c.Steps = cleanupCommands(r, envFile, false, false)
	o.logf("probe.kept")
	if c.Command != "" {
		o.logf("probe.cleanup-command", "command", c.Command)
	}
	if len(c.Steps) > 0 {
		o.logf("probe.cleanup-steps", "steps", strings.Join(c.Steps, "\n  "))
	}
}

// cleanupProbe removes the run's application, then its build (only once
// the application is gone: the platform refuses to delete the build of a
// living application), then its project (only when the run created it and
// the build went). Every failure is a problem, never an error.
func (o *Ops) cleanupProbe(ctx context.Context, r *ProbeReport, envFile string) {
	c := &r.Cleanup
	// Until it is done, a forced stop would leave what the run made.
	command, steps := cleanupCommands(r, envFile, false, false)
	o.pending(i18n.T("probe.pending", "app", firstNonEmpty(r.AppID, "–"), "build", firstNonEmpty(r.Version, r.AssemblyID),
		"command", firstNonEmpty(command, strings.Join(steps, " && "))))
	defer o.pending("")
	problem := func(key string, args ...any) {
		p := i18n.T(key, args...)
		c.Problems = append(c.Problems, p)
		o.logf("probe.cleanup-problem", "text", p)
	}
	appGone := true
	if r.AppID != "" {
		appGone = false
		if err := o.deleteWhenFree(ctx, r.AppID); err != nil && !platform.IsAPIStatus(err, http.StatusNotFound) {
			problem("probe.cleanup-app-failed", "app", r.AppID, "error", err)
		} else {
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
	}
	buildGone := false
	switch {
	case !appGone:
		c.AssemblyDeleted = ptr(false)
		problem("probe.cleanup-build-left", "id", r.AssemblyID, "app", r.AppID)
	case r.ProjectID == "":
		c.AssemblyDeleted = ptr(false)
		problem("probe.cleanup-build-no-project", "id", r.AssemblyID)
	default:
		if err := o.DeleteBuild(ctx, r.ProjectID, r.AssemblyID); err != nil {
			c.AssemblyDeleted = ptr(false)
			problem("probe.cleanup-build-failed", "id", r.AssemblyID, "error", err)
		} else {
			buildGone = true
			c.AssemblyDeleted = ptr(true)
		}
	}
	if r.ProjectCreated != nil && *r.ProjectCreated {
		if !buildGone {
			c.ProjectDeleted = ptr(false)
		} else if _, err := o.Client.Delete(ctx, "/projects/"+url.PathEscape(r.ProjectID)); err != nil && !platform.IsAPIStatus(err, http.StatusNotFound) {
			c.ProjectDeleted = ptr(false)
			problem("probe.cleanup-project-failed", "project", r.ProjectID, "error", err)
		} else {
			c.ProjectDeleted = ptr(true)
		}
	} else {
		c.ProjectDeleted = ptr(false)
	}
	if len(c.Problems) > 0 {
		c.Command, c.Steps = cleanupCommands(r, envFile, appGone, buildGone)
		if c.Command != "" {
			o.logf("probe.cleanup-command", "command", c.Command)
		}
		if len(c.Steps) > 0 {
			o.logf("probe.cleanup-steps", "steps", strings.Join(c.Steps, "\n  "))
		}
	} else {
		o.logf("probe.cleaned")
	}
}

// cleanupCommands are the command that removes what a probe left and the
// same as single steps in their order, leaving out the steps already done.
func cleanupCommands(r *ProbeReport, envFile string, appGone, buildGone bool) (string, []string) {
	suffix := ""
	if envFile != "" {
		suffix = " --env-file " + shellQuote(envFile)
	}
	cmd := ""
	if r.AppID != "" {
		cmd = "elemctl probe --cleanup " + r.AppID + suffix
	}
	steps := []string{}
	if r.AppID != "" && !appGone {
		steps = append(steps, "elemctl apps delete "+r.AppID+suffix)
	}
	if r.AssemblyID != "" && r.ProjectID != "" && !buildGone {
		steps = append(steps, "elemctl builds delete "+shellQuote(r.Version)+" --project-id "+r.ProjectID+suffix)
	}
	if r.ProjectCreated != nil && *r.ProjectCreated && r.ProjectID != "" {
		steps = append(steps, "elemctl projects delete "+r.ProjectID+suffix)
	}
	return cmd, steps
}

// shellQuote wraps a value holding whitespace in double quotes.
func shellQuote(s string) string {
	if strings.ContainsAny(s, " \t") {
		return `"` + s + `"`
	}
	return s
}

// deleteWhenFree asks for an application's deletion; while the
// application is still busy (a create that has not finished yet, when a
// probe is interrupted mid-wait) the request is repeated for up to
// Limits.Busy.
func (o *Ops) deleteWhenFree(ctx context.Context, appID string) error {
	clock := o.clock()
	var start time.Time
	var backoff *Backoff
	for {
		err := o.DeleteApp(ctx, appID)
		if err == nil || !platform.IsBusy(err) {
			return err
		}
		now := clock.Now()
		if backoff == nil {
			start, backoff = now, o.policy().Start()
			o.logf("probe.cleanup-busy", "app", appID, "seconds", seconds(o.limits().Busy))
		}
		waited := now.Sub(start)
		if waited >= o.limits().Busy {
			return err
		}
		o.status(i18n.T("deploy.status-busy", "app", appID, "elapsed", seconds(waited)))
		if e := clock.Sleep(ctx, min(backoff.Next(), o.limits().Busy-waited)); e != nil {
			return err
		}
	}
}
