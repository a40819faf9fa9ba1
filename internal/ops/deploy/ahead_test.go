package deploy_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// arrivals drains what a watch has delivered so far.
func arrivals(ch <-chan stand.Call) []stand.Call {
	var out []stand.Call
	for {
		select {
		case c := <-ch:
			out = append(out, c)
		default:
			return out
		}
	}
}

// holdFor is how long the tests below hold one request: the request they
// look for must come in meanwhile, which a client that waits for the held
// answer first cannot do.
const holdFor = 2 * time.Second

// A deploy asks for the project's builds beside the application's card,
// not after its answer: with the card read held, the list's request comes
// in meanwhile. The list is still read once, and the deploy is verified.
func TestDeployReadsTheBuildsBesideTheCard(t *testing.T) {
	s, demo, ops, log := demoStand(t)
	card := "/console/api/v2/applications/" + demo.AppID
	list := "/console/api/v2/projects/" + demo.ProjectID + "/assemblies"
	if err := s.AddFault(stand.Fault{Method: "GET", Path: card, Nth: 1, Effect: stand.EffectDelay, Delay: holdFor}); err != nil {
		t.Fatal(err)
	}
	cardReads, stopCards := s.Watch("GET", card)
	defer stopCards()
	listReads, stopLists := s.Watch("GET", list)
	defer stopLists()
	r, err := deployDemo(ops, demo, demoCopy(t, nil), nil)
	if err != nil || !r.OK() {
		t.Fatalf("deploy: %v\n%s", err, log)
	}
	cards, lists := arrivals(cardReads), arrivals(listReads)
	if len(cards) == 0 || len(lists) != 1 {
		t.Fatalf("%d card reads, %d list reads (want one)", len(cards), len(lists))
	}
	if held := cards[0].At; !lists[0].At.Before(held.Add(holdFor)) {
		t.Errorf("the list was asked for at %v, after the held card read's answer (%v + %v)", lists[0].At, held, holdFor)
	}
}

// The verification asks the application's address beside the task list,
// not after its answer.
func TestVerificationAsksTheAddressBesideTheTasks(t *testing.T) {
	s, demo, ops, log := demoStand(t)
	tasks := "/console/api/v2/tasks/application-tasks"
	if err := s.AddFault(stand.Fault{Method: "GET", Path: tasks, Effect: stand.EffectDelay, Delay: holdFor}); err != nil {
		t.Fatal(err)
	}
	taskReads, stopTasks := s.Watch("GET", tasks)
	defer stopTasks()
	addressReads, stopAddress := s.Watch("GET", "/applications/*")
	defer stopAddress()
	r, err := deployDemo(ops, demo, demoCopy(t, nil), nil)
	if err != nil || !r.OK() {
		t.Fatalf("deploy: %v\n%s", err, log)
	}
	if r.URIStatus == nil {
		t.Fatalf("the address was not checked: %+v", r)
	}
	reads, asked := arrivals(taskReads), arrivals(addressReads)
	if len(reads) == 0 || len(asked) != 1 {
		t.Fatalf("%d task reads, %d address checks (want one)", len(reads), len(asked))
	}
	held := reads[len(reads)-1].At
	if at := asked[0].At; at.Before(held.Add(-holdFor)) || !at.Before(held.Add(holdFor)) {
		t.Errorf("the address was asked at %v, not while the verification's task read (%v) was held", at, held)
	}
}

// A deploy interrupted while its first reads are held (the card's and
// the list's beside it) returns at once and leaves nothing of itself
// running.
func TestDeployInterruptedBesideItsFirstReads(t *testing.T) {
	s, demo, ops, _ := demoStand(t)
	card := "/console/api/v2/applications/" + demo.AppID
	list := "/console/api/v2/projects/" + demo.ProjectID + "/assemblies"
	for _, path := range []string{card, list} {
		if err := s.AddFault(stand.Fault{Method: "GET", Path: path, Nth: 1, Effect: stand.EffectDelay, Delay: time.Minute}); err != nil {
			t.Fatal(err)
		}
	}
	cardReads, stop := s.Watch("GET", card)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-cardReads
		cancel()
	}()
	_, err := ops.Deploy(ctx, deploy.DeployOptions{AppRef: demo.AppID, AppIDSource: deploy.SourceFlag,
		ProjectID: demo.ProjectID, ProjectIDSource: deploy.SourceFlag, ProjectDir: demoCopy(t, nil)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want the interruption, got %v", err)
	}
	if stuck := testio.StuckGoroutines(0, "internal/ops/deploy.(*Ops)"); len(stuck) > 0 {
		t.Fatalf("the deploy left goroutines running:\n%v", stuck)
	}
}

