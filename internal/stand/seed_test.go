package stand_test

import (
	"archive/zip"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

const demoDir = "../../examples/demo/Acme/Tasks"

// The demo seed hard-codes the shipped project's facts; they must match.
func TestSeedDemoMatchesShippedProject(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(demoDir, "Проект.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
			facts[k] = strings.TrimSpace(v)
		}
	}
	for key, want := range map[string]string{"Ид": stand.DemoConfigurationID, "Поставщик": stand.DemoVendor, "Имя": stand.DemoName,
		"Представление": stand.DemoPresentation, "Версия": stand.DemoBase} {
		if facts[key] != want {
			t.Errorf("%s: the file says %q, the seed %q", key, facts[key], want)
		}
	}

	s, c := start(t, stand.Options{})
	d := c.createDemo()
	if d.AppName != "tasks-demo" || d.SpaceID == "" {
		t.Fatalf("demo info %+v", d)
	}
	if again := c.createDemo(); again != d {
		t.Fatalf("a second SeedDemo made %+v, first %+v", again, d)
	}
	if got := c.versions(d.ProjectID); !slices.Equal(got, []string{"1.0-1", "1.0-2", "1.0-3"}) {
		t.Fatalf("demo builds %v", got)
	}
	proj := c.obj("GET", "/projects/"+d.ProjectID, nil)
	if proj["name"] != stand.DemoPresentation || proj["project-kind"] != "Application" || proj["space-id"] != d.SpaceID {
		t.Fatalf("demo project %v", proj)
	}
	card := c.obj("GET", "/applications/"+d.AppID, nil)
	if card["status"] != "Running" || card["uri"] == nil || card["source"].(map[string]any)["project-version"] != "1.0-3" {
		t.Fatalf("demo app %v", card)
	}
	// The first build created the project through the no-project-id route.
	sn := s.Snapshot()
	for _, b := range sn.Builds {
		if b.Version == "1.0-1" && (b.Route != "no-project-id" || !b.Protected) {
			t.Fatalf("first demo build %+v", b)
		}
	}
	// The exported descriptor is the shipped one, byte for byte.
	archive := c.must(200, "POST", "/applications/"+d.AppID+"/project/export", nil).(string)
	zr, err := zip.NewReader(strings.NewReader(archive), int64(len(archive)))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range zr.File {
		if f.Name == "Acme/Tasks/Проект.yaml" {
			rc, _ := f.Open()
			got, _ := io.ReadAll(rc)
			rc.Close()
			found = string(got) == string(data)
		}
	}
	if !found {
		t.Fatal("the demo archive does not carry the shipped Проект.yaml")
	}
	// The demo can be applied and compiled like any build.
	c.apply(d.AppID, sn.Builds[len(sn.Builds)-2].ID)
	c.waitStatus(d.AppID, "Running")
	if f := failedTasks(c, d.AppID); len(f) != 0 {
		t.Fatalf("the demo does not compile: %v", f)
	}
}

func TestSeedAppsAndBuilds(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	if err := s.SeedApps(5000, 500); err != nil {
		t.Fatal(err)
	}
	apps := c.list("/applications")
	live := 0
	for _, a := range apps {
		if a["status"] != "Deleted" {
			live++
		}
	}
	if len(apps) != 5001 || live != 501 {
		t.Fatalf("%d apps, %d live", len(apps), live)
	}
	ids, err := s.SeedBuilds(d.ProjectID, 2000)
	if err != nil || len(ids) != 2000 {
		t.Fatalf("SeedBuilds: %d ids, %v", len(ids), err)
	}
	if got := c.versions(d.ProjectID); len(got) != 2003 || got[2002] != "1.0-2003" {
		t.Fatalf("%d builds, last %s", len(got), got[len(got)-1])
	}
	if err := s.SeedApps(1, 2); err == nil {
		t.Fatal("SeedApps(1, 2) must fail")
	}
	if _, err := s.SeedBuilds("nope", 1); err == nil {
		t.Fatal("SeedBuilds of an unknown project must fail")
	}
}

