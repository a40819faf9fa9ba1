package deploy_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// cardReads is the pattern of an application card's reads.
const cardReads = "/console/api/v2/applications/*"

// A gateway's 502 on the card reads of a probe's wait is a missed poll:
// the compilation's verdict comes from the platform, and a few 502s in a
// row change nothing.
func TestProbeToleratesGatewayFailuresWhileItWaits(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	before := idsOf(s.Snapshot())
	if err := s.AddFault(stand.Fault{Method: "GET", Path: cardReads, Every: 2, Times: 4, Effect: stand.EffectStatus, Status: 502}); err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, nil)})
	if err != nil || !r.OK {
		t.Fatalf("probe: %v %+v\n%s", err, r, log)
	}
	if fired := len(s.Firings()); fired == 0 {
		t.Fatal("no 502 was given: the test proves nothing")
	}
	assertNothingLeft(t, s, before)
}

// A platform a gateway keeps away for the whole wait is an error of the
// run, not a failed compilation; the cleanup still removes everything.
func TestProbeGatewayOutageIsNoCompileFailure(t *testing.T) {
	ctx := context.Background()
	s := standtest.Start(t, stand.Options{})
	before := idsOf(s.Snapshot())
	// Exactly as many 502s as a wait tolerates: the wait gives up, the
	// cleanup's reads get through.
	if err := s.AddFault(stand.Fault{Method: "GET", Path: cardReads, Times: deploy.UnreachablePolls, Effect: stand.EffectStatus, Status: 502}); err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, nil)})
	if err == nil {
		t.Fatalf("a probe the platform never answered passed: %+v", r)
	}
	if !platform.IsTransport(err) {
		t.Errorf("want the platform's absence, got %v", err)
	}
	if failed := strings.TrimSuffix(i18n.T(ctx, "probe.failed", "count", 1), "1"); log.has(failed) {
		t.Errorf("a 502 was reported as a failed compilation:\n%s", log)
	}
	assertNothingLeft(t, s, before)
}

// One 502 on a card read during the apply's wait is tolerated like a
// network error; a deploy the platform stops answering after the apply
// says how to check the outcome later.
func TestDeployThroughGatewayFailures(t *testing.T) {
	t.Run("a few", func(t *testing.T) {
		s := standtest.Start(t, stand.Options{})
		demo, err := s.SeedDemo()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddFault(stand.Fault{Method: "GET", Path: cardReads, Every: 2, Times: 3, Effect: stand.EffectStatus, Status: 502}); err != nil {
			t.Fatal(err)
		}
		// The verification's read of the tasks too.
		if err := s.AddFault(stand.Fault{Method: "GET", Path: "/console/api/v2/tasks/application-tasks", Nth: 1,
			Effect: stand.EffectStatus, Status: 503}); err != nil {
			t.Fatal(err)
		}
		ops, log := opsFor(t, s, nil)
		r, err := ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, ProjectID: demo.ProjectID,
			ProjectDir: demoCopy(t, nil), AppIDSource: deploy.SourceFlag, ProjectIDSource: deploy.SourceFlag})
		if err != nil || !r.OK() {
			t.Fatalf("deploy: %v\n%s", err, log)
		}
		if len(s.Firings()) < 2 {
			t.Fatalf("the faults did not fire: %v", s.Firings())
		}
	})
	t.Run("for good", func(t *testing.T) {
		s := standtest.Start(t, stand.Options{Speed: 0.01})
		demo, err := s.SeedDemo()
		if err != nil {
			t.Fatal(err)
		}
		// From the apply on, the card reads get 502s only.
		arrivals, stop := s.Watch("POST", "/console/api/v2/applications/*/project/update")
		defer stop()
		go func() {
			if _, ok := <-arrivals; ok {
				_ = s.AddFault(stand.Fault{Method: "GET", Path: cardReads, Effect: stand.EffectStatus, Status: 502})
			}
		}()
		ops, log := opsFor(t, s, nil)
		_, err = ops.Deploy(context.Background(), deploy.DeployOptions{AppRef: demo.AppID, ProjectID: demo.ProjectID,
			ProjectDir: demoCopy(t, nil), AppIDSource: deploy.SourceFlag, ProjectIDSource: deploy.SourceFlag})
		if err == nil {
			t.Fatalf("a deploy the platform stopped answering passed\n%s", log)
		}
		obj := platform.ErrorObject(err)
		if hint := obj.Str("hint"); !strings.HasPrefix(hint, "elemctl verify-deploy "+demo.AppID+" --version-id ") ||
			!strings.Contains(err.Error(), hint) {
			t.Errorf("no verify-deploy hint: %v (hint %q)", err, hint)
		}
	})
}

