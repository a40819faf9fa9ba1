package deploy_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
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
