package deploy

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/buildlist"
	"github.com/elemctl/elemctl/internal/platform"
)

// listBuilds reads a project's build list.
func (o *Ops) listBuilds(ctx context.Context, projectID string) ([]*jsonx.Object, error) {
	var out []*jsonx.Object
	err := o.call(ctx, func(ctx context.Context) error {
		var e error
		out, e = o.Client.ListBuilds(ctx, projectID)
		return e
	})
	return out, err
}

// listProjects reads every project, deleted ones and groups included.
func (o *Ops) listProjects(ctx context.Context) ([]*jsonx.Object, error) {
	var out []*jsonx.Object
	err := o.call(ctx, func(ctx context.Context) error {
		var e error
		out, e = o.Client.ListProjects(ctx)
		return e
	})
	return out, err
}

// extensionRows reads the extensions applied to an application (Console
// API 2.1). An older server answers with an "unknown method" error.
func (o *Ops) extensionRows(ctx context.Context, appID string) ([]*jsonx.Object, error) {
	var v any
	err := o.call(ctx, func(ctx context.Context) error {
		var e error
		v, e = o.Client.Call(ctx, platform.Request{Method: http.MethodGet, API: platform.API21,
			Path: "/applications/" + url.PathEscape(appID) + "/project", MayBeUnknown: true})
		return e
	})
	if err != nil {
		return nil, err
	}
	o2, _ := v.(*jsonx.Object)
	arr, _ := o2.Value("extension-projects").([]any)
	return jsonx.Objects(arr), nil
}

// matchExtensionRow finds the row of an extension project: by project id,
// else (the console may leave project-id empty) by vendor and name.
func matchExtensionRow(rows []*jsonx.Object, projectID, vendor, name string) *jsonx.Object {
	if projectID != "" {
		for _, r := range rows {
			if r.Str("project-id") == projectID {
				return r
			}
		}
	}
	if vendor != "" && name != "" {
		for _, r := range rows {
			if strings.EqualFold(r.Str("vendor-name"), vendor) && strings.EqualFold(r.Str("project-name"), name) {
				return r
			}
		}
	}
	return nil
}

// extensionBuild is a build found in an extension project.
type extensionBuild struct {
	ProjectID, Vendor, Name, Version string
}

// findExtensionBuild looks for a build id in the build lists of the
// stand's live extension projects.
func (o *Ops) findExtensionBuild(ctx context.Context, buildID string) (*extensionBuild, error) {
	projects, err := o.listProjects(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range projects {
		if !strings.EqualFold(p.Str("project-kind"), "Extension") || platform.IsDeletedProject(p) {
			continue
		}
		builds, err := o.listBuilds(ctx, p.Str("id"))
		if err != nil {
			return nil, err
		}
		if b := buildlist.Find(builds, buildID, ""); b != nil {
			eb := &extensionBuild{ProjectID: p.Str("id"), Version: buildlist.Version(b),
				Vendor: b.Str("project-developer"), Name: b.Str("project-name")}
			return eb, nil
		}
	}
	return nil, nil
}

// buildIDOfVersion maps a version to a build id through a project's list.
func (o *Ops) buildIDOfVersion(ctx context.Context, projectID, version string) string {
	if projectID == "" || version == "" {
		return ""
	}
	builds, err := o.listBuilds(ctx, projectID)
	if err != nil {
		return ""
	}
	if b := buildlist.Find(builds, "", version); b != nil {
		return buildlist.ID(b)
	}
	return ""
}
