package deploy

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestBackoffGrowsToTheCap(t *testing.T) {
	b := PollPolicy{First: 250 * time.Millisecond, Factor: 2, Max: 5 * time.Second}.Start()
	want := []time.Duration{250, 500, 1000, 2000, 4000, 5000, 5000}
	for i, w := range want {
		if got := b.Next(); got != w*time.Millisecond {
			t.Fatalf("pause %d = %v, want %v", i, got, w*time.Millisecond)
		}
	}
}

func TestDefaultPolicyKeepsThePlatformCalm(t *testing.T) {
	// At most a few requests per second at any time, and never more than
	// one per Max once the wait is long.
	b := DefaultPolicy.Start()
	var elapsed time.Duration
	requests := 1
	for elapsed < time.Second {
		elapsed += b.Next()
		requests++
	}
	if requests > 5 {
		t.Errorf("%d requests in the first second; at most a few per second are allowed", requests)
	}
	for range 50 {
		if d := b.Next(); d > DefaultPolicy.Max {
			t.Fatalf("pause %v above the cap %v", d, DefaultPolicy.Max)
		}
	}
	if d := b.Next(); d != DefaultPolicy.Max {
		t.Errorf("a long wait polls every %v, want the cap %v", d, DefaultPolicy.Max)
	}
}

func TestPolicyFromEnvScalesOnlyDown(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == PollScaleVar {
				return v
			}
			return ""
		}
	}
	if p := PolicyFromEnv(env("0.01")); p.First != 2500*time.Microsecond || p.Max != 50*time.Millisecond {
		t.Errorf("scaled policy = %+v", p)
	}
	for _, v := range []string{"", "2", "0", "-1", "fast", "NaN"} {
		if p := PolicyFromEnv(env(v)); p != DefaultPolicy {
			t.Errorf("%s=%q changed the policy to %+v", PollScaleVar, v, p)
		}
	}
}

func TestWaitReportsSoonAfterTheStatusChanges(t *testing.T) {
	s, o, clock, logs := newScripted(t, append(repeat(updating(), 4), running())...)
	card, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if card.Str("status") != platform.StatusRunning {
		t.Fatalf("status %q", card.Str("status"))
	}
	sleeps := clock.Sleeps()
	want := []time.Duration{250 * time.Millisecond, 375 * time.Millisecond, 562500 * time.Microsecond, 843750 * time.Microsecond}
	if len(sleeps) != len(want) {
		t.Fatalf("pauses %v, want %v", sleeps, want)
	}
	for i := range want {
		if sleeps[i] != want[i] {
			t.Fatalf("pauses %v, want %v", sleeps, want)
		}
	}
	if s.readCount() != 5 {
		t.Errorf("%d card reads, want 5", s.readCount())
	}
	if !hasLine(*logs, "Updating") || !hasLine(*logs, "Running") {
		t.Errorf("status changes were not logged: %q", *logs)
	}
}

func TestWaitTimesOutAtTheDeadline(t *testing.T) {
	s, o, clock, _ := newScripted(t, updating())
	start := clock.Now()
	_, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	var ae *platform.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want an API error, got %v", err)
	}
	if got := clock.Now().Sub(start); got != 300*time.Second {
		t.Errorf("gave up after %v, want exactly the 300 s deadline", got)
	}
	// Backing off to 5 s keeps a five-minute wait near 60 requests, not
	// the 1,200 a fixed quarter second would cost.
	if n := s.readCount(); n > 75 || n < 55 {
		t.Errorf("%d card reads in 300 s", n)
	}
	if ae.Body == nil {
		t.Error("the timeout error keeps no card")
	}
}

func TestWaitToleratesUnknownForAMinute(t *testing.T) {
	t.Parallel()
	_, o, clock, _ := newScripted(t, step{status: platform.StatusUnknown})
	start := clock.Now()
	_, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	if err == nil {
		t.Fatal("a wait on UNKNOWN forever succeeded")
	}
	waited := clock.Now().Sub(start)
	if waited < 60*time.Second || waited > 66*time.Second {
		t.Errorf("gave up on UNKNOWN after %v, want about 60 s", waited)
	}
	if _, err := o.Wait(i18n.WithLang(context.Background(), i18n.EN), "app-1", GoalRunning, 300*time.Second, time.Time{}); err == nil ||
		!contains(err.Error(), "UNKNOWN") {
		t.Errorf("error %v does not name UNKNOWN", err)
	}
}

func TestWaitUnknownInterruptedResetsTheCount(t *testing.T) {
	cards := append(repeat(step{status: platform.StatusUnknown}, 12), updating())
	cards = append(cards, repeat(step{status: platform.StatusUnknown}, 12)...)
	cards = append(cards, running())
	_, o, _, _ := newScripted(t, cards...)
	if _, err := o.Wait(context.Background(), "app-1", GoalRunning, 600*time.Second, time.Time{}); err != nil {
		t.Fatalf("two UNKNOWN spells under a minute each failed the wait: %v", err)
	}
}

