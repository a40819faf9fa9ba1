package stand

import (
	"net/http"
	"strings"
)

// upsertExtension records a successfully applied extension build in the
// application's extension rows; the card's source is left alone.
func (s *Stand) upsertExtension(a *App, b *Build) {
	id := b.ConfigurationID
	if id == "" {
		id = b.ProjectID
	}
	var row *ExtensionRow
	for i := range a.Extensions {
		if strings.EqualFold(a.Extensions[i].ID, id) {
			row = &a.Extensions[i]
		}
	}
	if row == nil {
		order := 0
		for _, r := range a.Extensions {
			order = max(order, r.Order)
		}
		a.Extensions = append(a.Extensions, ExtensionRow{ID: id, Enabled: true, Order: order + 1})
		row = &a.Extensions[len(a.Extensions)-1]
	}
	row.ProjectID, row.BuildID = b.ProjectID, b.ID
	row.Base, row.Version = b.Base, b.Version
	row.Vendor, row.VendorPresentation = b.Vendor, b.VendorPresentation
	row.ProjectName, row.ProjectPresentation = b.Name, b.Presentation
}

type applicationProjectJSON struct {
	ProjectID           string `json:"project-id"`
	ProjectName         string `json:"project-name"`
	ProjectPresentation string `json:"project-presentation"`
	VendorName          string `json:"vendor-name"`
	ProjectVersion      string `json:"project-version"`
	AssemblyVersion     string `json:"assembly-version"`
	AssemblyID          string `json:"assembly-id"`
}

type extensionJSON struct {
	ID                  string `json:"id"`
	ProjectID           string `json:"project-id"`
	AssemblyID          string `json:"assembly-id"`
	Enabled             bool   `json:"enabled"`
	Order               int    `json:"order"`
	VendorName          string `json:"vendor-name"`
	VendorPresentation  string `json:"vendor-presentation"`
	ProjectName         string `json:"project-name"`
	ProjectPresentation string `json:"project-presentation"`
	ProjectVersion      string `json:"project-version"`
	AssemblyVersion     string `json:"assembly-version"`
}

// getAppProject answers GET /applications/{id}/project: the application
// project, plus the extension rows under 2.1 only.
func (s *Stand) getAppProject(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	ap := applicationProjectJSON{ProjectID: a.ProjectID}
	if p := s.st.projectByID[a.ProjectID]; p != nil {
		ap.ProjectPresentation, ap.ProjectName, ap.VendorName = p.Presentation, p.Name, p.Vendor
	}
	if b := s.st.buildByID[a.BuildID]; b != nil {
		ap.ProjectName, ap.VendorName = b.Name, b.Vendor
		ap.ProjectVersion, ap.AssemblyVersion, ap.AssemblyID = b.Base, b.Version, b.ID
	}
	if !q.v21 {
		writeJSON(q.w, http.StatusOK, map[string]any{"application-project": ap})
		return
	}
	rows := make([]extensionJSON, 0, len(a.Extensions))
	for _, r := range a.Extensions {
		rows = append(rows, extensionJSON{
			ID: r.ID, ProjectID: r.ProjectID, AssemblyID: r.ProjectID, Enabled: r.Enabled, Order: r.Order,
			VendorName: r.Vendor, VendorPresentation: r.VendorPresentation,
			ProjectName: r.ProjectName, ProjectPresentation: r.ProjectPresentation,
			ProjectVersion: r.Base, AssemblyVersion: r.Version,
		})
	}
	writeJSON(q.w, http.StatusOK, struct {
		ApplicationProject applicationProjectJSON `json:"application-project"`
		ExtensionProjects  []extensionJSON        `json:"extension-projects"`
	}{ap, rows})
}

func (s *Stand) exportExtension(q *req) {
	a, err := s.liveApp(q.param(0))
	if err != nil {
		answer(q.w, err)
		return
	}
	s.writeExtensionExport(q, a, q.param(1))
}

// writeExtensionExport answers the build of the extension row whose id
// (the extension's Ид) matches, case-insensitively; anything else, the
// extension's project id included, is the console's bare 500.
func (s *Stand) writeExtensionExport(q *req, a *App, extID string) {
	for _, r := range a.Extensions {
		if !strings.EqualFold(r.ID, extID) {
			continue
		}
		if b := s.st.buildByID[r.BuildID]; b != nil {
			if data, err := s.exportArchive(b); err == nil {
				writeArchive(q.w, data)
				return
			}
		}
	}
	refuseInternal("Unable to export extension %s from application %s", extID, a.ID).write(q.w)
}
