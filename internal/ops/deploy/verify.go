package deploy

import (
	"context"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/platform"
)

// VerifyRequest says what an apply was meant to achieve.
type VerifyRequest struct {
	AppID string
	// Card is the card already read (after ensure_running); nil reads it.
	Card *jsonx.Object
	// ExpectedVersion is the built or expected version; ExpectedID the
	// uploaded build id; UploadedVersion the version the server gave it.
	ExpectedVersion, ExpectedID, UploadedVersion string
	// Since: failed tasks started before it are history, not evidence.
	Since time.Time
	// Kind, Vendor and Name of the build when known (deploy knows them from
	// the archive); an Extension kind is verified through its row.
	Kind, Vendor, Name string
	// ExtensionProjectID is the project of an extension build, when known.
	ExtensionProjectID string
	// ApplyUnanswered: the apply request got no answer, so whether it
	// reached the platform is what the verification finds out.
	ApplyUnanswered bool
}

// Verify checks that an application really runs the build it was given
// (spec cli.md §3.3): failed tasks since the start, the applied build id
// (else version) on the card or the extension row, the address answering,
// and a hint to the server log when the platform gave no located reason.
func (o *Ops) Verify(ctx context.Context, req VerifyRequest) (*Report, error) {
	r := &Report{AppID: req.AppID, Version: req.ExpectedVersion, Problems: []string{}, SchemaWarnings: []string{}}

	// The address is asked beside the reads below when the card is at
	// hand: over a network each is a round trip the verdict would
	// otherwise wait for in turn.
	var address *beside[*int]
	if req.Card != nil {
		address = o.checkAddress(ctx, req.Card)
	}
	defer func() { address.stop() }()

	var failedTexts []string
	// sinceTasks counts the application's tasks since the apply: none
	// means that an apply whose answer was lost never reached the
	// platform (it starts a task), rather than that it was rolled back.
	sinceTasks := -1
	tasks, err := o.appTasks(ctx, req.AppID)
	switch {
	case err != nil && isCanceled(ctx.Err()):
		return nil, ctx.Err()
	case err != nil:
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.tasks-unreadable", "error", err))
	default:
		o.refineApply(req.AppID, tasks)
		sinceTasks = len(tasksSince(tasks, req.Since))
		for _, t := range failedTasks(tasks, req.Since) {
			r.Problems = append(r.Problems, taskProblem(ctx, t))
			if text := t.Str("error-message"); text != "" {
				failedTexts = append(failedTexts, text)
			}
		}
	}

	card := req.Card
	if card == nil {
		if card, err = o.card(ctx, req.AppID); err != nil {
			return nil, err
		}
		address = o.checkAddress(ctx, card)
	}
	r.AppName = platform.AppName(card)
	r.URI = strings.TrimSpace(card.Str("uri"))
	r.Status = card.Str("status")
	src := card.Obj("source")
	cardVersion, cardID := src.Str("project-version"), src.Str("project-version-id")
	r.AppliedVersion, r.AppliedVersionID = nonEmpty(cardVersion), nonEmpty(cardID)

	ext := (*extensionBuild)(nil)
	if strings.EqualFold(req.Kind, assembly.KindExtension) {
		ext = &extensionBuild{ProjectID: req.ExtensionProjectID, Vendor: req.Vendor, Name: req.Name, Version: req.ExpectedVersion}
	} else if req.Kind == "" && req.ExpectedID != "" && cardID != req.ExpectedID {
		found, err := o.findExtensionBuild(ctx, req.ExpectedID)
		switch {
		case err != nil && isCanceled(ctx.Err()):
			return nil, ctx.Err()
		case err != nil:
			r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-lookup-failed", "id", req.ExpectedID, "error", err))
		case found != nil:
			ext = found
			if r.Version == "" {
				r.Version = found.Version
			}
		}
	}

	if ext != nil {
		if err := o.verifyExtension(ctx, req, ext, r); err != nil {
			return nil, err
		}
	} else {
		want := req.UploadedVersion
		if want == "" {
			want = req.ExpectedVersion
		}
		switch {
		case req.ExpectedID != "" && cardID != "" && cardID != req.ExpectedID && req.ApplyUnanswered && sinceTasks == 0:
			r.Applied = ptr(false)
			r.Problems = append(r.Problems, i18n.T(ctx, "deploy.apply-not-reached", "applied", cardID, "expected", req.ExpectedID))
			r.Hint = i18n.T(ctx, "deploy.apply-it", "command", o.hint(ctx, applyHint(req.AppID, req.ExpectedID)))
		case req.ExpectedID != "" && cardID != "":
			r.Applied = ptr(cardID == req.ExpectedID)
			if !*r.Applied {
				r.Problems = append(r.Problems, i18n.T(ctx, "deploy.rolled-back", "applied", cardID, "expected", req.ExpectedID))
			}
		case want != "" && cardVersion != "":
			r.Applied = ptr(cardVersion == want)
			if !*r.Applied {
				r.Problems = append(r.Problems, i18n.T(ctx, "deploy.version-mismatch", "applied", cardVersion, "expected", want))
			}
		}
	}

	r.URIStatus = address.wait()
	if len(failedTexts) > 0 && !platform.HasCompileLine(failedTexts) {
		r.Hint = i18n.T(ctx, "deploy.server-log-hint")
	}
	return r, nil
}

