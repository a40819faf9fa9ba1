package stand_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/testio"
)

// try sends a request and returns what came back, or the network error;
// the body is read in full. Each request has a connection of its own: on a
// reused one Go's transport sends a GET again by itself after a dropped
// answer, and the test would see the second attempt.
func (c *client) try(req *http.Request) (*http.Response, []byte, error) {
	c.t.Helper()
	once := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second,
		CheckRedirect: c.plain.CheckRedirect}
	resp, err := once.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

func (c *client) fault(f stand.Fault) {
	c.t.Helper()
	if err := c.s.AddFault(f); err != nil {
		c.t.Fatal(err)
	}
}

// wantNoAnswer fails unless the request ended in a network error with no
// response at all.
func wantNoAnswer(t *testing.T, what string, resp *http.Response, err error) {
	t.Helper()
	if err == nil || resp != nil {
		t.Fatalf("%s: want a network error and no answer, got %v %v", what, resp, err)
	}
	var netErr net.Error
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.As(err, &netErr) &&
		!strings.Contains(err.Error(), "connection reset") && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("%s: the error is not a network error: %v", what, err)
	}
}

func createBody(name, buildID string) map[string]any {
	return map[string]any{"display-name": name, "publication-context": name,
		"source": map[string]any{"type": "repository", "project-version-id": buildID}}
}

func appNamed(s *stand.Stand, name string) *stand.App {
	for _, a := range s.Snapshot().Apps {
		if a.DisplayName == name && a.Status != "Deleted" {
			return &a
		}
	}
	return nil
}

func TestLoseAnswerActsOnThePlatform(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)

	t.Run("create", func(t *testing.T) {
		c.fault(stand.Fault{Name: "lost create", Method: "post", Path: "/console/api/v2/applications", Nth: 1, Effect: stand.EffectLoseAnswer})
		resp, _, err := c.try(c.request("POST", "/v2/applications", createBody("lost", build)))
		wantNoAnswer(t, "create", resp, err)
		if appNamed(s, "lost") == nil {
			t.Fatal("the application of a create whose answer was lost does not exist")
		}
		// The rule fired once: the next create answers.
		c.obj("POST", "/applications", createBody("answered", build))
	})
	t.Run("uploads", func(t *testing.T) {
		s.ClearFaults()
		c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/projects/*/assemblies", Effect: stand.EffectLoseAnswer})
		c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/projects", Effect: stand.EffectLoseAnswer})
		c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/spaces/*/projects", Effect: stand.EffectLoseAnswer})
		before := len(c.versions(d.ProjectID))
		resp, _, err := c.try(c.request("POST", "/v2/projects/"+d.ProjectID+"/assemblies", stand.MakeArchive(demoSpec("1.0-9"))))
		wantNoAnswer(t, "upload into a project", resp, err)
		if got := c.versions(d.ProjectID); len(got) != before+1 {
			t.Fatalf("builds %v after a lost upload answer; want one more than %d", got, before)
		}
		resp, _, err = c.try(c.request("POST", "/v2/projects", stand.MakeArchive(sample("2.0-1"))))
		wantNoAnswer(t, "upload without a project", resp, err)
		resp, _, err = c.try(c.request("POST", "/v2/spaces/"+d.SpaceID+"/projects", stand.MakeArchive(sample("2.0-2"))))
		wantNoAnswer(t, "upload into a space", resp, err)
		stored := 0
		for _, b := range s.Snapshot().Builds {
			if b.Version == "2.0-1" || b.Version == "2.0-2" {
				stored++
			}
		}
		if stored != 2 {
			t.Fatalf("%d of the two builds whose answers were lost are stored", stored)
		}
	})
	t.Run("apply", func(t *testing.T) {
		s.ClearFaults()
		up := c.uploadInto(d.ProjectID, demoSpec("1.0-10"))
		c.fault(stand.Fault{Method: "POST", Path: "/console/api/*/applications/*/project/update", Effect: stand.EffectLoseAnswer})
		resp, _, err := c.try(c.request("POST", "/v2/applications/"+d.AppID+"/project/update",
			map[string]any{"source": map[string]any{"type": "repository", "image-id": up["id"]}}))
		wantNoAnswer(t, "apply", resp, err)
		s.ClearFaults()
		card := c.waitStatus(d.AppID, "Running")
		if got := card["source"].(map[string]any)["project-version-id"]; got != up["id"] {
			t.Fatalf("the apply whose answer was lost did not run: the card names %v, want %v", got, up["id"])
		}
	})
	t.Run("delete", func(t *testing.T) {
		id := appNamed(s, "answered").ID
		c.waitStatus(id, "Running")
		c.fault(stand.Fault{Method: "DELETE", Path: "/console/api/v2/applications/*", Effect: stand.EffectLoseAnswer})
		resp, _, err := c.try(c.request("DELETE", "/v2/applications/"+id, nil))
		wantNoAnswer(t, "delete", resp, err)
		s.ClearFaults()
		c.waitGone(id)
	})
}

