package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// applyCase is one apply length of the verdict sweep and the stand speed
// it is measured at.
type applyCase struct {
	apply time.Duration
	// speed scales the stand's durations and, through ELEMCTL_POLL_SCALE,
	// every pause of elemctl's wait alike, so the wait's schedule is the
	// one a real apply of that length gets; 1 is real time.
	speed float64
}

// applySweep: applies of 2, 5, 12 and 30 s in real time; the 60 s apply
// at a quarter speed (15 s). Scaling the stand and the poll pauses by the
// same factor keeps the schedule and the count of reads exactly those of
// the real length; what does not scale – the time a request takes, the
// deploy's own work after the wait – is then counted four times over in
// the wait's part of the latency (it is divided by the speed), so the
// scaled figure errs on the slow side, never the flattering one.
var applySweep = []applyCase{
	{2 * time.Second, 1}, {5 * time.Second, 1}, {12 * time.Second, 1}, {30 * time.Second, 1}, {60 * time.Second, 0.25},
}

// laterDeploys is how many deploys after the second are measured (the
// median and the worst of them are reported): at most this many, fewer
// when -benchtime asks for fewer, so the sweep's real-time applies keep
// make bench within minutes.
const laterDeploys = 3

// BenchmarkDeployVerdictLatency: how long after the platform finished an
// apply the deploy's verdict is out, on the first, the second and later
// deploys of an application, for applies of 2, 5, 12, 30 and 60 s, and how
// many times the wait read the application's card meanwhile.
//
// Each apply length has a stand of its own (one per binary when comparing):
//
//	elemctl stand --seed demo --apply-time 30s --log requests.jsonl
//	elemctl stand --seed demo --apply-time 60s --speed 0.25 --log requests.jsonl
//
// and a second application of the demo project, created from its newest
// build and never applied to. Then, in this order:
//
//	cold    a deploy to the demo application: nothing on the stand or on
//	        the machine has ever applied a build, so nothing tells how
//	        long an apply takes (no target)
//	first   a deploy to the new application from a machine that never
//	        deployed (an empty data directory): its first apply ever
//	second  the same application and machine again
//	later   laterDeploys more
//
// Figures (the latency runs from the end of the apply, as the stand's task
// records it, to the exit of elemctl with its report):
//
//	first-ms, second-ms   the latency of the first and the second deploy
//	ms, worst-ms          the median and the worst of the later deploys
//	worst-all-ms          the worst of first, second and later (≤ 500)
//	first-reads, second-reads, reads   card reads of the wait, from the
//	                      apply to the read that saw it end; the target is
//	                      what a poll every 10 s reads over the same apply
//	worst-reads           the most of first, second and later
//	requests              every request of a later deploy (median), with
//	                      first-requests beside it
//	cold-ms, cold-reads   the cold deploy
func BenchmarkDeployVerdictLatency(b *testing.B) {
	for _, ac := range applySweep {
		b.Run(fmt.Sprintf("apply=%v", ac.apply), func(b *testing.B) {
			cs := clients(b)
			runs := make([]*verdictRun, len(cs))
			for k, c := range cs {
				runs[k] = newVerdictRun(b, c, ac)
			}
			deployInTurn(b, runs)
			for _, r := range runs {
				r.report(b)
			}
			budget := float64(tenSecondPollReads(ac.apply))
			b.ReportMetric(500, "target-worst-all-ms")
			b.ReportMetric(budget, "target-reads")
			b.ReportMetric(budget, "target-first-reads")
			b.ReportMetric(budget, "target-second-reads")
			b.ReportMetric(budget, "target-worst-reads")
		})
	}
}

