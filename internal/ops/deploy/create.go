package deploy

import (
	"context"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
)

// CreateOptions are the inputs of apps create / apps ensure (spec cli.md §8).
type CreateOptions struct {
	Name string
	// ProjectID is the project; ProjectFromEnv tells that it came from
	// ELEMENT_PROJECT_ID rather than a flag (an env project yields to the
	// build's real owner, a flag is refused instead).
	ProjectID      string
	ProjectFromEnv bool
	VersionID      string
	LatestBuild    bool
	// NoSource is the refusal of a newest-build source without a project,
	// in the words of the caller (nil: --latest-build's own).
	NoSource     error
	SpaceID      string
	TechVersion  string
	DevMode      bool
	Wait, Verify bool
	NoVerify     bool
	// Apply (ensure only) applies the requested build to an existing
	// application that runs another one.
	Apply bool
}

func (c CreateOptions) verifyWanted() bool { return !c.NoVerify && (c.Verify || c.Wait) }

// Source is the build (or, as a last resort, the project) an application
// is created from.
type Source struct {
	BuildID   string // project-version-id
	ProjectID string // the whole project (image-id) when no build is named
	Version   string // the build's version when known
}

// Body is the source object of a create request.
func (s Source) Body() *jsonx.Object {
	if s.BuildID != "" {
		return jsonx.New("type", "repository", "project-version-id", s.BuildID)
	}
	return jsonx.New("type", "repository", "image-id", s.ProjectID)
}

// SelectSource picks what to create from (spec cli.md §8.1): the given
// build – checked against the project's build list, with the search for
// its real owner when the project does not list it – or the project's
// newest build (--latest-build), or the whole project.
func (o *Ops) SelectSource(ctx context.Context, opts CreateOptions) (Source, error) {
	project, version := opts.ProjectID, strings.TrimSpace(opts.VersionID)
	switch {
	case version != "" && project != "":
		return o.checkBuildSource(ctx, opts, project, version)
	case version != "":
		return Source{BuildID: version}, nil
	case opts.LatestBuild:
		if project == "" {
			if opts.NoSource != nil {
				return Source{}, opts.NoSource
			}
			return Source{}, platform.ConfigErrorf(ctx, "cli.source-latest-needs-project")
		}
		cards, err := o.listBuilds(ctx, project)
		if err != nil {
			return Source{}, err
		}
		if len(cards) == 0 {
			return Source{}, platform.ConfigErrorf(ctx, "cli.source-no-builds", "project", project, "version", o.argOr("version-id"))
		}
		buildlist.Sort(cards)
		return Source{BuildID: buildlist.ID(cards[0]), Version: buildlist.Version(cards[0])}, nil
	case project != "":
		o.logf(ctx, "cli.source-whole-project")
		return Source{ProjectID: project}, nil
	}
	return Source{}, platform.ConfigErrorf(ctx, "cli.source-missing")
}

// listsBuild tells whether a build list names ref by id or version.
func listsBuild(cards []*jsonx.Object, ref string) *jsonx.Object {
	for _, c := range cards {
		for _, k := range []string{"id", "image-id", "assembly-id", "assembly-version", "project-version"} {
			if c.Str(k) == ref {
				return c
			}
		}
	}
	return nil
}

func (o *Ops) checkBuildSource(ctx context.Context, opts CreateOptions, project, version string) (Source, error) {
	cards, err := o.listBuilds(ctx, project)
	if err != nil {
		return Source{}, err
	}
	if c := listsBuild(cards, version); c != nil {
		return Source{BuildID: buildlist.ID(c), Version: buildlist.Version(c)}, nil
	}
	owner, searched := o.findBuildOwner(ctx, version)
	if owner != nil {
		ownerID, ownerName := owner.Str("id"), owner.Str("name")
		if opts.ProjectFromEnv {
			o.logf(ctx, "cli.source-other-project-env", "build", version, "project", project, "name", ownerName, "owner", ownerID)
			return Source{BuildID: version}, nil
		}
		return Source{}, platform.ConfigErrorf(ctx, "cli.source-other-project-flag", "build", version, "project", project,
			"name", ownerName, "owner", ownerID, "flag", o.argOr("project-id"))
	}
	parts := []string{i18n.T(ctx, "cli.source-not-listed", "build", version, "project", project)}
	if app, id, ver := o.runningBuildOf(ctx, project); id != "" {
		parts = append(parts, i18n.T(ctx, "cli.source-offer-running", "app", app, "id", id, "version", ver,
			"arg", o.argOr("version-id"), "latest", o.latestBuildArg(ctx)))
	} else {
		parts = append(parts, i18n.T(ctx, "cli.source-offer-latest", "latest", o.latestBuildArg(ctx)))
	}
	switch {
	case searched:
		parts = append(parts, i18n.T(ctx, "cli.source-nowhere"))
	case opts.ProjectFromEnv:
		parts = append(parts, i18n.T(ctx, "cli.source-env-project", "flag", o.argOr("project-id")))
	}
	return Source{}, &platform.Error{Kind: platform.KindConfig, Message: strings.Join(parts, ". ")}
}

