package deploy

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// CleanupGuard names what a cleanup must never touch: the application (id
// or name) and the project the configuration works with.
type CleanupGuard struct {
	AppID, ProjectID string
}

// shownBuilds is how many remaining builds a kept project's reason lists.
const shownBuilds = 5

// CleanupLeftover removes what an earlier probe left on the platform (spec
// cli.md §4.5): the application, the probe's builds and, when nothing
// holds it any more, the project. It refuses an application that no probe
// left, and the configuration's own application. Failures along the way
// are problems of the report.
func (o *Ops) CleanupLeftover(ctx context.Context, ref string, guard CleanupGuard) (*jsonx.Object, error) {
	// Only the cards the reference names, by id or by name, are decoded.
	id := strings.TrimSpace(ref)
	apps, err := o.Client.ListAppsKeeping(ctx, func(a *jsonx.RawObject) bool {
		return string(a.StrBytes("id")) == id || platform.AppNamed(a, id, true)
	})
	if err != nil {
		return nil, err
	}
	card, err := pickLeftover(ctx, apps, ref)
	if err != nil {
		return nil, err
	}
	appID, appName := card.Str("id"), platform.AppName(card)
	if guard.AppID != "" && (appID == guard.AppID || len(platform.MatchAppName([]*jsonx.Object{card}, guard.AppID, true)) > 0) {
		return nil, platform.ConfigErrorf(ctx, "probe.cleanup-refused-config-app", "app", appID)
	}
	src := card.Obj("source")
	appliedID, appliedVersion := src.Str("project-version-id"), src.Str("project-version")
	entries := registry.Entries(nil)
	if o.Registry != nil {
		entries = o.Registry.Read()
	}
	namedProbe := hasProbeName(card)
	if !namedProbe && !strings.Contains(appliedVersion, "-probe-") && !entries.RecognizesProbe(appID, appliedID) {
		return nil, platform.ConfigErrorf(ctx, "probe.cleanup-refused-not-probe", "app", appID, "name", appName)
	}

	problems := []string{}
	problem := func(key string, args ...any) {
		p := i18n.T(ctx, key, args...)
		problems = append(problems, p)
		o.logf(ctx, "probe.cleanup-problem", "text", p)
	}
	projectID := platform.AppProjectID(card)
	// report tells what the cleanup did: builds lists the builds it removed
	// or tried to (one already gone is not claimed); project-deleted is
	// true once the project is gone (now or before), false when deleting
	// it failed, and null when it was kept on purpose (project-kept says
	// why) or never tried.
	report := func(appDeleted bool, builds []any, projectDeleted, kept any) *jsonx.Object {
		var project any
		if projectID != "" {
			project = projectID
		}
		return jsonx.New("ok", len(problems) == 0, "app-id", appID, "app-name", appName, "project-id", project,
			"app-deleted", appDeleted, "builds", builds, "project-deleted", projectDeleted, "project-kept", kept,
			"problems", problems)
	}

	if platform.IsDeletedApp(card) {
		o.logf(ctx, "probe.cleanup-app-already", "app", appID)
	} else {
		o.logf(ctx, "probe.cleanup-app", "app", appID, "name", appName)
		if err := o.deleteWhenFree(ctx, appID); err != nil && !platform.IsAPIStatus(err, http.StatusNotFound) {
			problem("probe.cleanup-app-failed", "app", appID, "error", err)
			return report(false, []any{}, nil, nil), nil
		}
		gone, err := o.WaitGone(ctx, appID, o.limits().Delete)
		if err != nil || !gone {
			if err != nil {
				problem("probe.cleanup-app-failed", "app", appID, "error", err)
			} else {
				problem("probe.cleanup-app-timeout", "app", appID, "seconds", seconds(o.limits().Delete))
			}
			return report(false, []any{}, nil, nil), nil
		}
	}
	if projectID == "" {
		problem("probe.cleanup-no-project", "app", appID)
		return report(true, []any{}, nil, nil), nil
	}

	cards, err := o.listBuilds(ctx, projectID)
	projectGone := platform.IsAPIStatus(err, http.StatusNotFound)
	if err != nil && !projectGone {
		problem("probe.cleanup-list-failed", "project", projectID, "error", err)
		return report(true, []any{}, nil, nil), nil
	}
	targets := o.leftoverBuilds(card, cards, entries)
	liveRunners := map[string]string{}
	for _, a := range apps {
		if a.Str("id") == appID || platform.IsDeletedApp(a) {
			continue
		}
		if id := a.Obj("source").Str("project-version-id"); id != "" {
			liveRunners[id] = platform.AppName(a)
		}
	}
	builds := []any{}
	for _, b := range targets {
		item := jsonx.New("id", b.id, "version", b.version, "deleted", false)
		if runner, ok := liveRunners[b.id]; ok {
			item.Set("kept", runner)
			builds = append(builds, item)
			continue
		}
		if !b.listed {
			// Housekeeping or an earlier cleanup removed it already:
			// nothing to do, nothing to claim.
			continue
		}
		if err := o.deleteBuildCard(ctx, projectID, firstNonEmpty(b.version, b.id)); err != nil {
			item.Set("error", err.Error())
			problem("probe.cleanup-build-failed", "id", firstNonEmpty(b.id, b.version), "error", err)
		} else {
			item.Set("deleted", true)
			o.logf(ctx, "probe.cleanup-build", "version", b.version)
		}
		builds = append(builds, item)
	}

	if projectGone {
		// An earlier cleanup removed it: the project is gone.
		o.logf(ctx, "probe.cleanup-project-already", "project", projectID)
		return report(true, builds, true, nil), nil
	}
	projects, err := o.listProjects(ctx)
	if err != nil {
		problem("probe.cleanup-list-failed", "project", projectID, "error", err)
		return report(true, builds, false, nil), nil
	}
	for _, p := range projects {
		if p.Str("id") == projectID && platform.IsDeletedProject(p) {
			o.logf(ctx, "probe.cleanup-project-already", "project", projectID)
			return report(true, builds, true, nil), nil
		}
	}
	if kept := o.projectKeptReason(ctx, projectID, guard, apps, appID); kept != "" {
		o.logf(ctx, "probe.cleanup-project-kept", "project", projectID, "reason", kept)
		return report(true, builds, nil, kept), nil
	}
	if _, err := o.Client.Delete(ctx, "/projects/"+url.PathEscape(projectID)); err != nil && !platform.IsAPIStatus(err, http.StatusNotFound) {
		problem("probe.cleanup-project-failed", "project", projectID, "error", err)
		return report(true, builds, false, nil), nil
	}
	o.logf(ctx, "probe.cleanup-project", "project", projectID)
	return report(true, builds, true, nil), nil
}