// A probe's waits are planned by the last probe's: its compilation (the
// throwaway application's creation) measured by the card's stamps, its
// cleanup's deletion by the polls. With that record the next probe reads
// the new application's card first where the last creation ended, not at
// once, and still cleans up everything.
func TestProbeWaitsArePlannedByTheLastProbe(t *testing.T) {
	// Creations take 0.5 s, deletions 0.25 s; polls at a tenth of their
	// pace (a Budget of 1 s), so a forecast of 0.5 s plans one read.
	s := standtest.Start(t, stand.Options{Speed: 0.125})
	if _, err := s.SeedDemo(); err != nil {
		t.Fatal(err)
	}
	before := idsOf(s.Snapshot())
	data := t.TempDir()
	ops, log := opsFor(t, s, map[string]string{"ELEMCTL_DATA_DIR": data, deploy.PollScaleVar: "0.1"})
	dir := demoCopy(t, nil)
	if r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: dir}); err != nil || !r.OK {
		t.Fatalf("probe: %v\n%s", err, log)
	}
	history := readHistory(t, data)
	var created, deleted []historySample
	for key, e := range history {
		switch {
		case strings.HasPrefix(key, s.URL()+" create "):
			created = e.Applies
		case key == s.URL()+" delete":
			deleted = e.Applies
		}
	}
	if len(created) != 1 || created[0] != (historySample{Lo: 0.5, Hi: 0.5, Exact: true}) {
		t.Fatalf("the creation is not recorded by its stamps (0.5 s): %v", history)
	}
	if len(deleted) != 1 {
		t.Fatalf("the deletion is not recorded: %v", history)
	}

	creates, stopCreates := s.Watch("POST", "/console/api/v2/applications")
	defer stopCreates()
	reads, stopReads := s.Watch("GET", cardReads)
	defer stopReads()
	if r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: dir}); err != nil || !r.OK {
		t.Fatalf("probe: %v\n%s", err, log)
	}
	posted := arrivals(creates)
	if len(posted) != 1 {
		t.Fatalf("%d creates", len(posted))
	}
	var first *stand.Call
	for _, c := range arrivals(reads) {
		if c.At.After(posted[0].At) {
			first = &c
			break
		}
	}
	if first == nil {
		t.Fatal("no card read after the create")
	}
	if waited := first.At.Sub(posted[0].At); waited < 500*time.Millisecond {
		t.Errorf("the new application's card was first read %v after the create, before the 0.5 s the last creation took", waited)
	}
	assertNothingLeft(t, s, before)
}

// A probe's cleanup reads the project's builds, which its build is found
// in, while its application goes, not after: the list's request comes in
// before the deletion ends. The build is deleted all the same.
func TestProbeCleanupReadsTheBuildsWhileTheApplicationGoes(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 0.25}) // deletions take 0.5 s
	if _, err := s.SeedDemo(); err != nil {
		t.Fatal(err)
	}
	before := idsOf(s.Snapshot())
	ops, log := opsFor(t, s, nil)
	lists, stop := s.Watch("GET", "/console/api/v2/projects/*/assemblies")
	defer stop()
	r, err := ops.Probe(context.Background(), deploy.ProbeOptions{ProjectDir: demoCopy(t, nil)})
	if err != nil || !r.OK || r.Cleanup.AssemblyDeleted == nil || !*r.Cleanup.AssemblyDeleted {
		t.Fatalf("probe: %v %+v\n%s", err, r, log)
	}
	var deleted time.Time
	for _, task := range s.Snapshot().Tasks {
		if task.AppID == r.AppID && task.OperationType == "DeleteApplication" {
			deleted = task.End
		}
	}
	read := arrivals(lists)
	if deleted.IsZero() || len(read) == 0 {
		t.Fatalf("deletion ended %v; %d list reads", deleted, len(read))
	}
	if last := read[len(read)-1].At; !last.Before(deleted) {
		t.Errorf("the builds were read at %v, after the application had gone (%v)", last, deleted)
	}
	assertNothingLeft(t, s, before)
}

