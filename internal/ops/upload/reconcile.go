package upload

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/platform"
)

// An upload whose answer is lost (the connection broke, it timed out, a
// gateway turned it away) may have landed. It is never sent again – that
// could make a second build – but looked for:
//
//   - into a project: among the project's builds, the one that was not
//     there before the upload (the server numbers the build, so its version
//     may not be the archive's), with the commit sent when the card names
//     one; several new ones are told apart by the archive's version;
//   - without a project id: the build of the archive's version (the server
//     keeps it) created since the upload was sent (by the platform's clock:
//     the Date of its answer just before), in the projects the upload may
//     have gone to – one it created, or the one of the archive's Ид, which
//     the upload renamed after the archive's presentation (without the
//     project list of before, every project is searched).

// landing is an upload found by reading back.
type landing struct {
	build   *jsonx.Object
	project *jsonx.Object // without a project id: the project it is in
}

// findLanding looks for the build an unanswered upload made; nil when it
// did not land.
func findLanding(ctx context.Context, cl *platform.Client, opts Options, res *Result, before map[string]bool, snapshot map[string]string, sent time.Time, commit string) (*landing, error) {
	if opts.ProjectID != "" {
		builds, err := cl.ListBuilds(ctx, opts.ProjectID)
		if err != nil {
			return nil, err
		}
		b, err := newBuild(ctx, builds, before, res.ArchiveVersion, commit)
		if err != nil || b == nil {
			return nil, err
		}
		return &landing{build: b}, nil
	}
	if res.ArchiveVersion == "" {
		return nil, errors.New(i18n.T(ctx, "upload.no-version-to-find"))
	}
	// An upload lands in a new project or in the one of its Ид, which it
	// renames after the archive's presentation: when both are known, no
	// other project can hold it.
	only := snapshot != nil && res.Presentation != ""
	rank := func(p *jsonx.Object) int {
		_, known := snapshot[p.Str("id")]
		switch {
		case snapshot != nil && !known:
			return 0
		case res.Presentation != "" && projectName(p) == res.Presentation:
			return 1
		case only:
			return -1
		}
		return 2
	}
	made := func(builds []*jsonx.Object) *jsonx.Object {
		if b := buildlist.Find(builds, "", res.ArchiveVersion); b != nil && !createdBefore(b, sent) {
			return b
		}
		return nil
	}
	project, build, err := searchProjects(ctx, cl, rank, made)
	if err != nil || build == nil {
		return nil, err
	}
	return &landing{build: build, project: project}, nil
}

// newBuild is the build of a project's list that was not there before the
// upload (before nil: one of the archive's version), with the commit sent
// when the card names one. Several are told apart by the archive's
// version; still several is an error naming them.
func newBuild(ctx context.Context, builds []*jsonx.Object, before map[string]bool, archiveVersion, commit string) (*jsonx.Object, error) {
	var found []*jsonx.Object
	for _, b := range builds {
		id := buildlist.ID(b)
		switch {
		case before != nil && before[id]:
			continue
		case before == nil && buildlist.Version(b) != archiveVersion:
			continue
		case commit != "" && b.Str("commit-id") != "" && b.Str("commit-id") != commit:
			continue
		}
		found = append(found, b)
	}
	if len(found) > 1 {
		var same []*jsonx.Object
		for _, b := range found {
			if buildlist.Version(b) == archiveVersion {
				same = append(same, b)
			}
		}
		if len(same) > 0 {
			found = same
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	versions := make([]string, len(found))
	for i, b := range found {
		versions[i] = buildlist.Version(b)
	}
	return nil, errors.New(i18n.T(ctx, "upload.several-new", "versions", strings.Join(versions, ", ")))
}

// createdBefore tells a build the platform created before sent (its
// clock, whole seconds: a second's margin). A build whose date cannot be
// read, or no time to compare with, is not ruled out.
func createdBefore(b *jsonx.Object, sent time.Time) bool {
	if sent.IsZero() {
		return false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if at, err := time.Parse(layout, strings.TrimSpace(b.Str("created"))); err == nil {
			return at.Before(sent.Add(-time.Second))
		}
	}
	return false
}

// buildIDs are the ids of a build list, for telling a new build.
func buildIDs(builds []*jsonx.Object) map[string]bool {
	out := make(map[string]bool, len(builds))
	for _, b := range builds {
		out[buildlist.ID(b)] = true
	}
	return out
}
