package deploy

import (
	"context"
	"errors"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
)

// Sources of the target ids in a report.
const (
	SourceFlag = "flag"
	SourceEnv  = "env"
)

// DeployOptions are the inputs of a deploy after the CLI front resolved
// them (spec cli.md §3.1).
type DeployOptions struct {
	// AppRef is the application id or exact name; AppIDSource is "flag" or
	// "env", ProjectIDSource likewise.
	AppRef, AppIDSource        string
	ProjectID, ProjectIDSource string
	ProjectDir, OutputDir      string
	// Version is --build-version; "" counts the next number on.
	Version string
	// Branch and Commit override git when not nil.
	Branch, Commit *string
	// AllowDataLoss lets an apply through that the schema guard finds
	// destroys data (a warning instead of the refusal).
	AllowDataLoss bool
}

// Deploy builds the project, uploads the build into the project, applies
// it, brings the application to Running and verifies that it really runs
// the build (spec cli.md §3.2). The report's OK is the verdict; an error
// means the cycle could not be carried out (or the application ended in
// status Error).
func (o *Ops) Deploy(ctx context.Context, opts DeployOptions) (*Report, error) {
	// A malformed project id is the first refusal: nothing is asked,
	// built or uploaded for it.
	if err := CheckProjectID(ctx, opts.ProjectID, opts.ProjectIDSource); err != nil {
		return nil, err
	}
	ahead := o.readBuildsAhead(ctx, opts.ProjectID)
	defer ahead.stop()
	var appID string
	if err := o.call(ctx, func(ctx context.Context) error {
		var e error
		appID, e = o.Client.ResolveApp(ctx, opts.AppRef)
		return e
	}); err != nil {
		return nil, err
	}
	started := o.now().UTC()
	o.logf(ctx, "deploy.target", "app", appID, "app_source", o.sourceWords(ctx, opts.AppIDSource, "app-id"),
		"project", opts.ProjectID, "project_source", o.sourceWords(ctx, opts.ProjectIDSource, "project-id"))

	schema, err := o.schemaGuard(ctx, opts, appID, ahead)
	if err != nil {
		return nil, err
	}

	dir, err := assembly.FindProjectDir(ctx, opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	desc, err := assembly.ReadDescriptor(ctx, dir)
	if err != nil {
		return nil, err
	}
	base := desc.Version
	lastBuild := ""
	var known []*jsonx.Object
	knownRead := false
	explicit := strings.TrimSpace(opts.Version) != ""
	if explicit {
		if !assembly.KeepsNumbering(strings.TrimSpace(opts.Version), base) {
			o.logf(ctx, "deploy.version-not-kept", "version", strings.TrimSpace(opts.Version), "base", base)
		}
		if schema != nil && schema.buildsRead {
			known, knownRead = schema.builds, true
		}
	} else {
		lastBuild, known, knownRead = o.lastBuild(ctx, opts.ProjectID, base, schema, ahead)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}

	out := opts.OutputDir
	if out == "" {
		var remove func() bool
		if out, remove, err = TempOutput(ctx, TempBuildPrefix, o.log); err != nil {
			return nil, err
		}
		defer remove()
	}
	res, err := assembly.Build(ctx, assembly.BuildOptions{ProjectDir: dir, OutputDir: out, Version: opts.Version,
		LastBuild: lastBuild, Branch: opts.Branch, Commit: opts.Commit, Getenv: o.Getenv})
	if err != nil {
		return nil, err
	}
	o.logf(ctx, "deploy.built", "file", res.File, "version", res.Version)
	o.log(assembly.DirtyWarning(ctx, res.DirtyFiles))
	o.log(assembly.SkippedWarning(ctx, res.SkippedFiles))
	o.log(assembly.SOAPWarning(ctx, res.SOAPClientsWithoutDescription))

	var up *upload.Result
	dirty := res.Dirty
	projectDir := res.ProjectDir
	if err := o.call(ctx, func(ctx context.Context) error {
		var e error
		up, e = upload.Upload(ctx, o.Client, upload.Options{File: res.File, ProjectID: opts.ProjectID, CommitID: res.Commit,
			Record: &upload.Record{Registry: o.Registry, Command: registry.CommandDeploy, AppID: appID, Branch: res.Branch,
				Commit: res.Commit, Dirty: dirty, ProjectDir: &projectDir, Elemctl: o.Version},
			Log: o.log, KnownBuilds: known, KnownBuildsRead: knownRead, Hint: o.Hint})
		return e
	}); err != nil {
		return nil, err
	}
	o.logf(ctx, "deploy.uploaded", "id", statusWord(up.AssemblyID))
	if up.ServerVersion != "" && up.ServerVersion != res.Version {
		if explicit {
			o.logf(ctx, "deploy.renumbered-warning", "version", res.Version, "server", up.ServerVersion)
		} else {
			o.logf(ctx, "deploy.renumbered-note", "version", res.Version, "server", up.ServerVersion)
		}
	}

	body := BuildSource(up.AssemblyID)
	if up.AssemblyID == "" {
		body = ProjectVersionSource(opts.ProjectID, firstNonEmpty(up.ServerVersion, res.Version))
	}
	buildLabel := firstNonEmpty(up.ServerVersion, res.Version)
	if up.AssemblyID != "" {
		buildLabel += " (" + up.AssemblyID + ")"
	}
	var guardCard *jsonx.Object
	if schema != nil {
		guardCard = schema.card
	}
	before := o.cardBeforeApply(ctx, appID, guardCard)
	a, err := o.startApply(ctx, appID, firstNonEmpty(up.AssemblyID, up.Version), buildLabel, body, started)
	if err != nil {
		return nil, err
	}
	if !a.unanswered {
		o.logf(ctx, "deploy.apply-started")
	}

	card, err := o.ensureRunning(ctx, applyTarget{appID: appID, projectID: opts.ProjectID, before: before}, started)
	if err != nil {
		var ae *platform.APIError
		if ctx.Err() == nil && card != nil && card.Str("status") == platform.StatusError && errors.As(err, &ae) && !platform.HasCompileLine([]string{ae.Message}) {
			ae.Hint = i18n.T(ctx, "deploy.server-log-hint")
			ae.Message += " – " + ae.Hint
		}
		return nil, o.stopped(ctx, err, card, appID, up.AssemblyID, a)
	}
	o.logf(ctx, "deploy.verifying")

	req := VerifyRequest{AppID: appID, Card: card, ExpectedVersion: res.Version, ExpectedID: up.AssemblyID,
		UploadedVersion: up.ServerVersion, Since: started, Kind: res.Kind, Vendor: res.Vendor, Name: res.Name,
		ApplyUnanswered: a.unanswered}
	if res.Kind == assembly.KindExtension {
		req.ExtensionProjectID = opts.ProjectID
	}
	r, err := o.Verify(ctx, req)
	if err != nil {
		return nil, o.stopped(ctx, err, nil, appID, up.AssemblyID, a)
	}

	r.AppIDSource, r.ProjectID, r.ProjectIDSource = opts.AppIDSource, opts.ProjectID, opts.ProjectIDSource
	r.AssemblyID = up.AssemblyID
	r.AssemblyVersion = nonEmpty(up.ServerVersion)
	if up.ServerVersion != "" {
		r.Renumbered = ptr(up.ServerVersion != res.Version)
	}
	r.Dirty = res.Dirty
	if res.Dirty != nil {
		r.DirtyFiles = append([]string{}, res.DirtyFiles...)
	}
	schema.fill(r)

	o.logOutcome(ctx, r, res.Kind == assembly.KindExtension, schema.reason, schema.removals)
	return r, nil
}

// lastBuild is the build to count the next number on from: the highest
// numbered build of the base in the project's list, or the registry's
// when this machine remembers a higher one (the platform's housekeeping
// may have removed the newest builds from the list). "" when neither
// knows one: the CI or default rule then numbers the build.
//
// The schema guard has read the list a moment before when it got that far;
// its copy is used then. Else the list read ahead is (see buildsAhead).
//
// The list read is returned too (read tells it was), so the upload can
// tell its build should its answer be lost.
func (o *Ops) lastBuild(ctx context.Context, projectID, base string, schema *schemaOutcome, ahead *buildsAhead) (last string, builds []*jsonx.Object, read bool) {
	best, bestCounter := "", -1
	var err error
	if schema != nil && schema.buildsRead {
		builds, read = schema.builds, true
	} else if builds, err = o.builds(ctx, ahead, projectID); err != nil {
		if ctx.Err() == nil {
			o.logf(ctx, "deploy.list-unreadable", "project", projectID, "error", err)
		}
	} else {
		read = true
	}
	for _, b := range builds {
		v := buildlist.Version(b)
		vb, counter, numbered := registry.SplitVersion(v)
		if numbered && vb == base && counter > bestCounter {
			best, bestCounter = v, counter
		}
	}
	if o.Registry != nil {
		if v, ok := o.Registry.MaxVersion(projectID, base); ok && buildlist.Counter(v) > bestCounter {
			o.logf(ctx, "deploy.counted-from-registry", "version", v)
			best = v
		}
	}
	return best, builds, read
}

// sourceWords tells where the target's part stored under key came from:
// the command line's flag, the parameter a tool or an editor command was
// given (named as that face spells it), or the environment.
func (o *Ops) sourceWords(ctx context.Context, source, key string) string {
	switch source {
	case SourceFlag:
		if given, ok := o.arg(key); ok && !strings.HasPrefix(given, "-") {
			return i18n.T(ctx, "deploy.source-parameter", "parameter", given)
		}
		return i18n.T(ctx, "deploy.source-flag")
	case SourceEnv:
		return i18n.T(ctx, "deploy.source-env")
	}
	return source
}

// logOutcome tells the verdict: the extension evidence first, then the
// passed line (with what the schema guard did not check, and how many
// removals it let through), or every problem, the hint and the failure
// line.
func (o *Ops) logOutcome(ctx context.Context, r *Report, extension bool, schemaReason string, removals int) {
	if extension {
		if r.Extension != nil {
			enabled := "true"
			if v, ok := r.Extension.Value("enabled").(bool); ok && !v {
				enabled = "false"
			}
			o.logf(ctx, "deploy.extension-evidence", "version", strOrDash(r.AppliedVersion), "enabled", enabled)
		} else {
			o.logf(ctx, "deploy.extension-evidence-none")
		}
	}
	verdict := Verdict(ctx, r)
	if !r.OK() {
		for _, line := range verdict {
			o.log(line)
		}
		return
	}
	o.log(verdict[0])
	if schemaReason != "" && !nothingToCompareYet(schemaReason) {
		o.logf(ctx, "deploy.schema-not-checked", "reason", schemaReason)
	}
	if removals > 0 {
		o.logf(ctx, "deploy.schema-removed", "count", removals)
	}
}

// Verdict are the lines that tell how a verification ended: that it
// passed, or every problem, the hint and that it failed.
func Verdict(ctx context.Context, r *Report) []string {
	if r.OK() {
		return []string{i18n.T(ctx, "deploy.passed")}
	}
	var out []string
	for _, p := range r.Problems {
		// The lines read as problems-lines has them: tabs expanded.
		lines := strings.Split(p, "\n")
		out = append(out, i18n.T(ctx, "deploy.problem", "text", problemLine(lines[0])))
		for _, l := range lines[1:] {
			if l = problemLine(l); strings.TrimSpace(l) != "" {
				out = append(out, "    "+l)
			}
		}
	}
	if r.Hint != "" {
		out = append(out, r.Hint)
	}
	return append(out, i18n.T(ctx, "deploy.failed"))
}

func strOrDash(p *string) string {
	if p == nil || *p == "" {
		return "–"
	}
	return *p
}