// pickLeftover finds the application a cleanup names among every card,
// tombstones included: an exact id, else an exact name (a live one
// preferred over tombstones of the same name).
func pickLeftover(ctx context.Context, apps []*jsonx.Object, ref string) (*jsonx.Object, error) {
	ref = strings.TrimSpace(ref)
	for _, a := range apps {
		if a.Str("id") == ref {
			return a, nil
		}
	}
	found := platform.MatchAppName(apps, ref, true)
	var live []*jsonx.Object
	for _, a := range found {
		if !platform.IsDeletedApp(a) {
			live = append(live, a)
		}
	}
	if len(live) > 0 {
		found = live
	}
	switch len(found) {
	case 0:
		return nil, platform.ConfigErrorf(ctx, "client.app-not-found", "ref", ref)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, a := range found {
		ids[i] = a.Str("id")
	}
	return nil, platform.ConfigErrorf(ctx, "client.app-ambiguous", "ref", ref, "ids", strings.Join(ids, ", "))
}

func hasProbeName(card *jsonx.Object) bool {
	for _, k := range []string{"name", "display-name", "publication-context"} {
		if strings.HasPrefix(card.Str(k), ProbeNamePrefix) {
			return true
		}
	}
	return false
}

// probeTokenOf is the token of a probe application: from its name, else
// from its applied version.
func probeTokenOf(card *jsonx.Object) string {
	for _, k := range []string{"name", "display-name", "publication-context"} {
		if tok, ok := strings.CutPrefix(card.Str(k), ProbeNamePrefix); ok && tok != "" {
			return tok
		}
	}
	v := card.Obj("source").Str("project-version")
	if i := strings.LastIndex(v, "-probe-"); i >= 0 {
		return v[i+len("-probe-"):]
	}
	return ""
}

type leftoverBuild struct {
	id, version string
	listed      bool
}

// leftoverBuilds are the builds a probe cleanup removes: the probe builds
// of the application's token, the applied build when it is a probe build
// (by its version, or by an older probe line of the registry that names
// the build only), and every build the registry remembers uploading for
// the application.
func (o *Ops) leftoverBuilds(card *jsonx.Object, cards []*jsonx.Object, entries registry.Entries) []leftoverBuild {
	var out []leftoverBuild
	seen := map[string]bool{}
	add := func(id, version string) {
		key := id
		if key == "" {
			key = "v:" + version
		}
		if seen[key] {
			return
		}
		c := buildlist.Find(cards, id, version)
		listed := c != nil
		if listed {
			id, version = buildlist.ID(c), buildlist.Version(c)
		}
		seen[key] = true
		out = append(out, leftoverBuild{id: id, version: version, listed: listed})
	}
	if tok := probeTokenOf(card); tok != "" {
		for _, c := range cards {
			if strings.Contains(buildlist.Version(c), "-probe-"+tok) {
				add(buildlist.ID(c), buildlist.Version(c))
			}
		}
	}
	src := card.Obj("source")
	if v := src.Str("project-version"); strings.Contains(v, "-probe-") {
		add(src.Str("project-version-id"), v)
	}
	// An older probe line names no application but the build it
	// uploaded: the application runs it, so it goes too.
	if applied := src.Str("project-version-id"); applied != "" {
		for _, e := range entries {
			if e.Command == registry.CommandProbe && e.AppID == "" && e.AssemblyID == applied {
				add(e.AssemblyID, e.Version)
			}
		}
	}
	for _, e := range entries.ForApp(card.Str("id")) {
		add(e.AssemblyID, e.Version)
	}
	return out
}

// projectKeptReason says why a probe's project stays: it is the
// configuration's project, it still has builds, or a live application
// runs it. "" lets it go.
func (o *Ops) projectKeptReason(ctx context.Context, projectID string, guard CleanupGuard, apps []*jsonx.Object, appID string) string {
	if guard.ProjectID != "" && projectID == guard.ProjectID {
		return i18n.T(ctx, "probe.project-kept-config", "project", projectID)
	}
	if cards, err := o.listBuilds(ctx, projectID); err == nil && len(cards) > 0 {
		var versions []string
		for _, c := range cards {
			if len(versions) == shownBuilds {
				break
			}
			versions = append(versions, buildlist.Version(c))
		}
		list := strings.Join(versions, ", ")
		if len(cards) > shownBuilds {
			list += i18n.T(ctx, "build.and-more", "count", len(cards)-shownBuilds)
		}
		return i18n.T(ctx, "probe.project-kept-builds", "count", len(cards), "builds", list)
	}
	for _, a := range apps {
		if a.Str("id") == appID || platform.IsDeletedApp(a) {
			continue
		}
		if platform.AppProjectID(a) == projectID {
			return i18n.T(ctx, "probe.project-kept-app", "app", platform.AppName(a))
		}
	}
	return ""
}