// verifyExtension judges an extension build by the application's
// extension row: the card keeps naming the application's own build.
func (o *Ops) verifyExtension(ctx context.Context, req VerifyRequest, ext *extensionBuild, r *Report) error {
	label := ext.Vendor + "/" + ext.Name
	if ext.Vendor == "" && ext.Name == "" {
		label = ext.ProjectID
	}
	rows, err := o.extensionRows(ctx, req.AppID)
	switch {
	case err != nil && isCanceled(ctx.Err()):
		return ctx.Err()
	case platform.IsUnknownMethod(err):
		r.Applied = nil
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-unverifiable", "extension", label, "error", err))
		return nil
	case err != nil:
		r.Applied = nil
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-unverifiable", "extension", label, "error", err))
		return nil
	}
	row := matchExtensionRow(rows, ext.ProjectID, ext.Vendor, ext.Name)
	if row == nil {
		r.Applied = ptr(false)
		r.AppliedVersion, r.AppliedVersionID = nil, nil
		r.ExtensionProjectID = nonEmpty(ext.ProjectID)
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-missing", "id", req.ExpectedID, "extension", label))
		return nil
	}
	projectID := row.Str("project-id")
	if projectID == "" {
		projectID = ext.ProjectID
	}
	running := row.Str("assembly-version")
	runningID := o.buildIDOfVersion(ctx, projectID, running)
	want := req.UploadedVersion
	if want == "" {
		want = ext.Version
	}
	var applied bool
	if req.ExpectedID != "" && runningID != "" {
		applied = runningID == req.ExpectedID
	} else {
		applied = running != "" && running == want
	}
	r.Applied = ptr(applied)
	r.AppliedVersion, r.AppliedVersionID = nonEmpty(running), nonEmpty(runningID)
	r.ExtensionProjectID = nonEmpty(projectID)
	r.Extension = row
	if !applied {
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-other-build", "extension", label,
			"running", statusWord(running), "expected", firstNonEmpty(want, req.ExpectedID)))
	} else if v, ok := row.Value("enabled").(bool); ok && !v {
		r.Problems = append(r.Problems, i18n.T(ctx, "deploy.extension-disabled", "extension", label))
	}
	return nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// uriTimeout bounds the informational check of the application's address.
const uriTimeout = 15 * time.Second

// checkAddress starts checking the address a card names (see checkURI).
func (o *Ops) checkAddress(ctx context.Context, card *jsonx.Object) *beside[*int] {
	uri := strings.TrimSpace(card.Str("uri"))
	return goBeside(ctx, func(ctx context.Context) *int { return o.checkURI(ctx, uri) })
}

// checkURI asks the application's own address (no credentials) and
// returns the status code; any failure is null. 401 and 403 are fine: the
// address answers.
func (o *Ops) checkURI(ctx context.Context, uri string) *int {
	if uri == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, uriTimeout)
	defer cancel()
	resp, err := o.Client.Outside().Get(ctx, uri, nil)
	if err != nil {
		return nil
	}
	return ptr(resp.Status)
}
