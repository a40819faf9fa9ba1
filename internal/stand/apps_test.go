package stand_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

// slow makes operations last tens of milliseconds at the test speed, so
// transitional statuses can be seen.
var slow = stand.Durations{Create: 100 * time.Second, Apply: 80 * time.Second, Start: 50 * time.Second, Stop: 50 * time.Second, Delete: 50 * time.Second}

func TestApplicationLifecycle(t *testing.T) {
	_, c := start(t, stand.Options{Durations: slow})
	up := c.uploadNew("", sample("1.0-1"))
	projectID, buildID := artifactProject(up), up["image-id"].(string)

	card := c.obj("POST", "/applications", map[string]any{
		"display-name": "crm-app", "publication-context": "crm-app",
		"source": map[string]any{"type": "repository", "project-version-id": buildID},
	})
	id := card["id"].(string)
	// While the CreateApplication task runs the console reports
	// Initializing, from the POST answer on.
	if card["status"] != "Initializing" {
		t.Fatalf("new card status %v, want Initializing", card["status"])
	}
	if _, has := card["uri"]; has {
		t.Fatal("a new application has no uri yet")
	}
	seen := map[string]bool{}
	for !seen["Running"] {
		tasks := c.appTasks(id)
		if len(tasks) != 1 || tasks[0]["operation-type"] != "CreateApplication" {
			t.Fatalf("tasks %v", tasks)
		}
		taskRuns := tasks[0]["status"] == "InProgress"
		card = c.obj("GET", "/applications/"+id, nil)
		var listed map[string]any
		for _, a := range c.list("/applications") {
			if a["id"] == id {
				listed = a
			}
		}
		st := card["status"].(string)
		seen[st] = true
		if st != "Running" && card["uri"] != nil {
			t.Fatalf("uri while %v", st)
		}
		// The task read first still running means the card and the list
		// read after it may show Initializing or already Running, never
		// anything else; a finished task means Running.
		if taskRuns && st != "Initializing" && st != "Running" || !taskRuns && st != "Running" {
			t.Fatalf("card status %q while the task is %v", st, tasks[0]["status"])
		}
		if ls := listed["status"].(string); ls != "Initializing" && ls != "Running" || st == "Running" && ls != "Running" {
			t.Fatalf("listed status %q, card %q", ls, st)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if !seen["Initializing"] || len(seen) != 2 {
		t.Fatalf("statuses seen during create: %v, want Initializing then Running", seen)
	}
	if tasks := c.appTasks(id); tasks[0]["status"] != "Completed" {
		t.Fatalf("task after Running: %v", tasks[0])
	}
	if card["uri"] != c.base+"/applications/crm-app" {
		t.Fatalf("uri %v", card["uri"])
	}
	src := card["source"].(map[string]any)
	if src["image-id"] != projectID || src["project-version-id"] != buildID || src["project-version"] != "1.0-1" {
		t.Fatalf("source %v", src)
	}
	if card["project"].(map[string]any)["id"] != projectID || card["technology-version"] == "" || card["date-updated"] == "" {
		t.Fatalf("card %v", card)
	}
	lists := card["user-lists"].([]any)
	if card["default-user-list"] == "" || !slices.Contains(lists, card["default-user-list"]) || len(lists) != 2 {
		t.Fatalf("user lists %v / %v", card["default-user-list"], lists)
	}

	// The application's own address answers like a closed application.
	resp, err := http.Get(card["uri"].(string))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("GET uri: HTTP %d, want 401", resp.StatusCode)
	}

	c.must(200, "PUT", "/applications/"+id+"/status/stop", nil)
	if st := c.obj("GET", "/applications/"+id, nil)["status"]; st != "Stopping" {
		t.Fatalf("after stop: %v", st)
	}
	c.waitStatus(id, "Stopped")
	c.must(200, "PUT", "/applications/"+id+"/status/start", nil)
	if st := c.obj("GET", "/applications/"+id, nil)["status"]; st != "Starting" {
		t.Fatalf("after start: %v", st)
	}
	c.waitStatus(id, "Running")

	c.must(200, "DELETE", "/applications/"+id, nil)
	if st := c.obj("GET", "/applications/"+id, nil)["status"]; st != "Deleting" {
		t.Fatalf("after delete: %v", st)
	}
	body := c.waitGone(id)
	if want := fmt.Sprintf(`{"message":"Application \"%s\" not found"}`, id); string(body) != want {
		t.Fatalf("card of a deleted app: %s", body)
	}
	// The tombstone stays listed.
	var tomb map[string]any
	for _, a := range c.list("/applications") {
		if a["id"] == id {
			tomb = a
		}
	}
	if tomb == nil || tomb["status"] != "Deleted" || tomb["uri"] != nil {
		t.Fatalf("tombstone %v", tomb)
	}
	resp, err = http.Get(c.base + "/applications/crm-app")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("uri of a deleted app: HTTP %d", resp.StatusCode)
	}
	var ops []string
	for _, task := range c.appTasks(id) {
		ops = append(ops, task["operation-type"].(string)+"/"+task["status"].(string))
		if sd := task["start-date"].(string); !strings.HasSuffix(sd, "Z") || len(sd) != len("2026-09-02T10:00:00.000Z") {
			t.Fatalf("start-date %q", sd)
		}
	}
	if want := []string{"CreateApplication/Completed", "DeleteApplication/Completed"}; !slices.Equal(ops, want) {
		t.Fatalf("tasks %v, want %v", ops, want)
	}
	// Another application may take the freed publication context.
	c.createApp("crm-app", buildID)
}

