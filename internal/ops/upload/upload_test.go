package upload_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

func newClient(t *testing.T, s *stand.Stand) *platform.Client {
	t.Helper()
	return newClientTimingOut(t, s, 10*time.Second)
}

// newClientTimingOut is a client whose requests time out after timeout,
// which is also how long a read-back looks for an unanswered change.
func newClientTimingOut(t *testing.T, s *stand.Stand, timeout time.Duration) *platform.Client {
	t.Helper()
	ctx := context.Background()
	cfg := &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, Timeout: timeout}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// demoArchive is a build of the demo project (same Ид) with the given
// version and presentation, written to a file.
func demoArchive(t *testing.T, version, presentation string) string {
	t.Helper()
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: version,
		ID: stand.DemoConfigurationID, Presentation: presentation, CommitID: "c0ffee1", BranchName: "main"})
	path := filepath.Join(t.TempDir(), stand.DemoName+" "+version+".xasm")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func testRegistry(t *testing.T) *registry.Registry {
	dir := t.TempDir()
	return registry.New(func(k string) string {
		if k == "ELEMCTL_DATA_DIR" {
			return dir
		}
		return ""
	}, "linux")
}

func TestUploadIntoProjectIsNumberedAndRecorded(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	reg := testRegistry(t)
	file := demoArchive(t, "1.0-77", stand.DemoPresentation)
	res, err := upload.Upload(context.Background(), cl, upload.Options{File: file, ProjectID: demo.ProjectID, GuardRename: true,
		Record: &upload.Record{Registry: reg, Command: registry.CommandBuildUpload, Elemctl: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerVersion != "1.0-4" || res.ArchiveVersion != "1.0-77" || !res.Renumbered() || res.Version != "1.0-4" {
		t.Errorf("versions: server %q archive %q version %q", res.ServerVersion, res.ArchiveVersion, res.Version)
	}
	if res.AssemblyID == "" || res.ProjectID != demo.ProjectID || res.Route != registry.RouteProject || res.Project != nil {
		t.Errorf("result: %+v", res)
	}
	var sawCommit bool
	for _, c := range s.Calls() {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/projects/"+demo.ProjectID+"/assemblies") {
			sawCommit = strings.Contains(c.RawQuery, "commit-id=c0ffee1") && !strings.Contains(c.RawQuery, "branch")
		}
	}
	if !sawCommit {
		t.Error("the upload did not send the manifest's commit as commit-id (or sent a branch)")
	}
	entries := reg.Read()
	if len(entries) != 1 {
		t.Fatalf("registry: %d lines", len(entries))
	}
	e := entries[0]
	if e.AssemblyID != res.AssemblyID || e.ProjectID != demo.ProjectID || e.Version != "1.0-4" || e.Branch != "main" ||
		e.Commit != "c0ffee1" || e.Route != registry.RouteProject || e.Command != registry.CommandBuildUpload ||
		e.Stand != s.URL() || e.File == nil || *e.File != file || e.Dirty != nil {
		t.Errorf("registry line: %+v", e)
	}
}

func TestRenameGuard(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	file := demoArchive(t, "1.0-9", "Другое имя")
	before := len(s.Snapshot().Builds)
	_, err = upload.Upload(context.Background(), cl, upload.Options{File: file, ProjectID: demo.ProjectID, GuardRename: true})
	if !platform.IsConfig(err) || !strings.Contains(err.Error(), "--force-rename") {
		t.Fatalf("want a refusal naming --force-rename, got %v", err)
	}
	if after := len(s.Snapshot().Builds); after != before {
		t.Fatalf("a refused upload reached the stand: %d builds, was %d", after, before)
	}
	var logged []string
	res, err := upload.Upload(context.Background(), cl, upload.Options{File: file, ProjectID: demo.ProjectID, GuardRename: true,
		ForceRename: true, Log: func(s string) { logged = append(logged, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.RenamedFrom != stand.DemoPresentation || len(logged) != 1 || !strings.Contains(logged[0], "Другое имя") {
		t.Errorf("renamed from %q, log %q", res.RenamedFrom, logged)
	}
}

func TestUploadWithoutProjectID(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	ctx := context.Background()

	// Same Ид, same presentation: the existing project, not created.
	res, err := upload.Upload(ctx, cl, upload.Options{File: demoArchive(t, "1.0-500", stand.DemoPresentation)})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Project
	if l == nil || l.ID != demo.ProjectID || l.Created == nil || *l.Created || l.RenamedFrom != nil ||
		l.FoundBy != "response" || l.ConfigurationID != stand.DemoConfigurationID {
		t.Fatalf("landed: %+v", l)
	}
	if res.Version != "1.0-500" || res.Renumbered() || res.Route != registry.RouteNoProjectID {
		t.Errorf("version %q renumbered %v route %q", res.Version, res.Renumbered(), res.Route)
	}
	if !strings.Contains(l.Line(ctx), demo.ProjectID) {
		t.Errorf("line %q", l.Line(ctx))
	}

	// Same Ид, another presentation: the project is renamed.
	res, err = upload.Upload(ctx, cl, upload.Options{File: demoArchive(t, "1.0-600", "Новое имя"), SpaceID: demo.SpaceID})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Project; l.RenamedFrom == nil || *l.RenamedFrom != stand.DemoPresentation || l.Name != "Новое имя" {
		t.Fatalf("rename: %+v", l)
	}
	var viaSpace bool
	for _, c := range s.Calls() {
		viaSpace = viaSpace || c.Method == "POST" && c.Path == "/console/api/v2/spaces/"+demo.SpaceID+"/projects"
	}
	if !viaSpace {
		t.Error("an upload with a space and no project id did not use POST /spaces/{id}/projects")
	}

	// A fresh Ид and vendor/name: a new project.
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: "Globex", Name: "Fresh", Version: "2.0-1", ID: "11111111-2222-4333-8444-555555555555"})
	res, err = upload.Upload(ctx, cl, upload.Options{File: "fresh.xasm", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Project; l.ID == "" || l.ID == demo.ProjectID || l.Created == nil || !*l.Created {
		t.Fatalf("fresh: %+v", l)
	}
}

func TestFindBuildProject(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	ids, err := s.SeedBuilds(demo.ProjectID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := upload.FindBuildProject(context.Background(), cl, ids[0], nil)
	if err != nil || p == nil || p.Str("id") != demo.ProjectID {
		t.Fatalf("found %v, %v", p, err)
	}
	p, err = upload.FindBuildProject(context.Background(), cl, "00000000-0000-4000-8000-000000000000", []string{demo.ProjectID})
	if err != nil || p != nil {
		t.Fatalf("a missing build was found: %v, %v", p, err)
	}
}

func TestRegistryFailureIsAWarning(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The data directory is a file: the registry cannot be written.
	reg := registry.New(func(k string) string {
		if k == "ELEMCTL_DATA_DIR" {
			return filepath.Join(blocker, "sub")
		}
		return ""
	}, "linux")
	var logged []string
	res, err := upload.Upload(context.Background(), cl, upload.Options{File: demoArchive(t, "1.0-5", stand.DemoPresentation),
		ProjectID: demo.ProjectID, Record: &upload.Record{Registry: reg, Command: registry.CommandBuildUpload},
		Log: func(s string) { logged = append(logged, s) }})
	if err != nil {
		t.Fatalf("a registry failure failed the upload: %v", err)
	}
	if res.AssemblyID == "" || res.RegistryWarning == "" || len(logged) != 1 {
		t.Fatalf("result %+v, log %q", res, logged)
	}
}

// An archive on disk is sent as it is read, with its length: an upload of
// tens of megabytes does not hold the archive in memory, and the platform
// gets it whole.
func TestUploadStreamsTheArchiveFromDisk(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	const size = 48 << 20
	path := filepath.Join(t.TempDir(), "big.xasm")
	func() {
		noise := make([]byte, size)
		rand.New(rand.NewSource(1)).Read(noise)
		files := map[string]string{}
		for i := range 4 { // resources of 12 MB: the platform reads no larger entry
			files[fmt.Sprintf("Ресурсы/noise%d.bin", i)] = string(noise[i*size/4 : (i+1)*size/4])
		}
		data := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-1",
			ID: stand.DemoConfigurationID, Presentation: "Задачи команды", Files: files})
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}()
	cl := newClient(t, s)
	ctx := context.Background()
	if _, err := cl.ListBuilds(ctx, demo.ProjectID); err != nil { // the connection and the token
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := upload.Upload(ctx, cl, upload.Options{File: path, ProjectID: demo.ProjectID})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// The stand in this process spools the upload to disk as it arrives;
	// both sides together allocate far less than the archive.
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > size/4 {
		t.Errorf("uploading %d bytes allocated %d", size, allocated)
	}
	sent, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := s.BuildArchive(res.AssemblyID)
	if err != nil || !bytes.Equal(stored, sent) {
		t.Fatalf("the stand holds %d bytes of the %d sent (%v)", len(stored), len(sent), err)
	}
}

// An upload without a project id whose connection broke before the
// platform read it is looked for only where it could have gone (a project
// it made, or the one of the archive's Ид): a build of the same version
// that another project took a moment before is not taken for it.
func TestALostUploadIsNotFoundInAProjectItCannotHaveGoneTo(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	if _, err := s.SeedDemo(); err != nil {
		t.Fatal(err)
	}
	cl := newClientTimingOut(t, s, 2*time.Second)
	ctx := context.Background()

	const version = "1.0-700"
	other := stand.MakeArchive(stand.ArchiveSpec{Vendor: "Globex", Name: "Other", Version: version,
		ID: "22222222-3333-4444-8555-666666666666", Presentation: "Other"})
	res, err := upload.Upload(ctx, cl, upload.Options{File: "other.xasm", Data: other})
	if err != nil {
		t.Fatal(err)
	}
	otherID := res.ProjectID
	if err := s.AddFault(stand.Fault{Method: "POST", Path: "/console/api/v2/projects", Nth: 1, Effect: stand.EffectResetBefore}); err != nil {
		t.Fatal(err)
	}
	res, err = upload.Upload(ctx, cl, upload.Options{File: demoArchive(t, version, stand.DemoPresentation)})
	if err == nil {
		t.Fatalf("an upload the platform never read was reported as landed in project %s (the other project is %s)", res.ProjectID, otherID)
	}
	if strings.Contains(err.Error(), otherID) {
		t.Errorf("the error names the other project: %v", err)
	}
}
