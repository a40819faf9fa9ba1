package deploy_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/ops/registry"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// lines collects progress lines and lets a test react to one.
type lines struct {
	mu    sync.Mutex
	all   []string
	react func(string)
}

func (l *lines) add(line string) {
	l.mu.Lock()
	l.all = append(l.all, line)
	react := l.react
	l.mu.Unlock()
	if react != nil {
		react(line)
	}
}

func (l *lines) has(fragment string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.all {
		if strings.Contains(line, fragment) {
			return true
		}
	}
	return false
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.all, "\n")
}

// opsFor wires the operations the way the CLI does, against a stand, with
// the poll pauses scaled down and a private registry.
func opsFor(t *testing.T, s *stand.Stand, extraEnv map[string]string) (*deploy.Ops, *lines) {
	t.Helper()

	ctx := context.Background()
	env := map[string]string{
		"ELEMCTL_DATA_DIR":  t.TempDir(),
		deploy.PollScaleVar: "0.02",
	}
	for k, v := range extraEnv {
		env[k] = v
	}
	getenv := func(name string) string { return env[name] }
	cl, err := platform.NewClient(ctx, &platform.Config{BaseURL: s.URL(), ClientID: s.ClientID(), ClientSecret: s.ClientSecret(),
		TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: 10 * time.Second}, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	log := &lines{}
	return &deploy.Ops{
		Client: cl, Clock: deploy.RealClock, Poll: deploy.PolicyFromEnv(getenv), Log: log.add,
		Registry: registry.New(getenv, runtime.GOOS), Getenv: getenv, Version: "test",
	}, log
}

// demoCopy is a copy of the demo project (testio.DemoCopy).
func demoCopy(t *testing.T, edit func(dir string)) string { return testio.DemoCopy(t, edit) }

// breakSource adds a compile error marker to a source file.
func breakSource(dir string) { testio.BreakDemoSource(dir) }

// ids of a snapshot's applications, builds and projects.
type stateIDs struct{ apps, builds, projects map[string]bool }

func idsOf(sn stand.Snapshot) stateIDs {
	out := stateIDs{map[string]bool{}, map[string]bool{}, map[string]bool{}}
	for _, a := range sn.Apps {
		out.apps[a.ID] = true
	}
	for _, b := range sn.Builds {
		out.builds[b.ID] = true
	}
	for _, p := range sn.Projects {
		out.projects[p.ID] = true
	}
	return out
}

// assertNothingLeft fails when the stand holds a live application, build
// or project that was not there before: deleted applications stay listed
// as tombstones, as on the platform, but nothing the run made may live.
func assertNothingLeft(t *testing.T, s *stand.Stand, before stateIDs) {
	t.Helper()
	sn := s.Snapshot()
	for _, a := range sn.Apps {
		if !before.apps[a.ID] && a.Status != "Deleted" {
			t.Errorf("application %s (%s) left in status %s", a.ID, a.DisplayName, a.Status)
		}
	}
	for _, b := range sn.Builds {
		if !before.builds[b.ID] && !b.Deleted {
			t.Errorf("build %s (%s) left", b.ID, b.Version)
		}
	}
	for _, p := range sn.Projects {
		if !before.projects[p.ID] && !p.Deleted {
			t.Errorf("project %s (%s, %s) left", p.ID, p.Presentation, p.Kind)
		}
	}
}

func TestProbeOnAFreshStandRemovesAppBuildAndProject(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	before := idsOf(s.Snapshot())
	ops, log := opsFor(t, s, nil)
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, breakSource)})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if r.OK || len(r.Errors) != 1 || r.Errors[0].File != "Основное/Задачи.xbsl" || r.Errors[0].Line == 0 || r.Errors[0].Column != 1 {
		t.Fatalf("verdict %+v", r)
	}
	if r.ProjectCreated == nil || !*r.ProjectCreated {
		t.Fatalf("the probe's upload should have created the project: %+v", r)
	}
	c := r.Cleanup
	if len(c.Problems) > 0 || !*c.AppDeleted || !*c.AssemblyDeleted || !*c.ProjectDeleted {
		t.Fatalf("cleanup %+v\n%s", c, log)
	}
	assertNothingLeft(t, s, before)
}