func demoSpec(version string) stand.ArchiveSpec {
	return stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: version, ID: "5b7e0a52-0000-4000-8000-00000000d0e0"}
}

func TestResetBeforeLeavesThePlatformUntouched(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)
	c.fault(stand.Fault{Method: "POST", Path: "/console/api/**", Effect: stand.EffectResetBefore})
	resp, _, err := c.try(c.request("POST", "/v2/applications", createBody("never", build)))
	wantNoAnswer(t, "create", resp, err)
	before := len(s.Snapshot().Builds)
	big := stand.MakeArchive(stand.ArchiveSpec{Vendor: "acme", Name: "big", Version: "1.0-1",
		Files: map[string]string{"data.bin": strings.Repeat("0123456789abcdef", 1<<16)}})
	resp, _, err = c.try(c.request("POST", "/v2/projects", big))
	wantNoAnswer(t, "upload", resp, err)
	s.ClearFaults()
	if appNamed(s, "never") != nil || len(s.Snapshot().Builds) != before {
		t.Fatal("the platform acted on a request reset before it")
	}
	var resets int
	for _, call := range s.Calls() {
		if call.Method == "POST" && call.Fault != "" {
			resets++
			if call.Status != 0 || call.Fault != "rule 1" {
				t.Errorf("a reset request is recorded as %+v", call)
			}
		}
	}
	if resets != 2 {
		t.Fatalf("%d reset requests recorded, want 2", resets)
	}
}

func TestStatusFaultAnswersAsAProxy(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)
	c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications", Nth: 1, Effect: stand.EffectStatus, Status: 503, RetryAfter: 1500 * time.Millisecond})
	c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications", Nth: 2, Effect: stand.EffectStatus, Status: 502})
	c.fault(stand.Fault{Method: "GET", Path: "/console/api/v2/applications/*", Nth: 1, Effect: stand.EffectStatus, Status: 429, RetryAfter: time.Millisecond})
	for _, want := range []struct {
		status int
		retry  string
	}{{503, "2"}, {502, ""}} {
		resp, body, err := c.try(c.request("POST", "/v2/applications", createBody("proxied", build)))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != want.status || resp.Header.Get("Retry-After") != want.retry ||
			!strings.Contains(string(body), http.StatusText(want.status)) || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("HTTP %d Retry-After %q %s %q, want %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"),
				resp.Header.Get("Content-Type"), body, want.status, want.retry)
		}
	}
	if appNamed(s, "proxied") != nil {
		t.Fatal("the platform acted on a request a proxy refused")
	}
	resp, _, err := c.try(c.request("GET", "/v2/applications/"+d.AppID, nil))
	if err != nil || resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("429: %v %v; want Retry-After rounded up to 1 s", resp, err)
	}
	c.obj("POST", "/applications", createBody("proxied", build))
}