// findBuildOwner looks for the project that lists a build id, the project
// the registry remembers for it first (the upload operation's search).
// searched is false when the project list could not be read.
func (o *Ops) findBuildOwner(ctx context.Context, buildID string) (owner *jsonx.Object, searched bool) {
	var first []string
	if o.Registry != nil {
		if remembered, ok := o.Registry.Read().ProjectOf(buildID); ok {
			first = []string{remembered}
		}
	}
	p, err := upload.FindBuildProject(ctx, o.Client, buildID, first)
	if err != nil {
		return nil, false
	}
	return p, true
}

// runningBuildOf is a build some application of the project runs, a
// Running one preferred over a Stopped one.
func (o *Ops) runningBuildOf(ctx context.Context, project string) (app, id, version string) {
	// Tombstones, most of a long-lived stand's list, are not decoded.
	apps, err := o.Client.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool { return !platform.IsDeletedApp(a) })
	if err != nil {
		return "", "", ""
	}
	best := 0
	for _, a := range apps {
		pid := platform.AppProjectID(a)
		src := a.Obj("source")
		if pid != project || src.Str("project-version-id") == "" {
			continue
		}
		rank := 1
		if a.Str("status") == platform.StatusRunning {
			rank = 2
		}
		if rank > best {
			best, app, id, version = rank, platform.AppName(a), src.Str("project-version-id"), src.Str("project-version")
		}
	}
	return app, id, version
}

// Created is the outcome of a create: the answer (the create's card, or
// the card after the wait) with the verification and the broken wait.
type Created struct {
	Card   *jsonx.Object
	Verify *Report
	// WaitError is the wait or check that broke off (the application
	// exists all the same).
	WaitError error
}

// Create creates an application from the selected source and, as asked,
// waits for it to be ready and verifies it (spec cli.md §8.1–8.2). A wait
// that breaks off is not an error: Created.WaitError keeps it and the
// answer keeps the application id.
func (o *Ops) Create(ctx context.Context, opts CreateOptions, src Source) (*Created, error) {
	body := jsonx.New("source", src.Body(), "display-name", opts.Name, "publication-context", opts.Name,
		"development-mode", opts.DevMode)
	if opts.SpaceID != "" {
		body.Set("space-id", opts.SpaceID)
	}
	if opts.TechVersion != "" {
		body.Set("technology-version", opts.TechVersion)
	}
	before := o.now().UTC().Add(-time.Second)
	card, err := o.createApp(ctx, body, opts.Name)
	if err != nil {
		return nil, err
	}
	out := &Created{Card: card}
	verify := opts.verifyWanted()
	if !opts.Wait && !verify {
		return out, nil
	}
	id := card.Str("id")
	if id == "" {
		return out, nil
	}
	ready, err := o.waitCreated(ctx, id, firstNonEmpty(platform.AppProjectID(card), src.ProjectID), o.limits().Ready, before)
	if err == nil {
		out.Card = ready
		if verify {
			// The check is by the build id alone; the report's version
			// stays "" as the reference has it: a create names no version.
			out.Verify, err = o.Verify(ctx, VerifyRequest{AppID: id, Card: ready, ExpectedID: src.BuildID, Since: before})
		}
	}
	if err != nil {
		check := o.hint(ctx, verifyHint(id, src.BuildID))
		if ctx.Err() != nil && isCanceled(err) {
			err = interruptedWith(ctx, "deploy.interrupted", id, check)
		}
		out.WaitError = err
		o.logf(ctx, "cli.wait-broken", "app", id, "error", err)
		o.logf(ctx, "cli.wait-broken-next", "command", check)
	}
	return out, nil
}

// createApp sends a create request and returns the new card. The
// application's name is its publication context, which no two live
// applications share: an answer lost on the way is read back by it (see
// readback), and the application found is taken as the one created.
func (o *Ops) createApp(ctx context.Context, body *jsonx.Object, name string) (*jsonx.Object, error) {
	var found *jsonx.Object
	v, err := readback.Change{
		Settle: readback.SettleOf(o.Client),
		What:   i18n.T(ctx, "deploy.what-create", "name", name),
		Send:   func(ctx context.Context) (any, error) { return o.Client.Post(ctx, "/applications", body) },
		Check: func(ctx context.Context) (bool, error) {
			card, err := o.findCreated(ctx, name)
			found = card
			return card != nil, err
		},
		Look: o.hint(ctx, appHint(name)),
		Log:  o.log,
	}.Do(ctx)
	if err != nil {
		return nil, err
	}
	if found != nil {
		return found, nil
	}
	card, _ := v.(*jsonx.Object)
	if card == nil {
		card = &jsonx.Object{}
	}
	return card, nil
}

