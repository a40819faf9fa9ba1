package stand_test

import (
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

func TestBranchesVersionStamps(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	if st, body := c.do("POST", "/branches", map[string]any{"kind": "development", "project": map[string]any{"id": d.ProjectID}}); st != 400 ||
		!strings.Contains(string(body), `"error_code":"invalid_request"`) {
		t.Fatalf("nameless branch: HTTP %d %s", st, body)
	}
	main := c.obj("POST", "/branches", map[string]any{"name": "main", "kind": "main", "project": map[string]any{"id": d.ProjectID}})
	br := c.obj("POST", "/branches", map[string]any{"name": "feature", "kind": "development",
		"project": map[string]any{"id": d.ProjectID}, "application": map[string]any{"id": d.AppID},
		"source-branch": map[string]any{"id": main["id"]}})
	id := br["id"].(string)
	if br["project"].(map[string]any)["id"] != d.ProjectID || br["application"].(map[string]any)["id"] != d.AppID ||
		br["source-branch"].(map[string]any)["name"] != "main" || br["deletion-mark"] != false || br["version-stamp"] == "" {
		t.Fatalf("branch card %v", br)
	}
	stamp := br["version-stamp"].(string)
	update := map[string]any{"name": "feature-2", "kind": "development", "deletion-mark": false, "version-stamp": stamp,
		"source-branch": map[string]any{"id": main["id"]}, "application": map[string]any{"id": d.AppID}}
	after := c.obj("PUT", "/branches/"+id, update)
	if after["name"] != "feature-2" || after["version-stamp"] == stamp {
		t.Fatalf("after PUT %v", after)
	}
	// The old stamp is stale now.
	st, body := c.do("PUT", "/branches/"+id, update)
	if st != 409 || !strings.Contains(string(body), "ABORTED") {
		t.Fatalf("stale stamp: HTTP %d %s", st, body)
	}
	// Merge: the same PUT with write-parameters.merge, stamp moves again.
	update["version-stamp"] = after["version-stamp"]
	update["write-parameters"] = map[string]any{"merge": true}
	merged := c.obj("PUT", "/branches/"+id, update)
	if merged["version-stamp"] == after["version-stamp"] {
		t.Fatal("a merge must issue a new stamp")
	}
	// Rebinding by name, unbinding with null.
	other := c.createApp("other", c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string))
	update["version-stamp"] = merged["version-stamp"]
	update["application"] = map[string]any{"name": "other"}
	delete(update, "write-parameters")
	if got := c.obj("PUT", "/branches/"+id, update)["application"].(map[string]any)["id"]; got != other {
		t.Fatalf("rebound to %v", got)
	}

	if got := c.list("/branches?project-id=" + d.ProjectID + "&name=feature-2"); len(got) != 1 || got[0]["id"] != id {
		t.Fatalf("filtered list %v", got)
	}
	if got := c.list("/branches"); len(got) != 2 {
		t.Fatalf("list %v", got)
	}
	c.must(204, "DELETE", "/branches/"+id, nil)
	if st, _ := c.do("GET", "/branches/"+id, nil); st != 404 {
		t.Fatalf("deleted branch: HTTP %d", st)
	}
}

func TestDumpsAndGroupTasks(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	dump := c.obj("POST", "/applications/"+d.AppID+"/dumps", map[string]any{"include-users": true, "include-binary-data": false, "description": "nightly"})
	if dump["id"] == "" || dump["include-binary-data"] != false || dump["description"] != "nightly" {
		t.Fatalf("dump %v", dump)
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.obj("GET", "/applications/"+d.AppID+"/dumps/"+dump["id"].(string), nil)["status"] != "Completed" {
		if time.Now().After(deadline) {
			t.Fatal("the dump never completed")
		}
		time.Sleep(2 * time.Millisecond)
	}

	if st, _ := c.do("POST", "/tasks/group-tasks/update-applications-technology", map[string]any{"applications": []string{d.AppID}}); st != 400 {
		t.Fatalf("group task without a version: HTTP %d", st)
	}
	task := c.obj("POST", "/tasks/group-tasks/update-applications-technology",
		map[string]any{"technology-version": "8.0.26.1", "applications": []string{d.AppID}})
	id := task["id"].(string)
	for c.obj("GET", "/tasks/group-tasks/"+id, nil)["status"] != "Completed" {
		if time.Now().After(deadline) {
			t.Fatal("the group task never completed")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if got := c.obj("GET", "/applications/"+d.AppID, nil)["technology-version"]; got != "8.0.26.1" {
		t.Fatalf("technology version %v", got)
	}
}