// A list read ahead that failed is the failure of its first user only:
// the schema guard skips on it, and the numbering reads the list again, as
// it did before the list was read ahead.
func TestAFailedListReadAheadIsReadAgain(t *testing.T) {
	s, demo, ops, log := demoStand(t)
	dir := demoCopy(t, nil)
	first, err := deployDemo(ops, demo, dir, nil)
	if err != nil || !first.OK() {
		t.Fatalf("deploy: %v\n%s", err, log)
	}
	list := "/console/api/v2/projects/" + demo.ProjectID + "/assemblies"
	if err := s.AddFault(stand.Fault{Method: "GET", Path: list, Nth: 1, Effect: stand.EffectStatus, Status: 500}); err != nil {
		t.Fatal(err)
	}
	reads, stop := s.Watch("GET", list)
	defer stop()
	r, err := deployDemo(ops, demo, dir, nil)
	if err != nil || !r.OK() {
		t.Fatalf("deploy: %v\n%s", err, log)
	}
	if n := len(arrivals(reads)); n != 2 {
		t.Errorf("the list was read %d times, want the failed read and the numbering's", n)
	}
	if unread := strings.SplitN(i18n.T(context.Background(), "deploy.list-unreadable", "project", demo.ProjectID), ":", 2)[0]; log.has(unread) {
		t.Errorf("the numbering went without the list:\n%s", log)
	}
	if len(s.Firings()) != 1 {
		t.Fatalf("the 500 was not given: %v", s.Firings())
	}
	base, n, _ := strings.Cut(first.Version, "-")
	if want := base + "-" + fmt.Sprint(atoi(t, n)+1); r.Version != want {
		t.Errorf("numbered %s after %s, want %s\n%s", r.Version, first.Version, want, log)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Over a network, a wait sends its planned reads a round trip sooner, so
// they reach the platform when planned: the read that sees a forecast
// apply's end comes in within a round trip of the end, not a round trip
// after it as a read sent at the planned moment would.
func TestPlannedReadsReachThePlatformWhenPlanned(t *testing.T) {
	const latency = 200 * time.Millisecond
	// Applies of 1 s and polls at half their pace: the forecast plans one
	// read, 25 ms after the expected end, and no read before it (planned
	// reads closer together than a round trip could not all be sent in
	// turn).
	s := standtest.Start(t, stand.Options{Speed: 1.0 / 3, Latency: latency})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	ops, log := opsFor(t, s, map[string]string{deploy.PollScaleVar: "0.5"})
	dir := demoCopy(t, nil)
	// The first deploy measures the application's apply; the second is
	// forecast by it.
	for i := range 2 {
		reads, stop := s.Watch("GET", "/console/api/v2/applications/"+demo.AppID)
		r, err := deployDemo(ops, demo, dir, nil)
		stop()
		if err != nil || !r.OK() {
			t.Fatalf("deploy: %v\n%s", err, log)
		}
		var ended time.Time
		for _, task := range s.Snapshot().Tasks {
			if task.AppID == demo.AppID && task.OperationType == "UpdateApplication" && task.End.After(ended) {
				ended = task.End
			}
		}
		var seen time.Time
		for _, c := range arrivals(reads) {
			if !c.At.Before(ended) {
				seen = c.At
				break
			}
		}
		if seen.IsZero() {
			t.Fatalf("no card read after the apply's end (%v)", ended)
		}
		if late := seen.Sub(ended); i == 1 && late >= latency {
			t.Errorf("the read that saw the apply's end came in %v after it, a round trip (%v) or more\n%s", late, latency, log)
		}
	}
}

// apps create --wait shares the probe's planned wait: its creation is
// recorded by the card's stamps under the project it was made from, and
// the next creation from the project reads the card first where that one
// ended.
func TestCreateWaitIsPlannedByTheProjectsLastCreation(t *testing.T) {
	s := standtest.Start(t, stand.Options{Speed: 0.125}) // creations take 0.5 s
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	ops, log := opsFor(t, s, map[string]string{"ELEMCTL_DATA_DIR": data, deploy.PollScaleVar: "0.1"})
	create := func(name string) {
		t.Helper()
		opts := deploy.CreateOptions{Name: name, ProjectID: demo.ProjectID, LatestBuild: true, Wait: true}
		src, err := ops.SelectSource(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ops.Create(context.Background(), opts, src)
		if err != nil || c.WaitError != nil {
			t.Fatalf("create %s: %v %v\n%s", name, err, c.WaitError, log)
		}
	}
	create("planned-first")
	created := readHistory(t, data)[s.URL()+" create "+demo.ProjectID].Applies
	if len(created) != 1 || created[0] != (historySample{Lo: 0.5, Hi: 0.5, Exact: true}) {
		t.Fatalf("the creation is not recorded under its project by its stamps (0.5 s): %v", readHistory(t, data))
	}
	posts, stopPosts := s.Watch("POST", "/console/api/v2/applications")
	defer stopPosts()
	reads, stopReads := s.Watch("GET", cardReads)
	defer stopReads()
	create("planned-second")
	posted := arrivals(posts)
	if len(posted) != 1 {
		t.Fatalf("%d creates", len(posted))
	}
	for _, c := range arrivals(reads) {
		if c.At.After(posted[0].At) {
			if waited := c.At.Sub(posted[0].At); waited < 500*time.Millisecond {
				t.Errorf("the new application's card was first read %v after the create, before the 0.5 s the last creation took", waited)
			}
			return
		}
	}
	t.Fatal("no card read after the create")
}