// BenchmarkDeployOnALongLivedStand: a deploy to a stand that has lived:
// 50,000 applications, nine in ten of them deleted, and the 95,000 tasks
// the platform keeps of their creations and deletions – listed, 21 MB,
// in the one answer the verification reads on every deploy (the platform
// filters tasks by nothing). A 2 s apply:
//
//	elemctl stand --seed demo --apps 5000 --deleted-apps 45000 --apply-time 2s --log requests.jsonl
//
// and a new application of the demo project, as in
// BenchmarkDeployVerdictLatency: a deploy to the demo application (cold:
// the first apply on the stand), the new application's first deploy from
// a new machine (its forecast read from the stand's record: the task list
// and the cards), its second and laterDeploys later ones. Figures (latency
// as there, from the apply's end to the exit with the report):
//
//	first-ms, second-ms      the first and second deploys' latency
//	                         (target ≤ 500)
//	ms, worst-ms             the median and the worst of the later ones
//	                         (target ≤ 500)
//	first-rss-MB, rss-MB     the deploy's peak resident memory, the first's
//	                         and the later ones' median
//	requests                 every request of a later deploy (median)
//	cold-ms, cold-rss-MB     the cold deploy (no target: nothing tells when
//	                         the stand's first apply ends)
func BenchmarkDeployOnALongLivedStand(b *testing.B) {
	ac := applyCase{apply: 2 * time.Second, speed: 1}
	cs := clients(b)
	runs := make([]*verdictRun, len(cs))
	for k, c := range cs {
		runs[k] = newVerdictRun(b, c, ac, "--apps", "5000", "--deleted-apps", "45000")
		runs[k].measured = true
	}
	deployInTurn(b, runs)
	for _, r := range runs {
		p := r.client.prefix
		var later, rss, requests []float64
		for _, v := range r.later {
			later, rss, requests = append(later, v.latencyMS), append(rss, v.rssMiB), append(requests, float64(v.requests))
		}
		b.ReportMetric(r.first.latencyMS, p+"first-ms")
		b.ReportMetric(r.second.latencyMS, p+"second-ms")
		b.ReportMetric(median(later), p+"ms")
		b.ReportMetric(slices.Max(later), p+"worst-ms")
		b.ReportMetric(r.first.rssMiB, p+"first-rss-MB")
		b.ReportMetric(median(rss), p+"rss-MB")
		b.ReportMetric(median(requests), p+"requests")
		b.ReportMetric(r.cold.latencyMS, p+"cold-ms")
		b.ReportMetric(r.cold.rssMiB, p+"cold-rss-MB")
	}
	b.ReportMetric(500, "target-first-ms")
	b.ReportMetric(500, "target-second-ms")
	b.ReportMetric(500, "target-ms")
	b.ReportMetric(500, "target-worst-ms")
}

// deployInTurn makes the deploys of a verdict sweep: the cold one, the
// new application's first, second and laterDeploys later ones. Interleaved:
// each step of one binary, then the same step of the other, so both meet
// the same moments of the machine. b.Loop runs the benchmark function
// once: the stands and the deploys before the later ones are not repeated
// for a ramp-up.
func deployInTurn(b *testing.B, runs []*verdictRun) {
	for _, r := range runs {
		r.cold = r.deploy(b, r.demoEnv, r.demoProject, r.stand.AppID)
	}
	for _, r := range runs {
		r.first = r.deploy(b, r.newEnv, r.newProject, r.newAppID)
	}
	for _, r := range runs {
		r.second = r.deploy(b, r.newEnv, r.newProject, r.newAppID)
	}
	for i := 0; b.Loop(); i++ {
		if i >= laterDeploys {
			continue
		}
		for _, r := range runs {
			r.later = append(r.later, r.deploy(b, r.newEnv, r.newProject, r.newAppID))
		}
	}
}

// tenSecondPollReads is what a poll every 10 s reads over an apply of
// length d: at its start and every 10 s until the first read after the
// end.
func tenSecondPollReads(d time.Duration) int {
	return int(math.Ceil(d.Seconds()/10)) + 1
}