func TestBusyApplicationRefusesOperations(t *testing.T) {
	_, c := start(t, stand.Options{Durations: slow})
	up := c.uploadNew("", sample("1.0-1"))
	buildID := up["image-id"].(string)
	card := c.obj("POST", "/applications", map[string]any{"display-name": "busy",
		"source": map[string]any{"type": "repository", "project-version-id": buildID}})
	id := card["id"].(string)
	want := fmt.Sprintf(`{"message":"Application \"%s\" is busy"}`, id)
	for _, call := range [][2]string{{"PUT", "/status/start"}, {"PUT", "/status/stop"}, {"DELETE", ""}, {"POST", "/project/update"}} {
		st, body := c.do(call[0], "/applications/"+id+call[1], map[string]any{"source": map[string]any{"image-id": buildID}})
		if st != 404 || string(body) != want {
			t.Fatalf("%s %s while creating: HTTP %d %s", call[0], call[1], st, body)
		}
	}
	// Reading is never refused.
	c.must(200, "GET", "/applications/"+id, nil)
	c.waitStatus(id, "Running")
	c.apply(id, buildID)
	if st, body := c.do("POST", "/applications/"+id+"/project/update", map[string]any{"source": map[string]any{"image-id": buildID}}); st != 404 || !strings.Contains(string(body), "is busy") {
		t.Fatalf("apply while updating: HTTP %d %s", st, body)
	}
	c.waitStatus(id, "Running")
}

func TestInjectedStatusesAndDrafts(t *testing.T) {
	s, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	id := c.createApp("odd", up["image-id"].(string))

	if err := s.SetAppStatus(id, ""); err != nil {
		t.Fatal(err)
	}
	if st, ok := c.obj("GET", "/applications/"+id, nil)["status"]; !ok || st != "" {
		t.Fatalf("injected empty status: %v", st)
	}
	s.SetAppStatus(id, "UNKNOWN")
	if st := c.obj("GET", "/applications/"+id, nil)["status"]; st != "UNKNOWN" {
		t.Fatalf("injected status: %v", st)
	}
	if st, _ := c.do("DELETE", "/applications/"+id, nil); st != 500 {
		t.Fatalf("deleting an UNKNOWN app: HTTP %d, want 500", st)
	}
	if st, _ := c.do("PUT", "/applications/"+id+"/status/start", nil); st != 500 {
		t.Fatalf("starting an UNKNOWN app: HTTP %d, want 500", st)
	}
	s.SetAppStatus(id, "Running")
	s.SetAppDrafts(id, true)
	st, body := c.do("DELETE", "/applications/"+id, nil)
	if st != 400 || !strings.Contains(string(body), "FAILED_PRECONDITION") {
		t.Fatalf("delete with drafts: HTTP %d %s", st, body)
	}
	s.SetAppDrafts(id, false)
	c.must(200, "DELETE", "/applications/"+id, nil)
	c.waitGone(id)
	if s.SetAppStatus("nope", "Running") == nil || s.SetAppDrafts("nope", true) == nil {
		t.Fatal("knobs on an unknown app must fail")
	}
}