func TestWaitDroppedConnectionIsAMissedPoll(t *testing.T) {
	cards := []step{updating(), {drop: true}, {drop: true}, updating(), running()}
	s, o, _, logs := newScripted(t, cards...)
	if _, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{}); err != nil {
		t.Fatalf("a dropped connection failed the wait: %v", err)
	}
	if s.readCount() != 5 {
		t.Errorf("%d reads, want 5", s.readCount())
	}
	if !hasLine(*logs, "оборвалось") {
		t.Errorf("the missed poll was not logged: %q", *logs)
	}
}

func TestWaitDroppedUntilTheDeadlineFails(t *testing.T) {
	_, o, _, _ := newScripted(t, step{drop: true})
	_, err := o.Wait(context.Background(), "app-1", GoalRunning, 10*time.Second, time.Time{})
	if err == nil || !contains(err.Error(), "10") {
		t.Fatalf("want a timeout naming 10 s, got %v", err)
	}
}

// A platform that stops answering ends the wait after UnreachablePolls
// broken reads in a row (not at the deadline), with one line for all of
// them and their count; a read that comes through starts the count anew.
func TestWaitGivesUpOnAPlatformThatStoppedAnswering(t *testing.T) {
	cards := append(repeat(step{drop: true}, 5), updating())
	cards = append(cards, repeat(step{drop: true}, 100)...)
	_, o, clock, logs := newScripted(t, cards...)
	start := clock.Now()
	_, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	if !platform.IsTransport(err) || !contains(err.Error(), "12 запросов подряд") || !contains(err.Error(), "app-1") {
		t.Fatalf("want the platform called unreachable after 12 broken reads, got %v", err)
	}
	if waited := clock.Now().Sub(start); waited < 25*time.Second || waited > 60*time.Second {
		t.Errorf("gave up after %v", waited)
	}
	broke := 0
	for _, l := range *logs {
		if contains(l, "оборвалось") {
			broke++
		}
	}
	last := (*logs)[len(*logs)-1]
	if broke != 2 || !contains(last, "повторов подряд: ещё 11") {
		t.Errorf("the broken reads were not collapsed into one line per run with its count:\n%s", strings.Join(*logs, "\n"))
	}
}

func TestWaitErrorStatusFailsAtOnceWithTaskTexts(t *testing.T) {
	s, o, clock, _ := newScripted(t, updating(), step{status: platform.StatusError})
	s.tasks = []map[string]any{
		{"id": "t0", "application-id": "app-1", "status": "Failed", "operation-type": "UpdateApplication",
			"error-message": "old failure", "start-date": "2026-03-01T09:00:00Z"},
		{"id": "t1", "application-id": "app-1", "status": "Failed", "operation-type": "CreateApplication",
			"error-message": "Ошибка создания приложения: acme/crm/Форма.yaml [22:27]: Тип не виден", "start-date": "2026-03-01T10:00:00Z"},
		{"id": "t2", "application-id": "other", "status": "Failed", "error-message": "not ours"},
	}
	_, err := o.Wait(context.Background(), "app-1", GoalReady, 600*time.Second, clock.Now().Add(-time.Minute))
	if err == nil {
		t.Fatal("status Error did not fail the wait")
	}
	msg := err.Error()
	if !contains(msg, "Форма.yaml [22:27]") || contains(msg, "old failure") || contains(msg, "not ours") {
		t.Errorf("message %q", msg)
	}
	if len(clock.Sleeps()) != 1 {
		t.Errorf("Error is final, yet the wait went on: %v", clock.Sleeps())
	}
}

func TestWaitStableReturnsError(t *testing.T) {
	_, o, _, _ := newScripted(t, updating(), step{status: platform.StatusError})
	card, err := o.Wait(context.Background(), "app-1", GoalStable, time.Minute, time.Time{})
	if err != nil || card.Str("status") != platform.StatusError {
		t.Fatalf("card %v, err %v", card, err)
	}
}

func TestWaitReadyNeedsTheAddress(t *testing.T) {
	s, o, _, _ := newScripted(t, step{status: "Creating"}, step{status: platform.StatusRunning}, running())
	card, err := o.Wait(context.Background(), "app-1", GoalReady, time.Minute, time.Time{})
	if err != nil || card.Str("uri") == "" || s.readCount() != 3 {
		t.Fatalf("card %v, err %v, reads %d", card, err, s.readCount())
	}
}