// findCreated finds the live application a create of name made: the one
// whose publication context is name (display names may repeat), else the
// only one of that name; nil when there is none.
func (o *Ops) findCreated(ctx context.Context, name string) (*jsonx.Object, error) {
	apps, err := o.Client.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool { return platform.AppNamed(a, name, false) })
	if err != nil {
		return nil, err
	}
	for _, a := range apps {
		if strings.EqualFold(a.Str("publication-context"), name) {
			return a, nil
		}
	}
	if len(apps) == 1 {
		return apps[0], nil
	}
	return nil, nil
}

// SignIn is the sign-in field of create/ensure; its hint and note are also
// logged, since a new application's own user list is empty.
func (o *Ops) SignIn(ctx context.Context, card *jsonx.Object) *jsonx.Object {
	uri := strings.TrimSpace(card.Str("uri"))
	var url any
	hint := i18n.T(ctx, "client.sign-in-hint-later")
	if uri != "" {
		url = uri
		hint = i18n.T(ctx, "client.sign-in-hint", "url", uri)
	}
	note := i18n.T(ctx, "client.sign-in-note")
	o.log(hint)
	o.log(note)
	return jsonx.New("url", url, "account", "control-panel", "hint", hint, "note", note)
}

// CreateAnswer is apps create's answer: the card with sign-in, the
// verification and the broken wait; failed tells exit 1.
func (o *Ops) CreateAnswer(ctx context.Context, c *Created) (answer *jsonx.Object, failed bool) {
	answer = c.Card.Clone()
	answer.Set("sign-in", o.SignIn(ctx, c.Card))
	return answer, c.setOutcome(answer)
}

// setOutcome adds the creation's verification and broken wait to answer;
// failed tells either went wrong.
func (c *Created) setOutcome(answer *jsonx.Object) (failed bool) {
	if c.Verify != nil {
		answer.Set("verify", c.Verify.JSON())
		failed = !c.Verify.OK()
	}
	if c.WaitError != nil {
		answer.Set("wait-error", platform.ErrorObject(c.WaitError))
		failed = true
	}
	return failed
}

// Ensure makes sure an application of the name exists (spec cli.md §8.5):
// an existing one is reported with the state of the requested build (and
// the build applied with Apply); an absent one is created.
func (o *Ops) Ensure(ctx context.Context, opts CreateOptions) (answer *jsonx.Object, failed bool, err error) {
	// Only the live applications of the name are decoded of the list.
	found, err := o.Client.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool { return platform.AppNamed(a, opts.Name, false) })
	if err != nil {
		return nil, false, err
	}
	if len(found) == 0 {
		src, err := o.SelectSource(ctx, opts)
		if err != nil {
			return nil, false, err
		}
		c, err := o.Create(ctx, opts, src)
		if err != nil {
			return nil, false, err
		}
		answer = jsonx.New("id", c.Card.Value("id"), "created", true)
		switch {
		case c.WaitError != nil:
			answer.Set("applied", nil)
		case c.Verify != nil:
			answer.Set("applied", c.Verify.OK())
		default:
			answer.Set("applied", true)
		}
		answer.Set("sign-in", o.SignIn(ctx, c.Card))
		return answer, c.setOutcome(answer), nil
	}

	id := found[0].Str("id")
	card, err := o.card(ctx, id)
	if err != nil {
		return nil, false, err
	}
	answer = jsonx.New("id", id, "created", false, "sign-in", o.SignIn(ctx, card))
	want := strings.TrimSpace(opts.VersionID)
	if want == "" {
		return answer, false, nil
	}
	state := o.buildState(ctx, id, card, want)
	if state.applied != nil && *state.applied {
		if state.extension != nil {
			o.logf(ctx, "cli.ensure.runs-extension", "build", want, "extension", state.label)
			if v, ok := state.extension.Value("enabled").(bool); ok && !v {
				o.logf(ctx, "cli.ensure.extension-disabled", "extension", state.label)
			}
		} else {
			o.logf(ctx, "cli.ensure.runs", "build", want)
		}
		state.fill(answer)
		if opts.Verify {
			before := o.now().UTC().Add(-time.Duration(DefaultSinceMinutes) * time.Minute)
			r, err := o.Verify(ctx, VerifyRequest{AppID: id, Card: card, ExpectedID: want, Since: before})
			if err != nil {
				return nil, false, err
			}
			answer.Set("applied", r.OK())
			answer.Set("verify", r.JSON())
			failed = !r.OK()
		}
		return answer, failed, nil
	}
	if opts.Apply {
		r, err := o.ApplyAndVerify(ctx, id, want)
		if err != nil {
			return nil, false, err
		}
		answer.Set("applied", r.OK())
		answer.Set("verify", r.JSON())
		return answer, !r.OK(), nil
	}
	switch {
	case state.unverifiable:
		o.logf(ctx, "cli.ensure.extension-unverifiable", "build", want, "error", state.err)
	case state.extension == nil && state.label != "":
		o.log(i18n.T(ctx, "cli.ensure.extension-missing", "build", want, "extension", state.label,
			"apply", o.hint(ctx, applyHint(id, want))) + o.ensureAgain(ctx))
	case state.extension != nil:
		o.log(i18n.T(ctx, "cli.ensure.extension-differs", "build", want, "extension", state.label,
			"running", strOrDash(state.runningVersion), "apply", o.hint(ctx, applyHint(id, want))) + o.ensureAgain(ctx))
	default:
		o.log(i18n.T(ctx, "cli.ensure.differs", "running", strOrDash(state.runningID), "build", want,
			"apply", o.hint(ctx, applyHint(id, want))) + o.ensureAgain(ctx))
	}
	state.fill(answer)
	return answer, false, nil
}

