package upload

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/platform"
)

// landedProject works out the project an upload without a project id went
// to: from the answer's artifact when it names one, else by searching the
// build lists for the new build.
func landedProject(ctx context.Context, cl *platform.Client, answer *jsonx.Object, res *Result, snapshot map[string]string, opts Options) *Landed {
	l := &Landed{DescriptorFile: res.DescriptorFile, IDKey: res.IDKey}
	art := answer.Obj("artifact")
	l.ID = firstString(art, "artifact-id", "project-id", "id")
	if l.ID == "" {
		l.ID = firstString(answer, "project-id", "artifact-id")
	}
	if l.ID != "" {
		l.FoundBy = "response"
		l.Name = art.Str("name")
		l.ConfigurationID = art.Str("configuration-id")
	} else if res.AssemblyID != "" {
		var first []string
		if opts.Record != nil {
			first = rememberedProjects(opts.Record.Registry, res.File)
		}
		if p, err := FindBuildProject(ctx, cl, res.AssemblyID, first); err == nil && p != nil {
			l.ID = p.Str("id")
			l.Name = projectName(p)
			l.FoundBy = "build-list"
		}
	}
	if l.ConfigurationID == "" {
		l.ConfigurationID = res.ConfigurationID
	}
	if l.ID == "" || snapshot == nil {
		return l
	}
	former, known := snapshot[l.ID]
	if l.Name == "" {
		l.Name = former
	}
	created := !known
	l.Created = &created
	if known && l.Name != "" && former != "" && former != l.Name {
		l.RenamedFrom = &former
	}
	return l
}

// rememberedProjects are the projects earlier uploads of the same archive
// file went to, newest first: the likeliest owners of a new upload of it.
func rememberedProjects(reg *registry.Registry, file string) []string {
	if reg == nil || file == "" {
		return nil
	}
	entries := reg.Read()
	var out []string
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.File != nil && *e.File == file && e.ProjectID != "" && !slices.Contains(out, e.ProjectID) {
			out = append(out, e.ProjectID)
		}
	}
	return out
}

// FindBuildProject finds the project whose build list holds buildID. No
// API call finds a build by id, so the lists are searched: the projects in
// first (e.g. the one the registry remembers) before the others, then
// newest date-created first; deleted projects and group entries are
// skipped, and a list that cannot be read is passed over. It returns the
// project's card from the project list, or nil when no list holds the
// build.
func FindBuildProject(ctx context.Context, cl *platform.Client, buildID string, first []string) (*jsonx.Object, error) {
	rank := func(p *jsonx.Object) int {
		if i := slices.Index(first, p.Str("id")); i >= 0 {
			return i
		}
		return len(first)
	}
	holds := func(builds []*jsonx.Object) *jsonx.Object {
		for _, b := range builds {
			for _, k := range []string{"id", "image-id", "assembly-id"} {
				if b.Str(k) == buildID {
					return b
				}
			}
		}
		return nil
	}
	project, _, err := searchProjects(ctx, cl, rank, holds)
	return project, err
}

// searchProjects reads the build lists of the live projects (deleted ones
// and group entries are skipped) in the order of rank, lowest first, and
// within a rank newest date-created first, until match finds a build in
// one; a negative rank leaves a project out, and a list that cannot be
// read is passed over. No API call finds a build by id, so both the
// search for a build's project and the one for an unanswered upload go
// through the lists this way.
func searchProjects(ctx context.Context, cl *platform.Client, rank func(*jsonx.Object) int, match func([]*jsonx.Object) *jsonx.Object) (project, build *jsonx.Object, err error) {
	projects, err := cl.ListProjects(ctx)
	if err != nil {
		return nil, nil, err
	}
	var candidates []*jsonx.Object
	for _, p := range projects {
		if p.Str("id") == "" || platform.IsDeletedProject(p) || strings.EqualFold(p.Str("project-kind"), "Group") || rank(p) < 0 {
			continue
		}
		candidates = append(candidates, p)
	}
	slices.SortStableFunc(candidates, func(a, b *jsonx.Object) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return cmp.Compare(b.Str("date-created"), a.Str("date-created"))
	})
	for _, p := range candidates {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		builds, err := cl.ListBuilds(ctx, p.Str("id"))
		if err != nil {
			continue
		}
		if b := match(builds); b != nil {
			return p, b, nil
		}
	}
	return nil, nil, nil
}