func TestTruncateSendsHalfTheDeclaredBody(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)
	c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications", Effect: stand.EffectTruncate, Times: 1})
	resp, err := c.plain.Do(c.request("POST", "/v2/applications", createBody("cut", build)))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 200 || int64(len(body)) != resp.ContentLength/2 {
		t.Fatalf("read %d of %d declared bytes, %v; want half and an unexpected EOF", len(body), resp.ContentLength, err)
	}
	if appNamed(s, "cut") == nil {
		t.Fatal("the platform did not act on a request whose answer was cut")
	}
}

func TestSlowBodyComesInPieces(t *testing.T) {
	_, c := start(t, stand.Options{})
	c.createDemo()
	whole := c.must(200, "GET", "/applications", nil)
	const spread = 800 * time.Millisecond
	c.fault(stand.Fault{Method: "GET", Path: "/console/api/v2/applications", Effect: stand.EffectSlowBody, Delay: spread})
	conn, err := net.Dial("tcp", strings.TrimPrefix(c.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sent := time.Now()
	req := c.request("GET", "/v2/applications", nil)
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, req)
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	var body []byte
	buf := make([]byte, 1<<16)
	for int64(len(body)) < resp.ContentLength {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			reads++
			body = append(body, buf[:n]...)
		}
		if err != nil {
			break
		}
	}
	var got any
	if err := json.Unmarshal(body, &got); err != nil || !jsonEqual(got, whole) {
		t.Fatalf("the slow body differs from the answer: %s", body)
	}
	if reads < 2 || time.Since(sent) < spread {
		t.Fatalf("the body came in %d read(s) after %v; want pieces over %v", reads, time.Since(sent), spread)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestDelayActsWhenTheClientGaveUp(t *testing.T) {
	s, c := start(t, stand.Options{})
	d := c.createDemo()
	build := c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string)
	const hold = time.Second
	c.fault(stand.Fault{Method: "POST", Path: "/console/api/v2/applications", Effect: stand.EffectDelay, Delay: hold})
	arrivals, stop := s.Watch("POST", "/console/api/v2/applications")
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := c.try(c.request("POST", "/v2/applications", createBody("late", build)).WithContext(ctx))
		done <- err
	}()
	arrived := <-arrivals
	if appNamed(s, "late") != nil {
		t.Fatal("the platform acted before the delay")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted client got %v", err)
	}
	for appNamed(s, "late") == nil {
		if time.Since(arrived.At) > hold+10*time.Second {
			t.Fatal("the platform never acted on the held request")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if time.Since(arrived.At) < hold {
		t.Fatalf("the platform acted %v after the arrival, before the delay of %v", time.Since(arrived.At), hold)
	}
}

func TestSilenceHoldsEveryRequestThenServes(t *testing.T) {
	s, c := start(t, stand.Options{})
	const quiet = 400 * time.Millisecond
	c.fault(stand.Fault{Method: "GET", Path: "/console/api/v2/spaces", Nth: 1, Effect: stand.EffectSilence, Delay: quiet})
	arrivals, stop := s.Watch("GET", "/console/api/v2/spaces")
	defer stop()
	first, done := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(done)
		st, _ := c.do("GET", "/spaces", nil)
		first <- st
	}()
	// The request is waited for whatever the test finds: one that fails
	// after the test has ended would end every test after it.
	defer func() { <-done }()
	arrived := <-arrivals
	// Another request, the token endpoint included, waits for the silence.
	tok := c.newToken()
	if time.Since(arrived.At) < quiet {
		t.Fatalf("a token came %v into a silence of %v", time.Since(arrived.At), quiet)
	}
	if st := <-first; st != 200 {
		t.Fatalf("the request that began the silence: HTTP %d", st)
	}
	c.tok = tok
	c.must(200, "GET", "/spaces", nil)
}

func TestExpireTokensAndStarting(t *testing.T) {
	s, c := start(t, stand.Options{})
	c.fault(stand.Fault{Method: "GET", Path: "/console/api/v2/spaces", Nth: 2, Effect: stand.EffectExpireTokens})
	c.must(200, "GET", "/spaces", nil)
	if st, body := c.do("GET", "/spaces", nil); st != 401 || !strings.Contains(string(body), "Token expired") {
		t.Fatalf("the request that expired the tokens: HTTP %d %s", st, body)
	}
	c.tok = c.newToken()
	c.must(200, "GET", "/spaces", nil)

	c.fault(stand.Fault{Method: "GET", Path: "/console/api/v2/projects", Effect: stand.EffectStarting, Delay: time.Hour})
	if st, body := c.do("GET", "/projects", nil); st != 404 || !consoleNotFound.MatchString(string(body)) {
		t.Fatalf("a console that restarts: HTTP %d %s", st, body)
	}
	if st, _ := c.do("GET", "/spaces", nil); st != 404 {
		t.Fatalf("every request while the console starts: HTTP %d", st)
	}
	s.ClearFaults()
	s.SetStarting(0)
	c.must(200, "GET", "/spaces", nil)
}

func TestApplyFailsAndLeavesError(t *testing.T) {
	s, c := start(t, stand.Options{})
	up := c.uploadNew("", sample("1.0-1"))
	projectID, good := artifactProject(up), up["image-id"].(string)
	id := c.createApp("crm", good)
	next := c.uploadInto(projectID, sample("1.0-2"))["id"].(string)
	// The rule matches applies only, whatever its path says.
	c.fault(stand.Fault{Name: "compile", Path: "/**", Nth: 1, Effect: stand.EffectApplyFails})
	c.must(200, "GET", "/applications/"+id, nil)
	c.apply(id, next)
	card := c.waitStatus(id, "Running")
	if got := card["source"].(map[string]any)["project-version-id"]; got != good {
		t.Fatalf("a failed apply did not roll back: %v", got)
	}
	failed := failedTasks(c, id)
	want := `Ошибка обновления приложения: acme/crm/Проект.yaml [1:1]: <Сервер> Ошибка компиляции (правило отказа стенда "compile")`
	if len(failed) != 1 || failed[0]["error-message"] != want {
		t.Fatalf("failed tasks %v, want one saying %q", failed, want)
	}
	// The next apply is not touched.
	c.apply(id, next)
	if got := c.waitStatus(id, "Running")["source"].(map[string]any)["project-version-id"]; got != next {
		t.Fatalf("the second apply: %v", got)
	}
	// With apply-leaves-error beside it the application stays in Error.
	third := c.uploadInto(projectID, sample("1.0-3"))["id"].(string)
	c.fault(stand.Fault{Path: "/console/api/v2/applications/*/project/update", Nth: 1, Effect: stand.EffectApplyFails})
	s.SetApplyLeavesError(true)
	c.apply(id, third)
	if card := c.waitStatus(id, "Error"); card["error"] == nil {
		t.Fatalf("an application left in Error shows no error: %v", card)
	}
	var effects []stand.Effect
	for _, f := range s.Firings() {
		effects = append(effects, f.Effect)
	}
	if !slices.Equal(effects, []stand.Effect{stand.EffectApplyFails, stand.EffectApplyFails, stand.EffectApplyLeavesError}) {
		t.Fatalf("firings %v", effects)
	}
}

// An apply-takes rule sets how long the applies of the application it
// names take, in platform time; others keep the stand's apply time.
func TestApplyTakesSetsAnApplysLength(t *testing.T) {
	s, c := start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 10 * time.Second}})
	up := c.uploadNew("", sample("1.0-1"))
	projectID, first := artifactProject(up), up["image-id"].(string)
	slow, quick := c.createApp("slow", first), c.createApp("quick", first)
	c.waitStatus(slow, "Running")
	c.waitStatus(quick, "Running")
	next := c.uploadInto(projectID, sample("1.0-2"))["id"].(string)
	c.fault(stand.Fault{Name: "slow project", Path: "/console/api/v2/applications/" + slow + "/project/update", Effect: stand.EffectApplyTakes, Delay: 40 * time.Second})
	c.apply(slow, next)
	c.apply(quick, next)
	c.waitStatus(slow, "Running")
	c.waitStatus(quick, "Running")
	took := map[string]time.Duration{}
	for _, task := range s.Snapshot().Tasks {
		if task.OperationType == "UpdateApplication" {
			took[task.AppID] = task.End.Sub(task.Start)
		}
	}
	// 40 s and 10 s of platform time at a hundredth of it.
	if took[slow] != 400*time.Millisecond || took[quick] != 100*time.Millisecond {
		t.Errorf("the applies took %v (the rule's application) and %v (the other), want 0.4 s and 0.1 s", took[slow], took[quick])
	}
}