func TestSnapshotIsADeepCopy(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	sn := s.Snapshot()
	if len(sn.Apps) != 1 || sn.Apps[0].Status != "Running" || len(sn.Spaces) != 1 || len(sn.Tasks) != 1 || len(sn.UserLists) != 2 {
		t.Fatalf("snapshot %d apps / %d spaces / %d tasks / %d lists", len(sn.Apps), len(sn.Spaces), len(sn.Tasks), len(sn.UserLists))
	}
	sn.Apps[0].UserLists[0] = "changed"
	sn.Apps[0].TokenAccess["x"] = true
	sn.Projects[1].Counters["1.0"] = 99
	again := s.Snapshot()
	if again.Apps[0].UserLists[0] == "changed" || again.Apps[0].TokenAccess["x"] || again.Projects[1].Counters["1.0"] == 99 {
		t.Fatal("the snapshot shares memory with the stand")
	}
	_ = d
}

func TestStateFileRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "stand.json")
	opts := stand.Options{StateFile: file, Speed: 0.001, Durations: stand.Durations{Create: 150 * time.Second}, ClientSecret: "s"}
	s1, err := stand.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s1.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	c1 := &client{t: t, s: s1, base: s1.URL(), plain: (&client{}).plainClient()}
	c1.tok = c1.newToken()
	d := c1.createDemo()
	extra := c1.uploadInto(d.ProjectID, sample("x"))
	pending := c1.obj("POST", "/applications", map[string]any{"display-name": "resumed",
		"source": map[string]any{"type": "repository", "project-version-id": extra["id"]}})["id"].(string)
	tasksBefore := len(c1.list("/tasks/application-tasks"))
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	s2, c2 := start(t, opts)
	// Tokens of the old process are not known to the new one.
	c2.tok = c1.tok
	if st, _ := c2.do("GET", "/applications", nil); st != 401 {
		t.Fatalf("old token after restart: HTTP %d", st)
	}
	c2.tok = c2.newToken()
	if got := c2.obj("GET", "/applications/"+d.AppID, nil)["status"]; got != "Running" {
		t.Fatalf("demo app after restart: %v", got)
	}
	c2.waitStatus(pending, "Running") // the creation in progress resumed
	if got := c2.versions(d.ProjectID); !slices.Equal(got, []string{"1.0-1", "1.0-2", "1.0-3", "1.0-4"}) {
		t.Fatalf("builds after restart: %v", got)
	}
	if got := len(c2.list("/tasks/application-tasks")); got != tasksBefore {
		t.Fatalf("tasks %d → %d", tasksBefore, got)
	}
	// Counters survive: the next number continues.
	if got := c2.uploadInto(d.ProjectID, sample("x"))["assembly-version"]; got != "1.0-5" {
		t.Fatalf("next number after restart: %v", got)
	}
	// Archives survive: export still works.
	if m := manifestOf(t, c2.must(200, "POST", "/applications/"+pending+"/project/export", nil)); m["Version"] != "1.0-4" {
		t.Fatalf("export after restart: %v", m)
	}
	_ = s2

	if err := os.WriteFile(file, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := stand.New(opts); err == nil {
		t.Fatal("a broken state file must be refused")
	}
}

