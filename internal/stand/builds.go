package stand

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

const (
	routeProject     = "project"
	routeNoProjectID = "no-project-id"
	routeSeed        = "seed"

	groupSuffix = "(Группа)"
	// housekeepingLimit is how many builds one completed apply may remove.
	housekeepingLimit = 10
)

// splitVersion splits a build version into base and number. A version of
// the descriptor's base ("1.0.0" + "-probe-ab12") keeps that base; a
// non-numeric suffix has number 0.
func splitVersion(version, descriptorBase string) (string, int) {
	if descriptorBase != "" && strings.HasPrefix(version, descriptorBase+"-") {
		n, _ := strconv.Atoi(version[len(descriptorBase)+1:])
		return descriptorBase, max(n, 0)
	}
	i := strings.LastIndex(version, "-")
	if i <= 0 {
		return version, 0
	}
	n, err := strconv.Atoi(version[i+1:])
	if err != nil || n < 0 {
		return version[:i], 0
	}
	return version[:i], n
}

// --- spaces ---

type spaceJSON struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Presentation string `json:"presentation"`
}

func (s *Stand) listSpaces(q *req) {
	out := make([]spaceJSON, 0, len(s.st.spaces))
	for _, sp := range s.st.spaces {
		out = append(out, spaceJSON{sp.ID, sp.Name, sp.Presentation})
	}
	s.writeList(q.w, out)
}

func (s *Stand) defaultSpace(now time.Time) *Space {
	if len(s.st.spaces) == 0 {
		s.st.addSpace(&Space{ID: newID(), Name: "default", Presentation: "Основное пространство", Created: now})
		s.changed()
	}
	return s.st.spaces[0]
}

// --- projects ---

type projectJSON struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	Presentation     string `json:"presentation"`
	ProjectKind      string `json:"project-kind"`
	SpaceID          string `json:"space-id"`
	GroupID          string `json:"group-id,omitempty"`
	DefaultAssembly  string `json:"default-assembly-id,omitempty"`
	ApplicationCount int    `json:"application-count"`
	Deleted          bool   `json:"deleted"`
	DateCreated      string `json:"date-created"`
}

func (s *Stand) projectCard(p *Project) projectJSON {
	name := p.Presentation
	if p.Kind == kindGroup {
		name += groupSuffix
	}
	count := 0
	if p.Kind != kindGroup {
		for _, a := range s.st.apps {
			if a.ProjectID == p.ID && a.Status != statusDeleted {
				count++
			}
		}
	}
	return projectJSON{
		ID: p.ID, Name: name, Presentation: name, ProjectKind: p.Kind, SpaceID: p.SpaceID,
		GroupID: p.GroupID, DefaultAssembly: p.DefaultBuildID, ApplicationCount: count,
		Deleted: p.Deleted, DateCreated: isoTime(p.Created),
	}
}

func (s *Stand) listProjects(q *req) {
	out := make([]projectJSON, 0, len(s.st.projects))
	for _, p := range s.st.projects {
		out = append(out, s.projectCard(p))
	}
	s.writeList(q.w, out)
}

func (s *Stand) getProject(q *req) {
	p := s.st.projectByID[q.param(0)]
	if p == nil {
		answer(q.w, projectNotFound(q.param(0)))
		return
	}
	writeJSON(q.w, http.StatusOK, s.projectCard(p))
}

// projectNotFound is the console's answer for a project it does not have,
// or not as the request needs it.
func projectNotFound(id string) error {
	return refuseMessage(http.StatusNotFound, "Project %q not found", id)
}

// liveProject finds a project that is not deleted.
func (s *Stand) liveProject(id string) (*Project, error) {
	p := s.st.projectByID[id]
	if p == nil || p.Deleted {
		return nil, projectNotFound(id)
	}
	return p, nil
}

// buildsProject finds a project that can hold builds and branches: live,
// and not a group.
func (s *Stand) buildsProject(id string) (*Project, error) {
	p, err := s.liveProject(id)
	if err != nil || p.Kind == kindGroup {
		return nil, projectNotFound(id)
	}
	return p, nil
}

// space finds a space by id.
func (s *Stand) space(id string) (*Space, error) {
	sp := s.st.spaceByID[id]
	if sp == nil {
		return nil, refuseMessage(http.StatusNotFound, "Space %q not found", id)
	}
	return sp, nil
}

