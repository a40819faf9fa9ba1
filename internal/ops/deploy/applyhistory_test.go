package deploy_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// Each deploy leaves the length of its apply in the history beside the
// registry, under the stand and the application. (How the waits use it is
// proved on the fake clock: applyplan_test.go.)
func TestDeployRemembersHowLongTheApplyTook(t *testing.T) {
	// An apply of 40 s of stand time takes 0.4 s here; the poll pauses are
	// scaled by 0.02 (a window step of 8 ms), so the measurement below is
	// in real time.
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 40 * time.Second}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	ops, log := opsFor(t, s, map[string]string{"ELEMCTL_DATA_DIR": dataDir})
	type file struct {
		Apps map[string]struct {
			Applies []struct{ Lo, Hi float64 }
		}
	}
	read := func() []struct{ Lo, Hi float64 } {
		data, err := os.ReadFile(filepath.Join(dataDir, deploy.ApplyHistoryFile))
		if err != nil {
			t.Fatalf("no apply history: %v\n%s", err, log)
		}
		var f file
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		return f.Apps[s.URL()+" "+demo.AppID].Applies
	}
	for i := 1; i <= 3; i++ {
		r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
			ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
		if err != nil || !r.OK() {
			t.Fatalf("deploy %d: %v\n%s", i, err, log)
		}
		applies := read()
		if len(applies) != i {
			t.Fatalf("after deploy %d the history holds %v", i, applies)
		}
		last := applies[i-1]
		// The apply ends 0.4 s after the stand accepted it, a moment
		// before the wait began.
		if last.Lo > 0.4 || last.Hi < 0.2 || last.Hi > 2 {
			t.Errorf("deploy %d: the apply measured as ended between %.3f and %.3f s, the stand took 0.4 s", i, last.Lo, last.Hi)
		}
		t.Logf("deploy %d: ended between %.3f and %.3f s", i, last.Lo, last.Hi)
	}
}