// Interrupted while the application is busy with an earlier operation –
// every apply request so far refused – a deploy says that nothing was
// applied and how to apply the uploaded build, not that the platform goes
// on with anything.
func TestDeployInterruptedWhileBusySaysTheBuildIsNotApplied(t *testing.T) {
	s, demo, ops, log := busyDemo(t)
	before := appBuild(t, s, demo.AppID)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The interruption comes while deploy waits between two refused
	// applies: its status line after a refusal, before the pause.
	ops.Status = func(string) {
		if refusedApplies(s) > 0 {
			cancel()
		}
	}
	_, err := ops.Deploy(ctx, deploy.DeployOptions{AppRef: demo.AppID, ProjectID: demo.ProjectID,
		ProjectDir: demoCopy(t, nil), AppIDSource: deploy.SourceFlag, ProjectIDSource: deploy.SourceFlag})
	var ie *deploy.InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("want an interruption, got %v\n%s", err, log)
	}
	uploaded := newestBuild(t, s, demo.ProjectID)
	want := i18n.T(ctx, "deploy.interrupted-before-apply", "app", demo.AppID, "build", "1.0-4 ("+uploaded+")",
		"command", "elemctl apps apply "+demo.AppID+" "+uploaded)
	if ie.Message != want || ie.Hint != "elemctl apps apply "+demo.AppID+" "+uploaded {
		t.Errorf("message:\n got %s\nwant %s\nhint %q", ie.Message, want, ie.Hint)
	}
	if after := appBuild(t, s, demo.AppID); after != before {
		t.Errorf("the application went from build %s to %s", before, after)
	}
}

// Interrupted while a repeated apply request is under way – the earlier
// ones refused as busy – a deploy cannot know whether this one reached the
// platform: it says so and how to check, never that nothing was applied.
func TestDeployInterruptedWhileARepeatedApplyIsUnderWaySaysItMayHaveReached(t *testing.T) {
	s, demo, ops, log := busyDemo(t)
	// The second apply is held at the stand (until it closes) while the
	// deploy is interrupted.
	if err := s.AddFault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications/*/project/update", Nth: 2,
		Effect: stand.EffectDelay, Delay: time.Hour}); err != nil {
		t.Fatal(err)
	}
	arrivals, stop := s.Watch("POST", "/console/api/v2/applications/*/project/update")
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for n := 0; n < 2; n++ {
			select {
			case <-arrivals:
			case <-ctx.Done():
				return
			}
		}
		cancel()
	}()
	_, err := ops.Deploy(ctx, deploy.DeployOptions{AppRef: demo.AppID, ProjectID: demo.ProjectID,
		ProjectDir: demoCopy(t, nil), AppIDSource: deploy.SourceFlag, ProjectIDSource: deploy.SourceFlag})
	var ie *deploy.InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("want an interruption, got %v\n%s", err, log)
	}
	uploaded := newestBuild(t, s, demo.ProjectID)
	hint := "elemctl verify-deploy " + demo.AppID + " --version-id " + uploaded
	want := i18n.T(ctx, "deploy.interrupted-apply-under-way", "app", demo.AppID, "command", hint)
	if ie.Message != want || ie.Hint != hint {
		t.Errorf("message:\n got %s\nwant %s\nhint %q", ie.Message, want, ie.Hint)
	}
	if refused := refusedApplies(s); refused != 1 {
		t.Errorf("%d applies refused before the interruption, want 1: the held one was answered", refused)
	}
}

// busyDemo is a stand with the demo whose application is stopping for
// longer than any test runs, so every apply is refused as busy until the
// test interrupts the deploy.
func busyDemo(t *testing.T) (*stand.Stand, stand.DemoInfo, *deploy.Ops, *lines) {
	t.Helper()
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Stop: 1000 * time.Hour}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, nil)
	if _, err := ops.Client.Put(context.Background(), "/applications/"+demo.AppID+"/status/stop", nil); err != nil {
		t.Fatal(err)
	}
	return s, demo, ops, log
}

// refusedApplies counts the apply requests the stand refused as busy (a
// call is recorded before its answer is sent).
func refusedApplies(s *stand.Stand) int {
	n := 0
	for _, c := range s.Calls() {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/project/update") && c.Status == http.StatusNotFound {
			n++
		}
	}
	return n
}

func appBuild(t *testing.T, s *stand.Stand, appID string) string {
	t.Helper()
	for _, a := range s.Snapshot().Apps {
		if a.ID == appID {
			return a.BuildID
		}
	}
	t.Fatalf("no application %s", appID)
	return ""
}

func newestBuild(t *testing.T, s *stand.Stand, projectID string) string {
	t.Helper()
	id := ""
	for _, b := range s.Snapshot().Builds {
		if b.ProjectID == projectID && !b.Deleted {
			id = b.ID
		}
	}
	return id
}