func (s *Stand) deleteProject(q *req) {
	p, err := s.liveProject(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	if p.Kind == kindGroup {
		refuseInvalid("a project group is deleted together with its projects").write(q.w)
		return
	}
	for _, a := range s.st.apps {
		if a.Status == statusDeleted {
			continue
		}
		if b := s.st.buildByID[a.CreatedFromBuildID]; a.ProjectID == p.ID || (b != nil && b.ProjectID == p.ID) {
			refuseInternal("Can't delete project %s: application %q uses it", p.ID, a.DisplayName).write(q.w)
			return
		}
	}
	p.Deleted = true
	for _, b := range s.st.builds {
		if b.ProjectID == p.ID {
			b.Deleted = true
		}
	}
	if g := s.st.projectByID[p.GroupID]; g != nil {
		alone := true
		for _, m := range s.st.projects {
			if m.GroupID == g.ID && !m.Deleted {
				alone = false
			}
		}
		g.Deleted = alone
	}
	s.archivesFreed()
	s.changed()
	writeNoContent(q.w)
}

// --- builds ---

type buildJSON struct {
	ID               string  `json:"id"`
	ImageID          string  `json:"image-id"`
	AssemblyVersion  string  `json:"assembly-version"`
	ProjectVersion   string  `json:"project-version"`
	Created          string  `json:"created"`
	CommitID         *string `json:"commit-id"`
	BranchName       *string `json:"branch-name"`
	ProjectID        string  `json:"project-id"`
	ProjectDeveloper string  `json:"project-developer"`
	ProjectName      string  `json:"project-name"`
}

func buildCard(b *Build) buildJSON {
	var commit *string
	if b.CommitID != "" {
		c := b.CommitID
		commit = &c
	}
	return buildJSON{
		ID: b.ID, ImageID: b.ID, AssemblyVersion: b.Version, ProjectVersion: b.Version,
		Created: isoTime(b.Created), CommitID: commit, ProjectID: b.ProjectID,
		ProjectDeveloper: b.Vendor, ProjectName: b.Name,
	}
}

// liveBuilds lists the builds of a project that are not deleted, in upload order.
func (s *Stand) liveBuilds(projectID string) []*Build {
	var out []*Build
	for _, b := range s.st.builds {
		if b.ProjectID == projectID && !b.Deleted {
			out = append(out, b)
		}
	}
	return out
}

// buildByVersion finds a live build of a project by its version.
func (s *Stand) buildByVersion(projectID, version string) *Build {
	for _, b := range s.liveBuilds(projectID) {
		if b.Version == version {
			return b
		}
	}
	return nil
}

// latestBuild is the live build with the highest number (the newest among
// equals); nil when the project has none.
func (s *Stand) latestBuild(projectID string) *Build {
	var best *Build
	for _, b := range s.liveBuilds(projectID) {
		if best == nil || b.Number >= best.Number {
			best = b
		}
	}
	return best
}

func (s *Stand) listBuilds(q *req) {
	p, err := s.liveProject(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	out := []buildJSON{}
	for _, b := range s.liveBuilds(p.ID) {
		out = append(out, buildCard(b))
	}
	s.writeList(q.w, out)
}

func (s *Stand) findBuild(q *req) (*Build, error) {
	p, err := s.liveProject(q.param(0))
	if err != nil {
		return nil, err
	}
	b := s.buildByVersion(p.ID, q.param(1))
	if b == nil {
		return nil, refuseMessage(http.StatusNotFound, "Assembly with version %s not found", q.param(1))
	}
	return b, nil
}

func (s *Stand) getBuild(q *req) {
	b, err := s.findBuild(q)
	answerCard(q, b, err, func(b *Build) any { return buildCard(b) })
}

func (s *Stand) deleteBuild(q *req) {
	b, err := s.findBuild(q)
	if err != nil {
		answer(q.w, err)
		return
	}
	for _, a := range s.st.apps {
		if a.CreatedFromBuildID == b.ID && a.Status != statusDeleted {
			refuseInternal("Can't delete assembly %s", b.Version).write(q.w)
			return
		}
	}
	b.Deleted = true
	s.archivesFreed()
	s.changed()
	writeNoContent(q.w)
}

// --- uploads ---

// uploaded is what an upload produced.
type uploaded struct {
	build   *Build
	project *Project
}

func (s *Stand) uploadIntoProject(q *req) {
	query := q.r.URL.Query()
	if sid := query.Get("space-id"); sid != "" {
		if !isUUID(sid) {
			refuseInvalid("space-id %q is not a valid UUID", sid).write(q.w)
			return
		}
		if _, err := s.space(sid); err != nil {
			answer(q.w, err)
			return
		}
	}
	if m := query.Get("modified"); m == "1" || strings.EqualFold(m, "true") {
		refuseBare().write(q.w)
		return
	}
	body, err := s.uploadBody(q)
	if err != nil {
		answer(q.w, err)
		return
	}
	up, err := s.putIntoProject(q.param(0), body, query.Get("commit-id"), q.now)
	if err != nil {
		answer(q.w, err)
		return
	}
	writeJSON(q.w, http.StatusOK, buildCard(up.build))
}

func (s *Stand) uploadNoSpace(q *req) {
	s.answerNoProjectUpload(q, s.defaultSpace(q.now))
}

func (s *Stand) uploadIntoSpace(q *req) {
	sp, err := s.space(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	s.answerNoProjectUpload(q, sp)
}

type artifactJSON struct {
	ArtifactID      string `json:"artifact-id"`
	ConfigurationID string `json:"configuration-id"`
	Name            string `json:"name"`
}

func (s *Stand) answerNoProjectUpload(q *req, sp *Space) {
	body, err := s.uploadBody(q)
	if err != nil {
		answer(q.w, err)
		return
	}
	up, err := s.putWithoutProject(sp, body, q.now)
	if err != nil {
		answer(q.w, err)
		return
	}
	writeJSON(q.w, http.StatusOK, struct {
		Name     string       `json:"name"`
		ImageID  string       `json:"image-id"`
		Artifact artifactJSON `json:"artifact"`
	}{up.build.Version, up.build.ID, artifactJSON{up.project.ID, up.build.ConfigurationID, up.project.Presentation}})
}

// readUpload parses an uploaded archive and checks what every upload needs.
func (s *Stand) readUpload(body *spool) (*archive, error) {
	a, err := readArchive(body.readerAt(), body.size, s.opts.Limits, true)
	if err != nil {
		return nil, refuseInvalid("Invalid assembly: %v", err)
	}
	if a.descriptorEntry == "" || a.descriptor.get(keyPresentation...) == "" {
		// The platform fails deep inside without saying why.
		return nil, refuseBare()
	}
	if err := checkArchiveNames(a); err != nil {
		return nil, err
	}
	return a, nil
}

// putIntoProject stores an upload into a project by id: the archive's
// version is ignored and the next number of the descriptor's base is given.
func (s *Stand) putIntoProject(projectID string, body *spool, commit string, now time.Time) (uploaded, error) {
	p, err := s.buildsProject(projectID)
	if err != nil {
		return uploaded{}, err
	}
	a, err := s.readUpload(body)
	if err != nil {
		return uploaded{}, err
	}
	return s.putParsedIntoProject(p, a, body, commit, now)
}

func (s *Stand) putParsedIntoProject(p *Project, a *archive, body *spool, commit string, now time.Time) (uploaded, error) {
	base := a.base()
	n := p.Counters[base] + 1
	b, err := s.newBuild(p, a, body, base+"-"+strconv.Itoa(n), routeProject, now)
	if err != nil {
		return uploaded{}, err
	}
	b.CommitID = commit
	s.renameProject(p, a)
	return uploaded{b, p}, nil
}

// putWithoutProject stores an upload without a project id: the project is
// the live one carrying the descriptor's Ид (this space first, then any), or
// a new one; the archive's version is kept.
func (s *Stand) putWithoutProject(sp *Space, body *spool, now time.Time) (uploaded, error) {
	a, err := s.readUpload(body)
	if err != nil {
		return uploaded{}, err
	}
	version := strings.TrimSpace(a.manifest["Version"])
	if version == "" {
		return uploaded{}, refuseInvalid("Version must not be empty")
	}
	cid := a.descriptor.get(keyID...)
	p := s.projectByConfiguration(cid, sp.ID)
	created := false
	if p == nil {
		vendor, name := a.manifest["Vendor"], a.manifest["Name"]
		for _, other := range s.st.projects {
			if !other.Deleted && other.Kind != kindGroup && other.SpaceID == sp.ID &&
				strings.EqualFold(other.Vendor, vendor) && strings.EqualFold(other.Name, name) {
				return uploaded{}, refuseCode(http.StatusConflict, "ALREADY_EXISTS",
					"Сборка с именем поставщика %s и именем %s уже зарегистрирована в другом проекте", vendor, name)
			}
		}
	} else if s.buildByVersion(p.ID, version) != nil {
		return uploaded{}, refuseCode(http.StatusConflict, "ALREADY_EXISTS",
			"Версия сборки %s уже присутствует в группе проекта", version)
	}
	key, err := s.keepArchive(body)
	if err != nil {
		return uploaded{}, err
	}
	if p == nil {
		p = s.newProject(sp, a, now)
		created = true
	}
	b := s.addBuild(p, a, key, body.size, version, routeNoProjectID, now)
	b.Protected = true
	if created {
		p.DefaultBuildID = b.ID
	}
	s.renameProject(p, a)
	return uploaded{b, p}, nil
}

func (s *Stand) projectByConfiguration(cid, spaceID string) *Project {
	if cid == "" {
		return nil
	}
	var other *Project
	for _, p := range s.st.projects {
		if p.Deleted || p.Kind == kindGroup || !strings.EqualFold(p.ConfigurationID, cid) {
			continue
		}
		if p.SpaceID == spaceID {
			return p
		}
		if other == nil {
			other = p
		}
	}
	return other
}

func (s *Stand) newProject(sp *Space, a *archive, now time.Time) *Project {
	pres := a.descriptor.get(keyPresentation...)
	g := &Project{ID: newID(), Kind: kindGroup, SpaceID: sp.ID, Presentation: pres, Created: now, Counters: map[string]int{}}
	p := &Project{
		ID: newID(), Kind: a.kind(), SpaceID: sp.ID, GroupID: g.ID, Presentation: pres,
		ConfigurationID: a.descriptor.get(keyID...), Vendor: a.manifest["Vendor"], Name: a.manifest["Name"],
		Created: now, Counters: map[string]int{},
	}
	s.st.addProject(g)
	s.st.addProject(p)
	s.changed()
	return p
}

// renameProject shows the project and its group under the uploaded build's
// Представление.
func (s *Stand) renameProject(p *Project, a *archive) {
	pres := a.descriptor.get(keyPresentation...)
	p.Presentation = pres
	p.Vendor, p.Name = a.manifest["Vendor"], a.manifest["Name"]
	if g := s.st.projectByID[p.GroupID]; g != nil {
		g.Presentation = pres
	}
	s.changed()
}

// newBuild stores the archive and adds the build.
func (s *Stand) newBuild(p *Project, a *archive, body *spool, version, route string, now time.Time) (*Build, error) {
	key, err := s.keepArchive(body)
	if err != nil {
		return nil, err
	}
	return s.addBuild(p, a, key, body.size, version, route, now), nil
}

func (s *Stand) addBuild(p *Project, a *archive, key string, size int64, version, route string, now time.Time) *Build {
	base, n := splitVersion(version, a.base())
	vendorPres := a.descriptor.get(keyVendorPres...)
	if vendorPres == "" {
		vendorPres = a.manifest["Vendor"]
	}
	_, release := a.manifest["Release"]
	b := &Build{
		ID: newID(), ProjectID: p.ID, Version: version, Base: base, Number: n, Created: now,
		Route: route, Release: release, ManifestVersion: a.manifest["ManifestVersion"], Kind: a.kind(),
		Vendor: a.manifest["Vendor"], Name: a.manifest["Name"], ArchiveVersion: a.manifest["Version"],
		ConfigurationID: a.descriptor.get(keyID...), Presentation: a.descriptor.get(keyPresentation...),
		VendorPresentation: vendorPres, DescriptorVersion: a.base(), ArchiveKey: key, ArchiveSize: size,
	}
	if n > p.Counters[base] {
		p.Counters[base] = n
	}
	s.st.addBuild(b)
	s.changed()
	return b
}

// housekeep is the platform's automatic deletion of unused builds after an
// application finished applying a build: the builds of the application's
// project with the base of the build it now runs, at most ten, except the
// protected, release and default builds, builds live applications run, were
// created from or are being updated to, and the highest number.
func (s *Stand) housekeep(a *App) {
	p := s.st.projectByID[a.ProjectID]
	run := s.st.buildByID[a.BuildID]
	if p == nil || run == nil || p.Kind == kindExtension {
		return
	}
	var same []*Build
	var highest *Build
	for _, b := range s.liveBuilds(p.ID) {
		if b.Base != run.Base {
			continue
		}
		same = append(same, b)
		if highest == nil || b.Number >= highest.Number {
			highest = b
		}
	}
	keep := map[string]bool{p.DefaultBuildID: true, highest.ID: true}
	for _, other := range s.st.apps {
		if other.Status == statusDeleted {
			continue
		}
		keep[other.BuildID] = true
		keep[other.CreatedFromBuildID] = true
		if other.Op != nil {
			keep[other.Op.BuildID] = true
		}
	}
	sort.SliceStable(same, func(i, j int) bool { return same[i].Number < same[j].Number })
	removed := 0
	for _, b := range same {
		if removed == housekeepingLimit {
			break
		}
		if b.Protected || b.Release || keep[b.ID] {
			continue
		}
		b.Deleted = true
		removed++
		s.note("housekeeping removed build %s of project %s", b.Version, p.ID)
	}
	if removed > 0 {
		s.archivesFreed()
		s.changed()
	}
}