func TestRulesMatchAndCount(t *testing.T) {
	s, c := start(t, stand.Options{})
	set := stand.FaultSet{Faults: []stand.Fault{
		{Name: "every third", Method: "get", Path: "/console/api/*/spaces", Every: 3, Effect: stand.EffectStatus, Status: 500},
		{Name: "twice", Path: "/console/api/**", Times: 2, Effect: stand.EffectStatus, Status: 502},
		{Name: "never reached", Path: "/nothing/**", Effect: stand.EffectStatus, Status: 503},
	}}
	if err := s.SetFaults(set); err != nil {
		t.Fatal(err)
	}
	var got []int
	for range 6 {
		st, _ := c.do("GET", "/spaces", nil)
		got = append(got, st)
	}
	// Request 3 and 6 fire "every third"; "twice" fires on 1 and 2 (on 3
	// the first rule answered, and "twice" stays unused for it).
	if want := []int{502, 502, 500, 200, 200, 500}; !slices.Equal(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	var rules []string
	for _, f := range s.Firings() {
		rules = append(rules, f.Rule)
		if f.Method != "GET" || f.Path != "/console/api/v2/spaces" || f.At.IsZero() {
			t.Fatalf("firing %+v", f)
		}
	}
	if want := []string{"twice", "twice", "every third", "every third"}; !slices.Equal(rules, want) {
		t.Fatalf("firings %v, want %v", rules, want)
	}
	if s.Faults().Faults[0].Name != "every third" {
		t.Fatalf("the set in force: %+v", s.Faults())
	}
	s.ClearFaults()
	if len(s.Faults().Faults) != 0 {
		t.Fatal("ClearFaults left rules")
	}
	c.must(200, "GET", "/spaces", nil)
}

func TestProbabilityFollowsTheSeed(t *testing.T) {
	pattern := func(seed int64) string {
		s, c := start(t, stand.Options{})
		if err := s.SetFaults(stand.FaultSet{Seed: seed, Faults: []stand.Fault{
			{Path: "/console/api/v2/spaces", Probability: 0.5, Effect: stand.EffectStatus, Status: 503},
		}}); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range 40 {
			if st, _ := c.do("GET", "/spaces", nil); st == 503 {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a, again, other := pattern(7), pattern(7), pattern(8)
	if a != again {
		t.Fatalf("one seed, two patterns:\n%s\n%s", a, again)
	}
	if a == other {
		t.Fatalf("two seeds, one pattern: %s", a)
	}
	if n := strings.Count(a, "x"); n == 0 || n == 40 {
		t.Fatalf("probability 0.5 fired %d times of 40", n)
	}
}

func TestInvalidRulesAreRefusedByName(t *testing.T) {
	s, _ := start(t, stand.Options{})
	cases := []struct {
		rule stand.Fault
		want string
	}{
		{stand.Fault{}, "rule 1: effect: missing"},
		{stand.Fault{Effect: "explode"}, `rule 1: effect: "explode" is none of`},
		{stand.Fault{Name: "x", Effect: stand.EffectStatus}, `rule 1 ("x"): status: effect status needs a status`},
		{stand.Fault{Effect: stand.EffectDelay}, "rule 1: delay: effect delay needs a delay"},
		{stand.Fault{Effect: stand.EffectLoseAnswer, Delay: time.Second}, "rule 1: delay: effect lose-answer takes no delay"},
		{stand.Fault{Effect: stand.EffectTruncate, Nth: 1, Every: 2}, "rule 1: nth/every/probability: at most one"},
		{stand.Fault{Effect: stand.EffectTruncate, Probability: 2}, "rule 1: probability: 2 is outside 0..1"},
		{stand.Fault{Effect: stand.EffectTruncate, Path: "console"}, `rule 1: path: "console" must start with /`},
		{stand.Fault{Effect: stand.EffectTruncate, Status: 500}, "rule 1: status: only effect status"},
		{stand.Fault{Effect: stand.EffectStatus, Status: 503, RetryAfter: -time.Second}, "rule 1: retry-after"},
		{stand.Fault{Effect: stand.EffectTruncate, Times: -1}, "rule 1: times: -1 is negative"},
	}
	for _, tc := range cases {
		err := s.SetFaults(stand.FaultSet{Faults: []stand.Fault{tc.rule}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.rule, err, tc.want)
		}
	}
	// The second rule is named by its place; nothing of the set is taken.
	err := s.SetFaults(stand.FaultSet{Faults: []stand.Fault{{Effect: stand.EffectTruncate}, {Effect: stand.EffectSilence}}})
	if err == nil || !strings.Contains(err.Error(), "rule 2: delay") || len(s.Faults().Faults) != 0 {
		t.Fatalf("%v; rules in force %v", err, s.Faults())
	}
	if err := s.AddFault(stand.Fault{Effect: stand.EffectSilence}); err == nil || !strings.Contains(err.Error(), "rule 1: delay") {
		t.Fatalf("AddFault of an invalid rule: %v", err)
	}
}

func TestWatchSeesArrivalsBeforeEffects(t *testing.T) {
	s, c := start(t, stand.Options{})
	c.fault(stand.Fault{Path: "/console/api/v2/spaces", Effect: stand.EffectResetBefore})
	arrivals, stop := s.Watch("GET", "/console/api/*/spaces")
	resp, _, err := c.try(c.request("GET", "/v2/spaces?x=1", nil))
	wantNoAnswer(t, "reset", resp, err)
	got := <-arrivals
	if got.Method != "GET" || got.Path != "/console/api/v2/spaces" || got.RawQuery != "x=1" || got.At.IsZero() || got.Status != 0 {
		t.Fatalf("arrival %+v", got)
	}
	c.must(200, "GET", "/projects", nil)
	select {
	case other := <-arrivals:
		t.Fatalf("an arrival that does not match: %+v", other)
	default:
	}
	stop()
	stop()
	// A stopped watch holds nothing up, however many requests come.
	s.ClearFaults()
	for range 100 {
		c.must(200, "GET", "/spaces", nil)
	}
}

func TestFaultFiles(t *testing.T) {
	dir := t.TempDir()
	yamlFile := filepath.Join(dir, "faults.yaml")
	os.WriteFile(yamlFile, []byte(`seed: 42
faults:
  - name: flaky apply
    method: POST
    path: /console/api/v2/applications/*/project/update
    nth: 2
    effect: lose-answer
  - path: /console/api/**
    probability: 0.1
    effect: status
    status: 503
    retry-after: 2
  - effect: delay
    every: 5
    delay: 150ms
`), 0o600)
	set, err := stand.LoadFaults(yamlFile)
	if err != nil {
		t.Fatal(err)
	}
	want := stand.FaultSet{Seed: 42, Faults: []stand.Fault{
		{Name: "flaky apply", Method: "POST", Path: "/console/api/v2/applications/*/project/update", Nth: 2, Effect: stand.EffectLoseAnswer},
		{Path: "/console/api/**", Probability: 0.1, Effect: stand.EffectStatus, Status: 503, RetryAfter: 2 * time.Second},
		{Every: 5, Effect: stand.EffectDelay, Delay: 150 * time.Millisecond},
	}}
	if !jsonEqual(set, want) {
		t.Fatalf("YAML read as %+v", set)
	}
	// The JSON written back reads the same.
	jsonFile := filepath.Join(dir, "faults.json")
	os.WriteFile(jsonFile, stand.MarshalFaults(set), 0o600)
	again, err := stand.LoadFaults(jsonFile)
	if err != nil || !jsonEqual(again, want) {
		t.Fatalf("JSON read as %+v, %v\n%s", again, err, stand.MarshalFaults(set))
	}
	for text, wantErr := range map[string]string{
		`{"faults": [{"effect": "status", "status": 502, "retry_after": 1}]}`: "field retry_after not found",
		`{"faults": [{"effect": "delay", "delay": "soon"}]}`:                  `"soon" is no duration`,
		`{"faults": [{"effect": "truncate"}, {"effect": "slow-body"}]}`:       "rule 2: delay",
		``: "the faults are empty",
	} {
		os.WriteFile(jsonFile, []byte(text), 0o600)
		if _, err := stand.LoadFaults(jsonFile); err == nil || !strings.Contains(err.Error(), wantErr) || !strings.Contains(err.Error(), jsonFile) {
			t.Errorf("%s: %v, want %q naming the file", text, err, wantErr)
		}
	}
}

func TestControlEndpoint(t *testing.T) {
	s, c := start(t, stand.Options{})
	control := func(method, path, body string, auth bool) (int, string) {
		req, _ := http.NewRequest(method, c.base+path, strings.NewReader(body))
		if auth {
			req.SetBasicAuth(s.ClientID(), s.ClientSecret())
		}
		resp, data, err := c.try(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(data)
	}
	if st, _ := control("GET", "/stand/faults", "", false); st != 401 {
		t.Fatalf("the control without credentials: HTTP %d", st)
	}
	req, _ := http.NewRequest("GET", c.base+"/stand/faults", nil)
	req.SetBasicAuth(s.ClientID(), "wrong")
	if resp, _, _ := c.try(req); resp.StatusCode != 401 {
		t.Fatalf("the control with a wrong secret: HTTP %d", resp.StatusCode)
	}
	st, body := control("PUT", "/stand/faults", "seed: 3\nfaults:\n  - path: /console/api/v2/spaces\n    effect: status\n    status: 502\n", true)
	if st != 200 || !strings.Contains(body, `"status": 502`) || !strings.Contains(body, `"name": "rule 1"`) {
		t.Fatalf("PUT: HTTP %d %s", st, body)
	}
	if st, _ := c.do("GET", "/spaces", nil); st != 502 {
		t.Fatalf("a rule put through the control: HTTP %d", st)
	}
	if st, body := control("GET", "/stand/firings", "", true); st != 200 || !strings.Contains(body, `"rule":"rule 1"`) || !strings.Contains(body, `"effect":"status"`) {
		t.Fatalf("firings: HTTP %d %s", st, body)
	}
	if st, body := control("PUT", "/stand/faults", `{"faults": [{"effect": "nap"}]}`, true); st != 400 || !strings.Contains(body, "rule 1: effect") {
		t.Fatalf("a bad PUT: HTTP %d %s", st, body)
	}
	if st, body := control("GET", "/stand/faults", "", true); st != 200 || !strings.Contains(body, `"seed": 3`) {
		t.Fatalf("the rules after a refused PUT: HTTP %d %s", st, body)
	}
	if st, _ := control("DELETE", "/stand/faults", "", true); st != 204 {
		t.Fatalf("DELETE: HTTP %d", st)
	}
	if st, _ := control("POST", "/stand/faults", "", true); st != 405 {
		t.Fatalf("POST: HTTP %d", st)
	}
	c.must(200, "GET", "/spaces", nil)
	// The control is no part of the platform: no fault reaches it, no call records it.
	s.AddFault(stand.Fault{Path: "/**", Effect: stand.EffectResetBefore})
	if st, _ := control("GET", "/stand/faults", "", true); st != 200 {
		t.Fatalf("the control under a rule for every path: HTTP %d", st)
	}
	for _, call := range s.Calls() {
		if strings.HasPrefix(call.Path, "/stand/") {
			t.Fatalf("the control is in the call record: %+v", call)
		}
	}
	// A peer that is not loopback is refused, whatever it knows.
	far := httptest.NewRequest("GET", "/stand/faults", nil)
	far.RemoteAddr = "192.0.2.7:40000"
	far.SetBasicAuth(s.ClientID(), s.ClientSecret())
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, far)
	if rec.Code != 403 {
		t.Fatalf("a remote peer: HTTP %d", rec.Code)
	}
}

func TestRequestLogLines(t *testing.T) {
	log := &testio.Buffer{}
	s, c := start(t, stand.Options{Log: log})
	d := c.createDemo()
	c.fault(stand.Fault{Name: "cut", Method: "GET", Path: "/console/api/v2/spaces", Nth: 1, Effect: stand.EffectResetBefore})
	resp, _, err := c.try(c.request("GET", "/v2/spaces?limit=5&token=abc", nil))
	wantNoAnswer(t, "reset", resp, err)
	archive := stand.MakeArchive(demoSpec("1.0-5"))
	c.obj("POST", "/projects/"+d.ProjectID+"/assemblies", archive)
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is no JSON: %q", line)
		}
		lines = append(lines, m)
	}
	keys := []string{"bytes-in", "bytes-out", "fault", "method", "ms", "path", "query", "served", "status", "time"}
	var reset, upload map[string]any
	for _, m := range lines {
		if _, note := m["note"]; note {
			continue
		}
		got := make([]string, 0, len(m))
		for k := range m {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Fatalf("log line keys %v, want %v", got, keys)
		}
		if _, err := time.Parse(time.RFC3339Nano, m["time"].(string)); err != nil {
			t.Fatalf("time %v", m["time"])
		}
		switch {
		case m["path"] == "/console/api/v2/spaces":
			reset = m
		case m["method"] == "POST" && strings.HasSuffix(m["path"].(string), "/assemblies"):
			upload = m
		}
	}
	if reset == nil || reset["status"] != 0.0 || reset["fault"] != "cut" || reset["query"] != "limit=5&token" || reset["bytes-out"] != 0.0 || reset["served"] != "" {
		t.Fatalf("the reset request is logged as %v", reset)
	}
	if upload == nil || upload["status"] != 200.0 || upload["bytes-in"] != float64(len(archive)) || upload["bytes-out"].(float64) < 100 || upload["fault"] != "" || upload["served"] == "" {
		t.Fatalf("the upload is logged as %v (archive of %d bytes)", upload, len(archive))
	}
	if strings.Contains(log.String(), c.tok) || strings.Contains(log.String(), s.ClientSecret()) {
		t.Fatal("the log carries a secret")
	}
}

// TestDocumentedFaultsAreTheStands: every faults file shown in the README
// and docs/stand.md reads, and docs/stand.md describes every effect.
func TestDocumentedFaultsAreTheStands(t *testing.T) {
	var blocks int
	for _, doc := range []string{"../../README.md", "../../docs/stand.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, part := range strings.Split(text, "```yaml\n")[1:] {
			block, _, _ := strings.Cut(part, "```")
			if !strings.Contains(block, "faults:") {
				continue
			}
			blocks++
			if _, err := stand.ParseFaults([]byte(block)); err != nil {
				t.Errorf("%s: a faults file that does not read: %v\n%s", doc, err, block)
			}
		}
		if strings.HasSuffix(doc, "stand.md") {
			for _, e := range stand.Effects {
				if !strings.Contains(text, "| `"+string(e)+"` |") {
					t.Errorf("%s does not describe the effect %s in its table", doc, e)
				}
			}
		}
	}
	if blocks < 2 {
		t.Fatalf("%d faults files found in the documents", blocks)
	}
}
