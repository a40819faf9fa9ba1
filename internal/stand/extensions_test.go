package stand_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
)

const extID = "e7e7e7e7-0000-4000-8000-0000000000e1"

func extension(version string) stand.ArchiveSpec {
	return stand.ArchiveSpec{Vendor: "acme", Name: "CrmExtras", Version: version, Kind: "Extension", ID: extID, Presentation: "CRM extras"}
}

func extensionRows(c *client, app string) []map[string]any {
	c.t.Helper()
	var out []map[string]any
	for _, r := range c.obj("GET", "/v2.1/applications/"+app+"/project", nil)["extension-projects"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func TestExtensionApplyAndExport(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	app := c.createApp("crm", up["image-id"].(string))

	ext := c.uploadNew("", extension("1.0-1"))
	extProject := artifactProject(ext)
	if kind := c.obj("GET", "/projects/"+extProject, nil)["project-kind"]; kind != "Extension" {
		t.Fatalf("extension project kind %v", kind)
	}
	if rows := extensionRows(c, app); len(rows) != 0 {
		t.Fatalf("rows before any apply: %v", rows)
	}
	c.apply(app, ext["image-id"].(string))
	card := c.waitStatus(app, "Running")
	if src := card["source"].(map[string]any); src["project-version-id"] != up["image-id"] {
		t.Fatalf("an extension apply moved the card's source: %v", src)
	}
	rows := extensionRows(c, app)
	want := map[string]any{"id": extID, "project-id": extProject, "assembly-id": extProject, "enabled": true, "order": float64(1),
		"vendor-name": "acme", "vendor-presentation": "acme", "project-name": "CrmExtras", "project-presentation": "CRM extras",
		"project-version": "1.0", "assembly-version": "1.0-1"}
	if len(rows) != 1 {
		t.Fatalf("rows %v", rows)
	}
	for k, v := range want {
		if rows[0][k] != v {
			t.Fatalf("row %s = %v, want %v (%v)", k, rows[0][k], v, rows[0])
		}
	}
	v2 := c.obj("GET", "/applications/"+app+"/project", nil)
	if _, has := v2["extension-projects"]; has || v2["application-project"].(map[string]any)["assembly-version"] != "1.0-1" {
		t.Fatalf("2.0 answer %v", v2)
	}

	// A later apply updates the row; a failed one leaves the previous version.
	ext2 := c.uploadInto(extProject, extension("x"))
	c.apply(app, ext2["id"].(string))
	c.waitStatus(app, "Running")
	if rows := extensionRows(c, app); len(rows) != 1 || rows[0]["assembly-version"] != "1.0-2" {
		t.Fatalf("rows after the second apply %v", rows)
	}
	bad := extension("x")
	bad.Files = map[string]string{"Модуль.xbsl": "#error сломано"}
	c.apply(app, c.uploadInto(extProject, bad)["id"].(string))
	c.waitStatus(app, "Running")
	if rows := extensionRows(c, app); rows[0]["assembly-version"] != "1.0-2" {
		t.Fatalf("a failed apply changed the row: %v", rows)
	}

	// Export by the row id, case-insensitive.
	archive := c.must(200, "POST", "/v2.1/applications/"+app+"/project/"+strings.ToUpper(extID)+"/export", nil)
	if m := manifestOf(t, archive); m["ManifestVersion"] != "1.1" || m["ProjectKind"] != "Extension" || m["Version"] != "1.0-2" {
		t.Fatalf("extension export manifest %v", m)
	}
	st, body := c.do("POST", "/v2.1/applications/"+app+"/project/"+extProject+"/export", nil)
	m := jsonText(t, body)
	if st != 500 || !strings.HasPrefix(m["message"].(string), "Unable to export extension ") || m["details"] != "Contact administrator for details" {
		t.Fatalf("export by project id: HTTP %d %s", st, body)
	}
	if st, body := c.do("POST", "/v2/applications/"+app+"/project/"+extID+"/export", nil); st != 401 || !strings.Contains(string(body), "Handler of HTTP request") {
		t.Fatalf("2.0 extension export: HTTP %d %s", st, body)
	}
	// The undocumented extension-id query works on 2.1 only.
	if m := manifestOf(t, c.must(200, "POST", "/v2.1/applications/"+app+"/project/export?extension-id="+extID, nil)); m["ProjectKind"] != "Extension" {
		t.Fatalf("2.1 export with extension-id: %v", m)
	}
	if m := manifestOf(t, c.must(200, "POST", "/applications/"+app+"/project/export?extension-id="+extID, nil)); m["ProjectKind"] != "Application" {
		t.Fatalf("2.0 export ignores extension-id: %v", m)
	}
	// The main export never carries the extension.
	for _, name := range zipNames(t, c.must(200, "POST", "/applications/"+app+"/project/export", nil)) {
		if strings.Contains(name, "CrmExtras") {
			t.Fatalf("extension file %s in the application export", name)
		}
	}
}

func TestExtensionManifest10IsRefused(t *testing.T) {
	_, c := start(t, stand.Options{})
	app := c.createApp("crm", c.uploadNew("", sample("1.0-1"))["image-id"].(string))
	old := extension("1.0-1")
	old.ManifestVersion = "1.0"
	c.apply(app, c.uploadNew("", old)["image-id"].(string))
	c.waitStatus(app, "Running")
	failed := failedTasks(c, app)
	if len(failed) != 1 || failed[0]["error-message"] != `Unknown project kind: "Extension"` {
		t.Fatalf("failed tasks %v", failed)
	}
	if rows := extensionRows(c, app); len(rows) != 0 {
		t.Fatalf("a failed first apply left a row: %v", rows)
	}
}

// The extension example of spec/platform-api.md §5.6.
func TestExtensionApplyHousekeepsTheApplicationProject(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	p := artifactProject(up)
	c.uploadInto(p, sample("x"))
	c.uploadInto(p, sample("x"))
	app := c.createApp("crm", up["image-id"].(string))

	ext := c.uploadNew("", extension("1.0-1"))
	extProject := artifactProject(ext)
	e2 := c.uploadInto(extProject, extension("x"))["id"].(string)
	c.uploadInto(extProject, extension("x"))

	c.apply(app, e2)
	c.waitStatus(app, "Running")
	if got := c.versions(p); !slices.Equal(got, []string{"1.0-1", "1.0-3"}) {
		t.Fatalf("application project after the extension apply: %v", got)
	}
	if got := c.versions(extProject); !slices.Equal(got, []string{"1.0-1", "1.0-2", "1.0-3"}) {
		t.Fatalf("extension project: %v", got)
	}
}