// verdictRun is one binary's stand and deploys of one apply length.
type verdictRun struct {
	client client
	ac     applyCase
	stand  *standProcess
	// The demo application's deploys (cold) and the new application's
	// (first, second, later) come from different machines: different
	// data directories.
	demoEnv, newEnv         []string
	demoProject, newProject string
	newAppID                string

	cold, first, second verdict
	later               []verdict
	// measured runs each deploy through the measuring program (see
	// runMeasured), for its peak memory.
	measured bool
}

// newVerdictRun starts the stand (with standArgs besides those of ac) and
// the new application.
func newVerdictRun(b *testing.B, c client, ac applyCase, standArgs ...string) *verdictRun {
	args := []string{"--seed", "demo", "--apply-time", ac.apply.String(), "--log", filepath.Join(b.TempDir(), "requests.jsonl")}
	args = append(append(args, "--speed", fmt.Sprint(ac.speed)), standArgs...)
	s := benchStand(b, args...)
	r := &verdictRun{client: c, ac: ac, stand: s, demoProject: copyDemo(b), newProject: copyDemo(b)}
	scale := []string{}
	if ac.speed != 1 {
		scale = append(scale, fmt.Sprintf("ELEMCTL_POLL_SCALE=%g", ac.speed))
	}
	r.demoEnv = append(append(standEnv(b, s), "ELEMENT_APP_ID="+s.AppID, "ELEMENT_PROJECT_ID="+s.ProjectID), scale...)
	r.newAppID = createApp(b, standEnv(b, s), "verdict-new", s.ProjectID)
	r.newEnv = append(append(standEnv(b, s), "ELEMENT_APP_ID="+r.newAppID, "ELEMENT_PROJECT_ID="+s.ProjectID), scale...)
	return r
}

// createApp creates an application of project from its newest build and
// waits for it; it is made by this tree's binary whatever binary is
// measured, so the stand each one meets is the same.
func createApp(b *testing.B, env []string, name, project string) string {
	b.Helper()
	cmd := exec.Command(elemctlBinary(b), "apps", "create", name, "--latest-build", "--wait", "--json", "--project-id", project)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("apps create: %v\n%s", err, out)
	}
	var card struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &card); err != nil || card.ID == "" {
		b.Fatalf("apps create printed %q: %v", out, err)
	}
	return card.ID
}

func (r *verdictRun) report(b *testing.B) {
	p := r.client.prefix
	var later, laterReads, laterRequests []float64
	for _, v := range r.later {
		later = append(later, v.latencyMS)
		laterReads = append(laterReads, float64(v.reads))
		laterRequests = append(laterRequests, float64(v.requests))
	}
	all := append([]float64{r.first.latencyMS, r.second.latencyMS}, later...)
	allReads := append([]float64{float64(r.first.reads), float64(r.second.reads)}, laterReads...)
	b.ReportMetric(r.first.latencyMS, p+"first-ms")
	b.ReportMetric(r.second.latencyMS, p+"second-ms")
	b.ReportMetric(median(later), p+"ms")
	b.ReportMetric(slices.Max(later), p+"worst-ms")
	b.ReportMetric(slices.Max(all), p+"worst-all-ms")
	b.ReportMetric(float64(r.first.reads), p+"first-reads")
	b.ReportMetric(float64(r.second.reads), p+"second-reads")
	b.ReportMetric(median(laterReads), p+"reads")
	b.ReportMetric(slices.Max(allReads), p+"worst-reads")
	b.ReportMetric(float64(r.first.requests), p+"first-requests")
	b.ReportMetric(median(laterRequests), p+"requests")
	b.ReportMetric(r.cold.latencyMS, p+"cold-ms")
	b.ReportMetric(float64(r.cold.reads), p+"cold-reads")
}

// verdict is one deploy as the stand saw it.
type verdict struct {
	latencyMS float64
	// reads are the card reads from the apply to the one that saw its
	// end; requests all requests of the deploy.
	reads, requests int
	// beforeApplyMS runs from the command's start to the apply's request
	// reaching the stand; totalMS to the command's exit.
	beforeApplyMS, totalMS float64
	// rssMiB is the deploy's peak resident memory, when its run was
	// measured (verdictRun.measured).
	rssMiB float64
}

