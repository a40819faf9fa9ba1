package deploy_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// historySample is one apply as the history file keeps it.
type historySample struct {
	Lo, Hi float64
	Exact  bool
}

// readHistory is the history beside the registry in dataDir: each
// application's project and applies, by "stand app-id".
func readHistory(t *testing.T, dataDir string) map[string]struct {
	Project string
	Applies []historySample
} {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dataDir, deploy.ApplyHistoryFile))
	if err != nil {
		t.Fatalf("no apply history: %v", err)
	}
	var f struct {
		Apps map[string]struct {
			Project string
			Applies []historySample
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Apps
}

// applyTook is how long an apply of 40 s of stand time takes at speed
// 0.01, in seconds: what the platform's stamps say.
const applyTook = 0.4

// Each deploy leaves the length of its apply in the history beside the
// registry, under the stand and the application, measured by the
// platform's stamps (the apply task's start and end) to the millisecond.
// (How the waits use it is proved on the fake clock: applyplan_test.go.)
func TestDeployRemembersHowLongTheApplyTook(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 40 * time.Second}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	ops, log := opsFor(t, s, map[string]string{"ELEMCTL_DATA_DIR": dataDir})
	for i := 1; i <= 3; i++ {
		r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
			ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
		if err != nil || !r.OK() {
			t.Fatalf("deploy %d: %v\n%s", i, err, log)
		}
		entry := readHistory(t, dataDir)[s.URL()+" "+demo.AppID]
		if len(entry.Applies) != i || entry.Project != demo.ProjectID {
			t.Fatalf("after deploy %d the history holds %+v", i, entry)
		}
		last := entry.Applies[i-1]
		if !last.Exact || math.Abs(last.Lo-applyTook) > 0.002 || last.Hi != last.Lo {
			t.Errorf("deploy %d: the apply measured as %+v, the stand took %.3f s", i, last, applyTook)
		}
	}
	// The first deploy had nothing to go by; the later ones had the first's
	// measurement.
	if want := i18n.T(context.Background(), "deploy.forecast-application"); !log.has(want) {
		t.Errorf("no deploy told its forecast by the application's applies (%q):\n%s", want, log)
	}
}

// A new application's first deploy, from a machine that never deployed,
// on a stand where another application applied before: the platform's
// record of that apply forecasts it; a deploy to a third application from
// the first machine goes by its own measurement of the project's other
// application.
func TestFirstDeployOfAnApplicationIsForecast(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 40 * time.Second}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	deployTo := func(ops *deploy.Ops, log *lines, appID string) {
		t.Helper()
		r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: appID, AppIDSource: deploy.SourceFlag,
			ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
		if err != nil || !r.OK() {
			t.Fatalf("deploy to %s: %v\n%s", appID, err, log)
		}
	}
	newApp := func(ops *deploy.Ops, name string) string {
		t.Helper()
		src, err := ops.SelectSource(context.Background(), deploy.CreateOptions{Name: name, ProjectID: demo.ProjectID, LatestBuild: true})
		if err != nil {
			t.Fatal(err)
		}
		c, err := ops.Create(context.Background(), deploy.CreateOptions{Name: name, ProjectID: demo.ProjectID, Wait: true}, src)
		if err != nil || c.WaitError != nil {
			t.Fatalf("create %s: %v %v", name, err, c.WaitError)
		}
		return c.Card.Str("id")
	}

	first, firstLog := opsFor(t, s, nil)
	deployTo(first, firstLog, demo.AppID) // the stand's first apply ever
	if firstLog.has(i18n.T(context.Background(), "deploy.forecast-stand")) || firstLog.has(i18n.T(context.Background(), "deploy.forecast-application")) {
		t.Errorf("the first apply on the stand had a forecast:\n%s", firstLog)
	}

	fresh, freshLog := opsFor(t, s, nil)
	other := newApp(fresh, "forecast-new")
	deployTo(fresh, freshLog, other)
	if want := i18n.T(context.Background(), "deploy.forecast-stand"); !freshLog.has(want) {
		t.Errorf("a new application's first deploy was not forecast by the stand's record (%q):\n%s", want, freshLog)
	}

	first2, first2Log := opsFor(t, s, map[string]string{"ELEMCTL_DATA_DIR": dataDirOf(t, first)})
	third := newApp(first2, "forecast-third")
	deployTo(first2, first2Log, third)
	if want := i18n.T(context.Background(), "deploy.forecast-project"); !first2Log.has(want) {
		t.Errorf("a machine that deployed the project before did not go by it (%q):\n%s", want, first2Log)
	}
}

// dataDirOf is the data directory (ELEMCTL_DATA_DIR) of operations opsFor
// made.
func dataDirOf(t *testing.T, ops *deploy.Ops) string {
	t.Helper()
	if ops.Registry == nil || ops.Registry.Path() == "" {
		t.Fatal("the operations have no registry")
	}
	return filepath.Dir(ops.Registry.Path())
}

// The platform's record is read once, and only for so long: a task list
// that does not come within half a Budget is given up, and the wait goes
// without a forecast rather than start late.
func TestAForecastReadThatHangsIsGivenUp(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 40 * time.Second}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	deployTo := func(ops *deploy.Ops, log *lines) {
		t.Helper()
		r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
			ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
		if err != nil || !r.OK() {
			t.Fatalf("deploy: %v\n%s", err, log)
		}
	}
	first, firstLog := opsFor(t, s, nil)
	deployTo(first, firstLog) // an apply on the stand's record
	if err := s.AddFault(stand.Fault{Name: "slow tasks", Method: "GET", Path: "/console/api/v2/tasks/application-tasks",
		Nth: 1, Effect: stand.EffectDelay, Delay: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	fresh, freshLog := opsFor(t, s, nil)
	deployTo(fresh, freshLog)
	if len(s.Firings()) != 1 {
		t.Fatalf("the task list was not held: %v", s.Firings())
	}
	if freshLog.has(i18n.T(context.Background(), "deploy.forecast-stand")) || freshLog.has(i18n.T(context.Background(), "deploy.forecast-platform")) {
		t.Errorf("a forecast from a task list that never came:\n%s", freshLog)
	}
}