func TestWaitHonoursCancellation(t *testing.T) {
	_, o, clock, _ := newScripted(t, updating())
	ctx, cancel := context.WithCancel(context.Background())
	clock.OnSleep = func(time.Time) { cancel() }
	_, err := o.Wait(ctx, "app-1", GoalRunning, time.Hour, time.Time{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

func TestWaitGone(t *testing.T) {
	_, o, _, _ := newScripted(t, step{status: "Deleting"}, step{code: 404, text: `{"message":"Application \"x\" not found"}`})
	gone, err := o.WaitGone(context.Background(), "app-1", time.Minute)
	if err != nil || !gone {
		t.Fatalf("gone %v, err %v", gone, err)
	}
	_, o, _, _ = newScripted(t, step{status: "Deleting"}, step{status: "Deleted"})
	if gone, err := o.WaitGone(context.Background(), "app-1", time.Minute); err != nil || !gone {
		t.Fatalf("status Deleted: gone %v, err %v", gone, err)
	}
	_, o, clock, _ := newScripted(t, step{status: "Deleting"})
	start := clock.Now()
	if gone, err := o.WaitGone(context.Background(), "app-1", 180*time.Second); err != nil || gone {
		t.Fatalf("never gone: gone %v, err %v", gone, err)
	}
	if clock.Now().Sub(start) != 180*time.Second {
		t.Errorf("gave up after %v", clock.Now().Sub(start))
	}
}

func TestServerStartingIsWaitedOutPerOutage(t *testing.T) {
	starting := step{code: 404, text: `{"message": "Application \"console\" not found"}`}
	cards := append(repeat(starting, 5), updating(), starting, starting, running())
	s, o, _, logs := newScripted(t, cards...)
	o.ServerStart = 60 * time.Second
	card, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	if err != nil || card.Str("status") != platform.StatusRunning {
		t.Fatalf("card %v, err %v", card, err)
	}
	if s.readCount() != len(cards) {
		t.Errorf("%d reads, want %d", s.readCount(), len(cards))
	}
	starts, ups := 0, 0
	for _, l := range *logs {
		if contains(l, "запускается") {
			starts++
		}
		if contains(l, "поднялась") {
			ups++
		}
	}
	if starts != 2 || ups != 2 {
		t.Errorf("two outages should be announced and ended twice: %q", *logs)
	}
}

func TestServerStartingTimesOut(t *testing.T) {
	_, o, clock, _ := newScripted(t, step{code: 404, text: `Application "console" not found`})
	o.ServerStart = 30 * time.Second
	start := clock.Now()
	_, err := o.Wait(context.Background(), "app-1", GoalRunning, 300*time.Second, time.Time{})
	if err == nil || !contains(err.Error(), "/console") {
		t.Fatalf("want a timeout naming the console, got %v", err)
	}
	if got := clock.Now().Sub(start); got != 30*time.Second {
		t.Errorf("gave up after %v", got)
	}
	// Without the server-start wait the refusal is an error at once.
	_, o, _, _ = newScripted(t, step{code: 404, text: `Application "console" not found`})
	if _, err := o.Wait(context.Background(), "app-1", GoalRunning, time.Minute, time.Time{}); !platform.IsServerStarting(err) {
		t.Fatalf("want the server-starting error, got %v", err)
	}
}

func TestApplyWaitsWhileBusy(t *testing.T) {
	s, o, clock, logs := newScripted(t, running())
	busy := step{code: 404, text: `{"message": "Application \"app-1\" is busy"}`}
	s.applies = append(repeat(busy, 3), step{})
	if _, err := o.Apply(context.Background(), "app-1", BuildSource("b-1")); err != nil {
		t.Fatal(err)
	}
	if s.posts != 4 || len(clock.Sleeps()) != 3 {
		t.Errorf("posts %d, pauses %v", s.posts, clock.Sleeps())
	}
	if !hasLine(*logs, "занято") || !hasLine(*logs, "освободилось") {
		t.Errorf("busy wait not told: %q", *logs)
	}

	s, o, clock, _ = newScripted(t, running())
	s.applies = []step{busy}
	start := clock.Now()
	if _, err := o.Apply(context.Background(), "app-1", BuildSource("b-1")); !platform.IsBusy(err) {
		t.Fatalf("want the busy refusal after the limit, got %v", err)
	}
	if got := clock.Now().Sub(start); got != 180*time.Second {
		t.Errorf("busy wait lasted %v, want 180 s", got)
	}

	s, o, _, _ = newScripted(t, running())
	s.applies = []step{{code: 404, text: `{"message": "Application \"app-1\" not found"}`}}
	if _, err := o.Apply(context.Background(), "app-1", BuildSource("b-1")); err == nil || s.posts != 1 {
		t.Fatalf("a plain 404 must fail at once: err %v, posts %d", err, s.posts)
	}
}

func TestEnsureRunningRestartsAStoppedApplication(t *testing.T) {
	_, o, _, logs := newScripted(t, updating(), step{status: platform.StatusStopped}, step{status: "Starting"}, running())
	card, err := o.EnsureRunning(context.Background(), "app-1", time.Time{})
	if err != nil || card.Str("status") != platform.StatusRunning {
		t.Fatalf("card %v, err %v", card, err)
	}
	if !hasLine(*logs, "запускаю") {
		t.Errorf("the start was not told: %q", *logs)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