// deploy deploys once and measures, from the stand's request log and
// its record of the apply's task, the latency of the verdict and the
// reads of the wait.
func (r *verdictRun) deploy(b *testing.B, env []string, project, appID string) verdict {
	b.Helper()
	return r.deployEnding(b, env, project, appID, 0)
}

// deployEnding is deploy for a deploy that exits with code exit: 1 when
// the apply fails.
func (r *verdictRun) deployEnding(b *testing.B, env []string, project, appID string, exit int) verdict {
	b.Helper()
	s := r.stand
	from := len(requestLog(b, s))
	args := []string{r.client.path, "deploy", "--project-dir", project, "--quiet"}
	report := filepath.Join(b.TempDir(), "measured")
	if r.measured {
		args = append([]string{helperBinary(b, "measure", measureSource), report}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	started := time.Now()
	out, err := cmd.CombinedOutput()
	exited := time.Now()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exit {
		b.Fatalf("deploy ended with %v, not exit code %d\n%s", err, exit, out)
	}
	v := verdict{}
	if r.measured {
		var wall, rssKB int64
		if text, err := os.ReadFile(report); err != nil {
			b.Fatal(err)
		} else if _, err := fmt.Sscan(string(text), &wall, &rssKB); err != nil {
			b.Fatalf("the measuring program's report %q: %v", text, err)
		}
		v.rssMiB = float64(rssKB) / 1024
	}
	ended := applyEnd(b, s, appID)
	card := "/console/api/v2/applications/" + appID
	// A read saw the apply's end when the stand served it after the end
	// (a read that arrived just before may be served after it). The
	// task's end is given to the millisecond: a read served within that
	// millisecond may still have found the apply running, so the read
	// that saw the end is the first served past it, else – when the wait
	// made no more reads – the first served within it.
	var applied time.Time
	surely, maybe := -1, -1
	var reads []logged
	for _, c := range requestLog(b, s)[from:] {
		v.requests++
		switch {
		case c.Method == "POST" && c.Path == card+"/project/update":
			applied = c.At
		case c.Method == "GET" && c.Path == card && !applied.IsZero():
			reads = append(reads, c)
			if maybe < 0 && !c.Served.Before(ended) {
				maybe = len(reads) - 1
			}
			if surely < 0 && c.Served.After(ended.Add(time.Millisecond)) {
				surely = len(reads) - 1
			}
		}
	}
	at := surely
	if at < 0 {
		at = maybe
	}
	if applied.IsZero() || at < 0 {
		b.Fatalf("%s: the stand saw no apply or no card read served after its end (%v); card reads after the apply: %v",
			filepath.Base(r.client.path), ended, reads)
	}
	v.reads = at + 1
	seen := reads[at].Served
	wait := float64(seen.Sub(ended)) / r.ac.speed
	tail := float64(exited.Sub(seen))
	v.latencyMS = (wait + tail) / float64(time.Millisecond)
	v.beforeApplyMS = float64(applied.Sub(started)) / float64(time.Millisecond)
	v.totalMS = float64(exited.Sub(started)) / float64(time.Millisecond)
	return v
}

// applyEnd is the end of the newest apply of appID, as the stand records
// it (its control's task list: the console dates a task's start only).
func applyEnd(b *testing.B, s *standProcess, appID string) time.Time {
	return newestTaskEnd(b, s, appID, "UpdateApplication")
}

// newestTaskEnd is the end of the newest task of operation of appID (""
// any application) the stand recorded.
func newestTaskEnd(b *testing.B, s *standProcess, appID, operation string) time.Time {
	var end time.Time
	req, _ := http.NewRequest("GET", s.URL+"/stand/tasks", nil)
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	var tasks []map[string]any
	if err := fetchJSON(req, &tasks); err != nil {
		b.Fatal(err)
	}
	for _, t := range tasks {
		if appID != "" && t["application-id"] != appID || t["operation-type"] != operation {
			continue
		}
		text, _ := t["end-date"].(string)
		at, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			b.Fatalf("a task without an end: %v", t)
		}
		if at.After(end) {
			end = at
		}
	}
	if end.IsZero() {
		b.Fatalf("the stand recorded no %s task", operation)
	}
	return end
}

// mixedLengths are the applies of the other applications of the stand in
// BenchmarkDeployVerdictMixedStand, in platform time; mixedBetween is an
// apply of none of those lengths, measured after them.
var (
	mixedLengths = []time.Duration{2 * time.Second, 12 * time.Second, 30 * time.Second}
	mixedBetween = 5 * time.Second
)

// failingAfter is when the apply of a build that fails to compile ends in
// BenchmarkDeployVerdictMixedStand: long before the 30 s its application's
// applies took.
const failingAfter = 3 * time.Second

// mixedSpeed runs the mixed stand at a quarter of real time (see
// applySweep: the figures err on the slow side).
const mixedSpeed = 0.25

// BenchmarkDeployVerdictMixedStand: the first deploy of a new application
// on a stand whose applications' applies differ in length, as those of
// different projects do on the platform. The stand's applies are set per
// application through its fault rules (effect apply-takes, put on
// /stand/faults as each application is made):
//
//	elemctl stand --seed demo --speed 0.25 --log requests.jsonl
//
// One machine deploys to three applications whose applies take 2, 12 and
// 30 s. Then, for applies of 2, 12, 30 and 5 s in turn, a new application
// gets its first deploy from a machine that never deployed: the stand's
// latest three applies of other applications – always of 2, 12 and 30 s,
// in that order of measuring – are all it has to go by.
//
// Last, the same machine deploys again to the application whose apply took
// 30 s a build that fails to compile 3 s into the apply (the platform
// rolls it back; deploy exits 1): its own last apply forecasts 30 s.
//
// Figures, for an apply of N s:
//
//	atNs-ms      how long after the apply ended the verdict was out
//	             (target ≤ 500 where N is one of the other applies'
//	             lengths; a 10 s poll's wait, ≤ 10,000, for 5 s)
//	atNs-reads   card reads of the wait, with the reads a poll every 10 s
//	             makes over the same apply as the target
//	failing-ms, failing-reads   the same for the failing apply (a 10 s
//	             poll's wait, ≤ 10,000, and its reads over 3 s)
func BenchmarkDeployVerdictMixedStand(b *testing.B) {
	cs := clients(b)
	runs := make([]*mixedRun, len(cs))
	for k, c := range cs {
		runs[k] = newMixedRun(b, c)
	}
	type figure struct {
		name  string
		value float64
	}
	var figures []figure
	for _, d := range append(slices.Clone(mixedLengths), mixedBetween) {
		name := fmt.Sprintf("at%gs", d.Seconds())
		for _, r := range runs {
			v := r.firstDeploy(b, d)
			figures = append(figures, figure{r.run.client.prefix + name + "-ms", v.latencyMS},
				figure{r.run.client.prefix + name + "-reads", float64(v.reads)})
		}
		target := 500.0
		if !slices.Contains(mixedLengths, d) {
			target = 10_000
		}
		figures = append(figures, figure{"target-" + name + "-ms", target}, figure{"target-" + name + "-reads", float64(tenSecondPollReads(d))})
	}
	for _, r := range runs {
		v := r.failingDeploy(b)
		figures = append(figures, figure{r.run.client.prefix + "failing-ms", v.latencyMS},
			figure{r.run.client.prefix + "failing-reads", float64(v.reads)})
	}
	figures = append(figures, figure{"target-failing-ms", 10_000}, figure{"target-failing-reads", float64(tenSecondPollReads(failingAfter))})
	// b.Loop runs the benchmark function once: the stands and deploys
	// above are not repeated. What is reported before it is cleared.
	for b.Loop() {
	}
	for _, f := range figures {
		b.ReportMetric(f.value, f.name)
	}
}

// mixedRun is one binary's mixed stand.
type mixedRun struct {
	run   *verdictRun
	rules []map[string]any // the apply-takes rules so far
	// the application measured with the longest of mixedLengths, and its
	// machine
	longestApp string
	longestEnv []string
}

func newMixedRun(b *testing.B, c client) *mixedRun {
	s := benchStand(b, "--seed", "demo", "--speed", fmt.Sprint(mixedSpeed), "--log", filepath.Join(b.TempDir(), "requests.jsonl"))
	m := &mixedRun{run: &verdictRun{client: c, ac: applyCase{speed: mixedSpeed}, stand: s, newProject: copyDemo(b)}}
	// The other applications are deployed by this tree's binary from a
	// machine of their own, whatever binary is measured.
	setup := &verdictRun{client: client{path: elemctlBinary(b)}, ac: m.run.ac, stand: s}
	env := m.env(b)
	for _, d := range mixedLengths {
		app := m.newApp(b, d, env)
		setup.deploy(b, append(slices.Clone(env), "ELEMENT_APP_ID="+app), m.run.newProject, app)
	}
	return m
}

// env is a machine that never deployed: its own data directory.
func (m *mixedRun) env(b *testing.B) []string {
	s := m.run.stand
	return append(standEnv(b, s), "ELEMENT_PROJECT_ID="+s.ProjectID, fmt.Sprintf("ELEMCTL_POLL_SCALE=%g", mixedSpeed))
}

// newApp creates an application of the demo project whose applies take d.
func (m *mixedRun) newApp(b *testing.B, d time.Duration, env []string) string {
	s := m.run.stand
	app := createApp(b, env, fmt.Sprintf("mixed-%d", len(m.rules)+1), s.ProjectID)
	m.rules = append(m.rules, map[string]any{"name": "applies of " + app, "effect": "apply-takes", "delay": d.String(),
		"path": "/console/api/v2/applications/" + app + "/project/update"})
	m.putRules(b)
	return app
}

// putRules makes the stand's fault rules m.rules.
func (m *mixedRun) putRules(b *testing.B) {
	s := m.run.stand
	body, _ := json.Marshal(map[string]any{"faults": m.rules})
	req, _ := http.NewRequest("PUT", s.URL+"/stand/faults", bytes.NewReader(body))
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	var inForce any // the stand answers with the rules it took
	if err := fetchJSON(req, &inForce); err != nil {
		b.Fatal(err)
	}
}

// failingDeploy deploys to the application whose apply was the longest,
// from the machine that measured it, a build that fails to compile failingAfter
// into the apply.
func (m *mixedRun) failingDeploy(b *testing.B) verdict {
	update := "/console/api/v2/applications/" + m.longestApp + "/project/update"
	m.rules = append([]map[string]any{
		{"name": "fails fast", "path": update, "effect": "apply-takes", "delay": failingAfter.String(), "times": 1},
		{"name": "fails to compile", "path": update, "effect": "apply-fails", "times": 1},
	}, m.rules...)
	m.putRules(b)
	return m.run.deployEnding(b, m.longestEnv, m.run.newProject, m.longestApp, 1)
}

// firstDeploy measures the first deploy of a new application whose apply
// takes d, from a machine that never deployed.
func (m *mixedRun) firstDeploy(b *testing.B, d time.Duration) verdict {
	env := m.env(b)
	app := m.newApp(b, d, env)
	env = append(env, "ELEMENT_APP_ID="+app)
	if d == slices.Max(mixedLengths) {
		m.longestApp, m.longestEnv = app, env
	}
	return m.run.deploy(b, env, m.run.newProject, app)
}