// ensureAgain is the tail of the line that offers ensure's own apply
// switch, when the caller's face has one; "" leaves the apply command
// alone.
func (o *Ops) ensureAgain(ctx context.Context) string {
	if flag, ok := o.arg("apply"); ok {
		return i18n.T(ctx, "cli.ensure.again", "flag", flag)
	}
	return ""
}

// latestBuildArg is how the caller asks for the project's newest build:
// --latest-build on the command line, an empty version_id for a tool that
// takes the newest build unless one is named.
func (o *Ops) latestBuildArg(ctx context.Context) string {
	if flag, ok := o.arg("latest-build"); ok {
		return flag
	}
	return i18n.T(ctx, "cli.source-latest-empty", "version", o.argOr("version-id"))
}

// DefaultSinceMinutes is how far back verify-deploy looks for failed
// tasks by default.
const DefaultSinceMinutes = 30

// buildState is what an existing application runs compared with the
// requested build.
type buildState struct {
	applied                   *bool
	runningID, runningVersion *string
	extension                 *jsonx.Object
	extensionProjectID        string
	label                     string
	unverifiable              bool
	err                       error
}

func (s *buildState) fill(answer *jsonx.Object) {
	answer.Set("applied", boolOrNil(s.applied))
	answer.Set("applied-version-id", strOrNil(s.runningID))
	if s.label != "" {
		answer.Set("extension-project-id", nonEmptyAny(s.extensionProjectID))
		var ext any
		if s.extension != nil {
			ext = s.extension
		}
		answer.Set("extension", ext)
	}
}

func nonEmptyAny(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// buildState compares the build an application runs with want: the card's
// build, or – when the card names another build and want is an extension
// build – the application's extension row.
func (o *Ops) buildState(ctx context.Context, appID string, card *jsonx.Object, want string) *buildState {
	src := card.Obj("source")
	s := &buildState{runningID: nonEmpty(src.Str("project-version-id")), runningVersion: nonEmpty(src.Str("project-version"))}
	if src.Str("project-version-id") == want {
		s.applied = ptr(true)
		return s
	}
	s.applied = ptr(false)
	ext, err := o.findExtensionBuild(ctx, want)
	if err != nil {
		o.logf(ctx, "cli.ensure.extension-lookup-failed", "build", want, "error", err)
		return s
	}
	if ext == nil {
		return s
	}
	s.label = ext.Vendor + "/" + ext.Name
	s.extensionProjectID = ext.ProjectID
	rows, err := o.extensionRows(ctx, appID)
	if err != nil {
		s.applied, s.unverifiable, s.err = nil, true, err
		return s
	}
	row := matchExtensionRow(rows, ext.ProjectID, ext.Vendor, ext.Name)
	if row == nil {
		s.runningID, s.runningVersion = nil, nil
		return s
	}
	s.extension = row
	if pid := row.Str("project-id"); pid != "" {
		s.extensionProjectID = pid
	}
	running := row.Str("assembly-version")
	runningID := o.buildIDOfVersion(ctx, s.extensionProjectID, running)
	s.runningVersion, s.runningID = nonEmpty(running), nonEmpty(runningID)
	s.applied = ptr(runningID == want || (runningID == "" && running != "" && running == ext.Version))
	return s
}
