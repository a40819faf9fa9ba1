package deploy

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/assembly"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/schemaguard"
	"github.com/elemctl/elemctl/internal/platform"
)

// Values of the report's schema-check and schema-commit-source.
const (
	SchemaClean   = "clean"
	SchemaWarned  = "warned"
	SchemaAllowed = "allowed"
	SchemaSkipped = "skipped:" // followed by the reason

	CommitFromPlatform = "platform"
	CommitFromRegistry = "registry"
)

// Reasons of a skipped schema check (spec cli.md §3.4).
const (
	SkipNoProjectDir          = "no-project-dir"
	SkipNoAppliedBuild        = "no-applied-build"
	SkipNoAppliedExtension    = "no-applied-extension"
	SkipReadFailed            = "read-failed"
	SkipAppliedBuildNotListed = "applied-build-not-listed"
	SkipNoCommitID            = "no-commit-id"
	SkipCommitUnavailable     = "commit-unavailable"
)

// refusalListed is how many findings the refusal names; the rest are
// counted.
const refusalListed = 20

// schemaOutcome is what the guard found out, for the report.
type schemaOutcome struct {
	check    string // clean, warned, allowed or skipped:<reason>
	reason   string // the skip reason, "" when the check ran
	warnings []string
	removals int // removals the platform applies without asking
	commit   *string
	source   *string
	// builds is the project's build list when the guard read it: the
	// version count reuses it instead of reading it again.
	builds     []*jsonx.Object
	buildsRead bool
	// card is the application's card when the guard read it, before the
	// apply: the forecast of the apply's length reuses it.
	card *jsonx.Object
}

// skip ends the guard with a reason, telling it.
func (o *Ops) schemaSkip(ctx context.Context, out *schemaOutcome, reason string, detail string) *schemaOutcome {
	out.check, out.reason = SchemaSkipped+reason, reason
	key := "deploy.schema-skipped"
	if nothingToCompareYet(reason) {
		key = "deploy.schema-not-yet"
	}
	o.logf(ctx, key, "reason", reason, "detail", detail)
	return out
}

// nothingToCompareYet tells the skips of an application's first deploys
// – it runs no build of the project yet, or one whose commit nobody
// recorded – from those that need the user's attention: the check starts
// by itself once a deploy from a git repository has recorded its commit,
// so the report says it once, calmly, and not again after the verdict.
func nothingToCompareYet(reason string) bool {
	switch reason {
	case SkipNoAppliedBuild, SkipNoAppliedExtension, SkipNoCommitID:
		return true
	}
	return false
}