func TestProbeBesideTheDemoKeepsItsProject(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	before := idsOf(s.Snapshot())
	ops, log := opsFor(t, s, map[string]string{"ELEMENT_APP_ID": demo.AppID, "ELEMENT_PROJECT_ID": demo.ProjectID})
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, nil)})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if !r.OK || r.Status != "Running" || len(r.Errors) != 0 {
		t.Fatalf("a clean project failed the probe: %+v\n%s", r, log)
	}
	if r.ProjectID != demo.ProjectID || r.ProjectCreated == nil || *r.ProjectCreated {
		t.Fatalf("the build should land in the demo project (same Ид): %+v", r)
	}
	if r.Cleanup.ProjectDeleted != nil {
		t.Fatalf("a project the probe did not create is never tried: project-deleted %v", *r.Cleanup.ProjectDeleted)
	}
	assertNothingLeft(t, s, before)
	sn := s.Snapshot()
	for _, a := range sn.Apps {
		if a.ID == demo.AppID && a.Status != "Running" {
			t.Errorf("the demo application was touched: %s", a.Status)
		}
	}
}

func TestProbeKeepThenCleanupLeavesNothing(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	before := idsOf(s.Snapshot())
	ops, log := opsFor(t, s, nil)
	// The hints are spelled as the command line does, with its .env.
	ops.Hint = (&command.Context{EnvFile: "my env/.env"}).Hint
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, nil), Keep: true})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	c := r.Cleanup
	if !c.Kept || c.Command != "elemctl probe --cleanup "+r.AppID+` --env-file "my env/.env"` || len(c.Steps) != 3 {
		t.Fatalf("kept cleanup %+v", c)
	}
	if !strings.HasPrefix(c.Steps[0], "elemctl apps delete "+r.AppID) || !strings.HasPrefix(c.Steps[2], "elemctl projects delete "+r.ProjectID) {
		t.Errorf("steps %q", c.Steps)
	}
	live := 0
	for _, a := range s.Snapshot().Apps {
		if a.ID == r.AppID && a.Status == "Running" {
			live++
		}
	}
	if live != 1 {
		t.Fatal("--keep did not keep the application")
	}

	rep, err := ops.CleanupLeftover(context.Background(), r.AppName, deploy.CleanupGuard{})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if ok, _ := rep.Value("ok").(bool); !ok || rep.Value("project-deleted") != true || rep.Value("app-deleted") != true {
		t.Fatalf("cleanup report %v\n%s", rep, log)
	}
	assertNothingLeft(t, s, before)

	// A second cleanup of the same tombstone finds nothing to do and is
	// fine: it claims no build it did not remove, and the project is gone.
	rep, err = ops.CleanupLeftover(context.Background(), r.AppID, deploy.CleanupGuard{})
	if err != nil {
		t.Fatal(err)
	}
	builds, _ := rep.Value("builds").([]any)
	if ok, _ := rep.Value("ok").(bool); !ok || len(builds) != 0 || rep.Value("project-deleted") != true {
		t.Fatalf("repeated cleanup %v", rep)
	}
}