func TestCreateRefusals(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	projectID := artifactProject(up)
	second := c.uploadInto(projectID, sample("x"))
	c.must(204, "DELETE", "/projects/"+projectID+"/assemblies/"+second["assembly-version"].(string), nil)

	st, body := c.do("POST", "/applications", map[string]any{"display-name": "gone",
		"source": map[string]any{"type": "repository", "project-version-id": second["id"]}})
	if st != 400 || string(body) != `{"message":"Can't create application"}` {
		t.Fatalf("create from a deleted build: HTTP %d %s", st, body)
	}

	noLanguage := stand.ArchiveSpec{Vendor: "acme", Name: "nolang", Version: "1.0-1", Descriptor: "Ид: 11111111-2222-4333-8444-555555555555\nИмя: nolang\nПоставщик: acme\nВерсия: 1.0\nПредставление: Без языка\n"}
	nl := c.uploadNew("", noLanguage)
	st, body = c.do("POST", "/applications", map[string]any{"display-name": "nolang",
		"source": map[string]any{"type": "repository", "project-version-id": nl["image-id"]}})
	if st != 400 || !strings.Contains(string(body), "Can't create application") {
		t.Fatalf("create without ЯзыкРазработки: HTTP %d %s", st, body)
	}
	if n := len(c.list("/applications")); n != 0 {
		t.Fatalf("%d applications after refusals, want 0", n)
	}
	if st, _ := c.do("POST", "/applications", map[string]any{"source": map[string]any{"project-version-id": up["image-id"]}}); st != 400 {
		t.Fatalf("create without a name: HTTP %d", st)
	}
	c.createApp("taken", up["image-id"].(string))
	if st, body := c.do("POST", "/applications", map[string]any{"display-name": "taken",
		"source": map[string]any{"project-version-id": up["image-id"]}}); st != 409 || !strings.Contains(string(body), "ALREADY_EXISTS") {
		t.Fatalf("taken publication context: HTTP %d %s", st, body)
	}
}

func TestCreateFromProjectID(t *testing.T) {
	_, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	projectID := artifactProject(up)
	latest := c.uploadInto(projectID, sample("whatever"))
	card := c.obj("POST", "/applications", map[string]any{"display-name": "from-project",
		"source": map[string]any{"type": "repository", "image-id": projectID}})
	card = c.waitStatus(card["id"].(string), "Running")
	if src := card["source"].(map[string]any); src["project-version-id"] != latest["id"] || src["project-version"] != "1.0-2" {
		t.Fatalf("created from the project: %v", src)
	}

	// A project left without builds gives an empty skeleton.
	lone := c.uploadNew("", stand.ArchiveSpec{Vendor: "acme", Name: "lone", Version: "1.0-1", ID: "22222222-2222-4333-8444-555555555555"})
	loneProject := artifactProject(lone)
	c.must(204, "DELETE", "/projects/"+loneProject+"/assemblies/1.0-1", nil)
	card = c.obj("POST", "/applications", map[string]any{"display-name": "skeleton",
		"source": map[string]any{"type": "repository", "image-id": loneProject}})
	card = c.waitStatus(card["id"].(string), "Running")
	if src := card["source"].(map[string]any); src["project-version-id"] != "" || src["image-id"] != loneProject {
		t.Fatalf("skeleton source %v", src)
	}
}

func TestDebugInfo(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	info := c.obj("POST", "/applications/"+d.AppID+"/actions/debug", nil)
	if len(info["debug-token"].(string)) < 16 || !strings.HasPrefix(info["debug-address"].(string), "wss://") ||
		!strings.HasPrefix(info["client-debug-address"].(string), "wss://") {
		t.Fatalf("debug info %v", info)
	}
	if again := c.obj("POST", "/applications/"+d.AppID+"/actions/debug", nil); again["debug-token"] == info["debug-token"] {
		t.Fatal("debug tokens must be one-time")
	}
	s.SetDebugEnabled(false)
	if st, _ := c.do("POST", "/applications/"+d.AppID+"/actions/debug", nil); st != 400 {
		t.Fatalf("debug disabled: HTTP %d", st)
	}
}
