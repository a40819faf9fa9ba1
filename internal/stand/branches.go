package stand

import (
	"net/http"
	"strings"
)

type branchAppJSON struct {
	ID          string `json:"id"`
	DisplayName string `json:"display-name"`
}

type branchJSON struct {
	ID           string         `json:"id"`
	Name         string         `json:"name"`
	Kind         string         `json:"kind"`
	Project      refJSON        `json:"project"`
	Application  *branchAppJSON `json:"application"`
	SourceBranch *refJSON       `json:"source-branch"`
	DeletionMark bool           `json:"deletion-mark"`
	VersionStamp string         `json:"version-stamp"`
}

func (s *Stand) branchCard(b *Branch) branchJSON {
	card := branchJSON{ID: b.ID, Name: b.Name, Kind: b.Kind, Project: refJSON{ID: b.ProjectID},
		DeletionMark: b.DeletionMark, VersionStamp: b.VersionStamp}
	if p := s.st.projectByID[b.ProjectID]; p != nil {
		card.Project.Name = p.Presentation
	}
	if a := s.st.appByID[b.AppID]; a != nil {
		card.Application = &branchAppJSON{a.ID, a.DisplayName}
	}
	if src := s.st.branchByID[b.SourceBranch]; src != nil {
		card.SourceBranch = &refJSON{src.ID, src.Name}
	}
	return card
}

// listBranches honours the project-id and name queries (exact match).
func (s *Stand) listBranches(q *req) {
	query := q.r.URL.Query()
	pid, name := query.Get("project-id"), query.Get("name")
	out := []branchJSON{}
	for _, b := range s.st.branches {
		if (pid == "" || b.ProjectID == pid) && (name == "" || b.Name == name) {
			out = append(out, s.branchCard(b))
		}
	}
	s.writeList(q.w, out)
}

func (s *Stand) branch(id string) (*Branch, error) {
	b := s.st.branchByID[id]
	if b == nil {
		return nil, refuseMessage(http.StatusNotFound, "Branch %q not found", id)
	}
	return b, nil
}

func (s *Stand) getBranch(q *req) {
	b, err := s.branch(q.param(0))
	answerCard(q, b, err, func(b *Branch) any { return s.branchCard(b) })
}

// refID reads a reference object {"id": ...} or {"name": ...}; present
// tells whether the key was in the body, clear whether it was null.
func refOf(body map[string]any, key string) (ref map[string]any, present bool) {
	v, present := body[key]
	ref, _ = v.(map[string]any)
	return ref, present
}

// resolveApp finds a live application by a reference's id or name.
func (s *Stand) resolveApp(ref map[string]any) (*App, error) {
	if id := str(ref["id"]); id != "" {
		return s.liveApp(id)
	}
	name := str(ref["name"])
	for _, a := range s.st.apps {
		if a.Status != statusDeleted && name != "" &&
			(strings.EqualFold(a.Name, name) || strings.EqualFold(a.DisplayName, name) || strings.EqualFold(a.PublicationContext, name)) {
			return a, nil
		}
	}
	return nil, refuseMessage(http.StatusNotFound, "Application %q not found", name)
}

func (s *Stand) resolveBranch(ref map[string]any, projectID string) (*Branch, error) {
	if id := str(ref["id"]); id != "" {
		return s.branch(id)
	}
	name := str(ref["name"])
	for _, b := range s.st.branches {
		if b.ProjectID == projectID && b.Name == name && name != "" {
			return b, nil
		}
	}
	return nil, refuseMessage(http.StatusNotFound, "Branch %q not found", name)
}

func (s *Stand) createBranch(q *req) {
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	name := str(body["name"])
	if name == "" {
		refuseInvalid("name must not be empty").write(q.w)
		return
	}
	kind := str(body["kind"])
	if kind == "" {
		kind = "development"
	}
	pref, _ := refOf(body, "project")
	p, err := s.buildsProject(str(pref["id"]))
	if err != nil {
		answer(q.w, err)
		return
	}
	b := &Branch{ID: newID(), Name: name, Kind: kind, ProjectID: p.ID, VersionStamp: randomHex(8), Created: q.now}
	if ref, _ := refOf(body, "application"); ref != nil {
		a, err := s.resolveApp(ref)
		if err != nil {
			answer(q.w, err)
			return
		}
		b.AppID = a.ID
	}
	if ref, _ := refOf(body, "source-branch"); ref != nil {
		src, err := s.resolveBranch(ref, p.ID)
		if err != nil {
			answer(q.w, err)
			return
		}
		b.SourceBranch = src.ID
	}
	s.st.addBranch(b)
	s.changed()
	writeJSON(q.w, http.StatusOK, s.branchCard(b))
}

// updateBranch is an optimistic-locking write: the version-stamp sent must
// be the current one (else 409 ABORTED); every write issues a new stamp.
func (s *Stand) updateBranch(q *req) {
	b, err := s.branch(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	body, ok := q.decodeJSON()
	if !ok {
		return
	}
	stamp := str(body["version-stamp"])
	if stamp == "" {
		refuseInvalid("version-stamp must not be empty").write(q.w)
		return
	}
	if stamp != b.VersionStamp {
		refuseCode(http.StatusConflict, "ABORTED", "Branch %q was changed by another user: the version stamp is stale", b.Name).write(q.w)
		return
	}
	next := *b
	if name := str(body["name"]); name != "" {
		next.Name = name
	}
	if kind := str(body["kind"]); kind != "" {
		next.Kind = kind
	}
	if v, ok := body["deletion-mark"].(bool); ok {
		next.DeletionMark = v
	}
	if ref, present := refOf(body, "application"); present {
		next.AppID = ""
		if ref != nil {
			a, err := s.resolveApp(ref)
			if err != nil {
				answer(q.w, err)
				return
			}
			next.AppID = a.ID
		}
	}
	if ref, present := refOf(body, "source-branch"); present {
		next.SourceBranch = ""
		if ref != nil {
			src, err := s.resolveBranch(ref, b.ProjectID)
			if err != nil {
				answer(q.w, err)
				return
			}
			next.SourceBranch = src.ID
		}
	}
	if wp, _ := body["write-parameters"].(map[string]any); wp != nil {
		if merge, _ := wp["merge"].(bool); merge {
			next.Merges++
		}
	}
	next.VersionStamp = randomHex(8)
	*b = next
	s.changed()
	writeJSON(q.w, http.StatusOK, s.branchCard(b))
}

func (s *Stand) deleteBranch(q *req) {
	b, err := s.branch(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	delete(s.st.branchByID, b.ID)
	for i, x := range s.st.branches {
		if x == b {
			s.st.branches = append(s.st.branches[:i], s.st.branches[i+1:]...)
			break
		}
	}
	s.changed()
	writeNoContent(q.w)
}