// A probe application known only through an older registry line – the
// probe's upload, without the application's id – goes together with the
// build it runs, that upload.
func TestCleanupRemovesTheBuildAnOldProbeLineNames(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	ctx := context.Background()
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: "Acme", Name: "Tasks", Version: "1.0-7"})
	up, err := upload.Upload(ctx, ops.Client, upload.Options{File: "old.xasm", Data: data, ProjectID: demo.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ops.Client.Post(ctx, "/applications", jsonx.New("display-name", "old-check", "publication-context", "old-check",
		"source", jsonx.New("type", "repository", "project-version-id", up.AssemblyID)))
	if err != nil {
		t.Fatal(err)
	}
	ops.Registry.Append(ctx, registry.Entry{AssemblyID: up.AssemblyID, ProjectID: demo.ProjectID, Version: up.ServerVersion,
		Command: registry.CommandProbe, Stand: s.URL(), UploadedAt: registry.Stamp(time.Now())})

	rep, err := ops.CleanupLeftover(ctx, "old-check", deploy.CleanupGuard{})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	builds, _ := rep.Value("builds").([]any)
	if ok, _ := rep.Value("ok").(bool); !ok || len(builds) != 1 || builds[0].(*jsonx.Object).Str("id") != up.AssemblyID ||
		builds[0].(*jsonx.Object).Value("deleted") != true {
		t.Fatalf("cleanup %v\n%s", rep, log)
	}
	for _, b := range s.Snapshot().Builds {
		if b.ID == up.AssemblyID && !b.Deleted {
			t.Fatal("the probe's build is still there")
		}
	}
}

func TestCleanupRefusesWhatNoProbeLeft(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	before := idsOf(s.Snapshot())
	ops, _ := opsFor(t, s, nil)
	if _, err := ops.CleanupLeftover(context.Background(), demo.AppName, deploy.CleanupGuard{}); err == nil ||
		!strings.Contains(err.Error(), "не пробой") {
		t.Fatalf("the demo application was not refused: %v", err)
	}
	if _, err := ops.CleanupLeftover(context.Background(), demo.AppID, deploy.CleanupGuard{AppID: demo.AppID}); err == nil ||
		!strings.Contains(err.Error(), "ELEMENT_APP_ID") {
		t.Fatalf("the configuration's application was not refused: %v", err)
	}
	after := s.Snapshot()
	if len(after.Apps) != len(before.apps) || len(after.Builds) != len(before.builds) {
		t.Fatal("a refused cleanup changed the stand")
	}
}

// TestDeployWaitsOutAStartingServerAndDroppedReads is the fault test: in
// the middle of the apply wait the connection drops twice and then the
// whole console answers "console not found" for a while; the deploy waits
// it out and reports the verified apply.
func TestDeployWaitsOutAStartingServerAndDroppedReads(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 1, Durations: stand.Durations{Apply: 900 * time.Millisecond}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	ops.ServerStart = 10 * time.Second
	var once sync.Once
	log.react = func(line string) {
		if !strings.Contains(line, "применение началось") {
			return
		}
		once.Do(func() {
			path := "/console/api/v2/applications/" + demo.AppID
			from := len(s.Calls())
			s.BreakNextResponses("GET", path, 2)
			go func() {
				// The outage begins once both reads were cut short.
				for cut := 0; cut < 2; time.Sleep(5 * time.Millisecond) {
					cut = 0
					for _, c := range s.Calls()[from:] {
						if c.Method == "GET" && c.Path == path {
							cut++
						}
					}
				}
				s.SetStarting(500 * time.Millisecond)
			}()
		})
	}
	r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppName, AppIDSource: deploy.SourceFlag,
		ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if !r.OK() || r.Applied == nil || !*r.Applied {
		t.Fatalf("report %v\n%s", r.JSON(), log)
	}
	for _, want := range []string{"оборвалось", "сервер 1С:Элемент запускается", "консоль сервера поднялась", "проверка пройдена"} {
		if !log.has(want) {
			t.Errorf("no line with %q:\n%s", want, log)
		}
	}
}

func TestDeployReportsTheSilentRollback(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceEnv,
		ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceEnv, ProjectDir: demoCopy(t, breakSource)})
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	js := r.JSON()
	if r.OK() || js.Value("applied") != false || js.Value("status") != "Running" || js.Value("applied-version") != "1.0-3" {
		t.Fatalf("report %v", js)
	}
	if len(r.Problems) != 2 || !strings.Contains(r.Problems[0], "Задачи.xbsl [") || !strings.Contains(r.Problems[1], "откатила") {
		t.Fatalf("problems %q", r.Problems)
	}
	if js.Value("hint") != nil {
		t.Errorf("a located compile error needs no server-log hint: %v", js.Value("hint"))
	}
	if !log.has("проверка НЕ ПРОЙДЕНА") {
		t.Errorf("no failure line:\n%s", log)
	}
}

// An interrupted deploy keeps the application id and says how to look
// later: the platform goes on with the apply whatever elemctl does.
func TestDeployInterruptedMidWaitKeepsTheApplication(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 1, Durations: stand.Durations{Apply: time.Hour}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log.react = func(line string) {
		if strings.Contains(line, "статус Updating") {
			cancel()
		}
	}
	_, err = ops.Deploy(ctx, deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
		ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
	var ie *deploy.InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("want an interruption, got %v", err)
	}
	if !strings.Contains(err.Error(), "elemctl verify-deploy "+demo.AppID+" --version-id ") {
		t.Errorf("the message does not say how to check later: %v", err)
	}
}