func TestHandlerServedElsewhereAndConcurrently(t *testing.T) {
	s, err := stand.New(stand.Options{Speed: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() // its store of archives goes with it
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	c := &client{t: t, s: s, base: srv.URL, plain: (&client{}).plainClient()}
	c.tok = c.newToken()
	d := c.createDemo()
	// Without Listen the uri follows the request's host.
	if uri := c.obj("GET", "/applications/"+d.AppID, nil)["uri"]; uri != srv.URL+"/applications/tasks-demo" {
		t.Fatalf("uri %v", uri)
	}
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, body := c.do("POST", "/applications", map[string]any{"display-name": fmt.Sprintf("par-%d", i),
				"source": map[string]any{"type": "repository", "project-version-id": build}})
			if st != 200 {
				errs <- string(body)
			}
			for range 5 {
				if st, body := c.do("GET", "/applications", nil); st != 200 {
					errs <- string(body)
				}
				if st, body := c.do("GET", "/tasks/application-tasks", nil); st != 200 {
					errs <- string(body)
				}
			}
			_ = s.Snapshot()
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if n := len(c.list("/applications")); n != 9 {
		t.Fatalf("%d applications, want 9", n)
	}
}

func TestStateFileKeepsCredentialsAddressAndDemo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	first, err := stand.New(stand.Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	demo, err := first.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimPrefix(first.URL(), "http://")
	secret := first.ClientSecret()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := stand.New(stand.Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.ClientSecret() != secret || again.ClientID() != stand.DefaultClientID {
		t.Errorf("credentials after a restart: %q/%q, were %q/%q", again.ClientID(), again.ClientSecret(), stand.DefaultClientID, secret)
	}
	if again.LastAddress() != addr {
		t.Errorf("last address %q, want %q", again.LastAddress(), addr)
	}
	if got, ok := again.Demo(); !ok || got != demo {
		t.Errorf("demo after a restart: %+v %v, want %+v", got, ok, demo)
	}

	// Credentials given explicitly win and are kept from then on.
	explicit, err := stand.New(stand.Options{StateFile: file, ClientSecret: "given"})
	if err != nil {
		t.Fatal(err)
	}
	explicit.Close()
	kept, err := stand.New(stand.Options{StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	if kept.ClientSecret() != "given" {
		t.Errorf("secret %q, want the one given last", kept.ClientSecret())
	}
}

func TestEnsureAddsOnlyWhatIsMissing(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	s, c := start(t, stand.Options{StateFile: state})
	bulk, err := s.EnsureApps(5, 20)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureBuilds(bulk.ProjectID, 12); err != nil {
		t.Fatal(err)
	}
	count := func() (live, deleted, builds int) {
		for _, a := range c.list("/applications") {
			if a["status"] == "Deleted" {
				deleted++
			} else {
				live++
			}
		}
		return live, deleted, len(c.versions(bulk.ProjectID))
	}
	if live, deleted, builds := count(); live != 5 || deleted != 20 || builds != 12 {
		t.Fatalf("%d live, %d deleted applications, %d builds; want 5, 20, 12", live, deleted, builds)
	}
	// Each application comes with its creation's task, a tombstone with
	// its deletion's too, finished, as a stand that made them lists them.
	tasks := func() (created, deleted int) {
		for _, task := range c.list("/tasks/application-tasks") {
			if task["status"] != "Completed" {
				t.Fatalf("a seeded task %v", task)
			}
			switch task["operation-type"] {
			case "CreateApplication":
				created++
			case "DeleteApplication":
				deleted++
			}
		}
		return created, deleted
	}
	if created, deleted := tasks(); created != 25 || deleted != 20 {
		t.Fatalf("%d creations and %d deletions listed; want 25 and 20", created, deleted)
	}
	// Asked again, on a restarted stand too: nothing twice; more adds the rest.
	s.Close()
	s, c = start(t, stand.Options{StateFile: state})
	c.s = s
	again, err := s.EnsureApps(5, 25)
	if err != nil || again != bulk {
		t.Fatalf("the bulk project after a restart: %+v %v, was %+v", again, err, bulk)
	}
	if err := s.EnsureBuilds(bulk.ProjectID, 10); err != nil {
		t.Fatal(err)
	}
	if live, deleted, builds := count(); live != 5 || deleted != 25 || builds != 12 {
		t.Fatalf("%d live, %d deleted applications, %d builds; want 5, 25, 12", live, deleted, builds)
	}
	if created, deleted := tasks(); created != 30 || deleted != 25 {
		t.Fatalf("%d creations and %d deletions listed after the restart; want 30 and 25", created, deleted)
	}
	if _, err := s.EnsureApps(-1, 0); err == nil {
		t.Fatal("a negative count must be refused")
	}
	if err := s.EnsureBuilds("nope", 1); err == nil {
		t.Fatal("builds of an unknown project must be refused")
	}
}