// schemaGuard compares the project's metadata with the commit of the build
// the application runs and refuses an apply that would destroy data
// (spec cli.md §3.2 step 3, §3.4). It runs before anything is built. Its
// own reads failing is a skip, never an error; the error is the refusal,
// an interruption, or a server that is not there.
//
// Choices where the reference is silent: a clean check prints no line; the
// refusal names the first 20 findings and counts the rest; removals are
// told as warnings before a refusal too; schema-warnings holds the allowed
// changes (with --allow-data-loss) and then the removals, while the line
// after a passed verification counts the removals only; a missing git is
// commit-unavailable; an unreadable descriptor is no-project-dir; an
// unreadable working tree is read-failed.
func (o *Ops) schemaGuard(ctx context.Context, opts DeployOptions, appID string, ahead *buildsAhead) (*schemaOutcome, error) {
	out := &schemaOutcome{warnings: []string{}}
	dir, err := assembly.FindProjectDir(ctx, opts.ProjectDir)
	if err != nil {
		return o.schemaSkip(ctx, out, SkipNoProjectDir, err.Error()), nil
	}
	desc, err := assembly.ReadDescriptor(ctx, dir)
	if err != nil {
		return o.schemaSkip(ctx, out, SkipNoProjectDir, err.Error()), nil
	}

	// The build the application runs: the card names it; an extension's
	// is the version of its row.
	extension := desc.Kind == assembly.KindExtension
	appliedID, appliedVersion := "", ""
	if extension {
		rows, err := o.extensionRows(ctx, appID)
		if err != nil {
			return o.schemaReadFailed(ctx, out, err)
		}
		row := matchExtensionRow(rows, opts.ProjectID, desc.Vendor, desc.Name)
		if row == nil || row.Str("assembly-version") == "" {
			return o.schemaSkip(ctx, out, SkipNoAppliedExtension,
				i18n.T(ctx, "deploy.schema-no-extension", "extension", desc.Vendor+"/"+desc.Name)), nil
		}
		appliedVersion = row.Str("assembly-version")
	} else {
		card, err := o.readCard(ctx, appID)
		if err != nil {
			return o.schemaReadFailed(ctx, out, err)
		}
		out.card = card
		appliedID = card.Obj("source").Str("project-version-id")
		if appliedID == "" {
			return o.schemaSkip(ctx, out, SkipNoAppliedBuild, i18n.T(ctx, "deploy.schema-no-build", "app", appID)), nil
		}
	}

	builds, err := o.builds(ctx, ahead, opts.ProjectID)
	if err != nil {
		return o.schemaReadFailed(ctx, out, err)
	}
	out.builds, out.buildsRead = builds, true
	build := buildlist.Find(builds, appliedID, appliedVersion)
	applied := firstNonEmpty(appliedID, appliedVersion)
	if build == nil {
		return o.schemaSkip(ctx, out, SkipAppliedBuildNotListed,
			i18n.T(ctx, "deploy.schema-not-listed", "build", applied, "project", opts.ProjectID)), nil
	}
	buildID := firstNonEmpty(buildlist.ID(build), appliedID)

	// Its commit: the card's, else the one this machine recorded.
	commit := strings.TrimSpace(build.Str("commit-id"))
	if commit != "" {
		out.commit, out.source = &commit, ptr(CommitFromPlatform)
	} else if o.Registry != nil && buildID != "" {
		if e, ok := o.Registry.ByAssembly()[buildID]; ok && strings.TrimSpace(e.Commit) != "" {
			commit = strings.TrimSpace(e.Commit)
			out.commit, out.source = &commit, ptr(CommitFromRegistry)
			o.logf(ctx, "deploy.schema-commit-registry", "commit", commit, "build", buildID)
			if e.Dirty != nil && *e.Dirty {
				o.logf(ctx, "deploy.schema-commit-dirty", "build", buildID)
			}
		}
	}
	if commit == "" {
		return o.schemaSkip(ctx, out, SkipNoCommitID, i18n.T(ctx, "deploy.schema-no-commit", "build", applied)), nil
	}

	old, err := schemaguard.ReadCommit(ctx, dir, commit)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return o.schemaSkip(ctx, out, SkipCommitUnavailable,
			i18n.T(ctx, "deploy.schema-commit-unavailable", "commit", commit, "error", err)), nil
	}
	cur, err := schemaguard.ReadDir(dir)
	if err != nil {
		return o.schemaSkip(ctx, out, SkipReadFailed, err.Error()), nil
	}
	res := schemaguard.Compare(old, cur)

	changes := schemaguard.Lines(ctx, res.Changes)
	removals := schemaguard.Lines(ctx, res.Removals)
	if len(changes) > 0 && !opts.AllowDataLoss {
		for _, l := range removals {
			o.logf(ctx, "deploy.schema-removal", "line", l)
		}
		return nil, platform.NewError(ctx, platform.KindGeneral, "deploy.schema-refused",
			"count", len(changes), "findings", listFindings(ctx, changes), "flag", o.argOr("allow-data-loss"))
	}
	switch {
	case len(changes) > 0:
		out.check = SchemaAllowed
		o.logf(ctx, "deploy.schema-allowed", "count", len(changes), "findings", listFindings(ctx, changes), "flag", o.argOr("allow-data-loss"))
	case len(removals) > 0:
		out.check = SchemaWarned
	default:
		out.check = SchemaClean
	}
	for _, l := range removals {
		o.logf(ctx, "deploy.schema-removal", "line", l)
	}
	out.warnings = append(append(out.warnings, changes...), removals...)
	out.removals = len(removals)
	return out, nil
}

// schemaReadFailed turns a failed platform read into the read-failed skip;
// an interruption and a server that is not there end the deploy.
func (o *Ops) schemaReadFailed(ctx context.Context, out *schemaOutcome, err error) (*schemaOutcome, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if serverAbsent(err) {
		return nil, err
	}
	return o.schemaSkip(ctx, out, SkipReadFailed, err.Error()), nil
}

// listFindings joins the findings of a refusal, the first ones named.
func listFindings(ctx context.Context, lines []string) string {
	if len(lines) <= refusalListed {
		return strings.Join(lines, "; ")
	}
	return strings.Join(lines[:refusalListed], "; ") + i18n.T(ctx, "deploy.schema-more", "count", len(lines)-refusalListed)
}

// fill puts the guard's outcome into the report.
func (s *schemaOutcome) fill(r *Report) {
	r.SchemaCheck = ptr(s.check)
	r.SchemaWarnings = append([]string{}, s.warnings...)
	r.SchemaCommit, r.SchemaCommitSource = s.commit, s.source
}
