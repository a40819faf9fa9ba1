package deploy

import (
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// Report is the verify/deploy report (spec cli.md §9). Every key is always
// present in its JSON; the deploy-only fields stay empty for apply and
// verify-deploy.
type Report struct {
	AppID, AppName, AppIDSource      string
	ProjectID, ProjectIDSource       string
	URI, Status                      string
	Version                          string // the built / expected version
	AssemblyID                       string
	AssemblyVersion                  *string // the server's version of the upload
	Renumbered                       *bool
	AppliedVersion, AppliedVersionID *string
	Applied                          *bool
	URIStatus                        *int
	Problems                         []string
	Dirty                            *bool
	DirtyFiles                       []string // nil renders null
	SchemaCheck                      *string
	SchemaWarnings                   []string
	SchemaCommit, SchemaCommitSource *string
	Hint                             string
	ExtensionProjectID               *string
	Extension                        *jsonx.Object
}

// OK is the verdict: no problems and the build not found rolled back.
func (r *Report) OK() bool {
	return len(r.Problems) == 0 && (r.Applied == nil || *r.Applied)
}

// ProblemLines splits the problems into lines, tabs expanded to four
// spaces, right-trimmed, empty lines dropped.
func ProblemLines(problems []string) []string {
	out := []string{}
	for _, p := range problems {
		for _, line := range strings.Split(p, "\n") {
			if line = problemLine(line); line != "" {
				out = append(out, line)
			}
		}
	}
	return out
}

// problemLine is one line of a problem as a person reads it: tabs
// expanded to four spaces, the right end trimmed.
func problemLine(line string) string {
	return strings.TrimRight(strings.ReplaceAll(line, "\t", "    "), " \r")
}

func strOrNil(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func boolOrNil(p *bool) any {
	if p == nil {
		return nil
	}
	return *p
}

func ptr[T any](v T) *T { return &v }

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func emptyIfNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// JSON renders the report with the keys in their documented order.
func (r *Report) JSON() *jsonx.Object {
	var uriStatus any
	if r.URIStatus != nil {
		uriStatus = *r.URIStatus
	}
	var dirtyFiles any
	if r.DirtyFiles != nil {
		dirtyFiles = r.DirtyFiles
	}
	var hint any
	if r.Hint != "" {
		hint = r.Hint
	}
	var ext any
	if r.Extension != nil {
		ext = r.Extension
	}
	return jsonx.New(
		"app-id", r.AppID,
		"app-name", r.AppName,
		"app-id-source", r.AppIDSource,
		"project-id", r.ProjectID,
		"project-id-source", r.ProjectIDSource,
		"uri", r.URI,
		"status", r.Status,
		"version", r.Version,
		"assembly-id", r.AssemblyID,
		"assembly-version", strOrNil(r.AssemblyVersion),
		"renumbered", boolOrNil(r.Renumbered),
		"applied-version", strOrNil(r.AppliedVersion),
		"applied-version-id", strOrNil(r.AppliedVersionID),
		"applied", boolOrNil(r.Applied),
		"uri-status", uriStatus,
		"problems", emptyIfNil(r.Problems),
		"problems-lines", ProblemLines(r.Problems),
		"ok", r.OK(),
		"dirty", boolOrNil(r.Dirty),
		"dirty-files", dirtyFiles,
		"schema-check", strOrNil(r.SchemaCheck),
		"schema-warnings", emptyIfNil(r.SchemaWarnings),
		"schema-commit", strOrNil(r.SchemaCommit),
		"schema-commit-source", strOrNil(r.SchemaCommitSource),
		"hint", hint,
		"extension-project-id", strOrNil(r.ExtensionProjectID),
		"extension", ext,
	)
}
