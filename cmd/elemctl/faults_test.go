package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/testio"
)

// The fault matrix: every mutating request of deploy, probe, create and
// ensure, builds upload, apply, delete, start and stop, token access and
// the user-list switches, against every fault a cloud behind load
// balancers has – the answer lost after the platform acted, the
// connection reset before it acted, a 502, a 503 with Retry-After, a
// timeout, and an interrupt while the request is under way. Each cell
// runs the real binary against the stand with the fault set on that one
// request and checks:
//
//   - nothing is left behind: no temporary folder, nothing of a probe (its
//     application, build and project) once its printed cleanup ran;
//   - nothing is duplicated: one build per upload, one application per
//     create, whatever the fault;
//   - the verdict is true: a success is claimed only for a change the
//     stand shows made, a failure only for one it shows not made (or the
//     output says it is not known), an interrupt exits 130;
//   - every hint printed works when pasted: it is run as printed (with the
//     same connection options, the secret given again as the note says),
//     a command that checks answers, and a command that does something
//     makes the change.
//
// make test runs a bounded sample (faultSample); ELEMCTL_FAULTS=full (make
// faults) runs every cell.

// faultKind is one fault, set on the first request a cell names.
type faultKind struct {
	name string
	rule stand.Fault
	// interrupt: the request is held and the run interrupted (SIGINT)
	// the moment it arrives.
	interrupt bool
}

// cellTimeout is the --timeout of every cell: the timeout fault holds its
// request longer than it, and a change read back settles within it.
const cellTimeout = "2"

var faultKinds = []faultKind{
	{name: "lose-answer", rule: stand.Fault{Effect: stand.EffectLoseAnswer}},
	{name: "reset-before", rule: stand.Fault{Effect: stand.EffectResetBefore}},
	{name: "502", rule: stand.Fault{Effect: stand.EffectStatus, Status: 502}},
	{name: "503-retry-after", rule: stand.Fault{Effect: stand.EffectStatus, Status: 503, RetryAfter: time.Second}},
	{name: "timeout", rule: stand.Fault{Effect: stand.EffectDelay, Delay: 3 * time.Second}},
	{name: "interrupt", rule: stand.Fault{Effect: stand.EffectDelay, Delay: time.Second}, interrupt: true},
}

// faultOp is one mutating request of one command.
type faultOp struct {
	name         string
	method, path string // the request the fault is set on
	// setup prepares the stand (before the fault is set).
	setup func(b *faultBed)
	args  func(b *faultBed) []string
	// done tells whether the change the command makes is on the stand.
	done func(b *faultBed, before, after stand.Snapshot) bool
	// duplicated says what the run made twice, "" when nothing.
	duplicated func(b *faultBed, before, after stand.Snapshot) string
	// probe: a probe run, whose leftovers are counted.
	probe bool
}

const (
	apiV2        = "/console/api/v2"
	controlPanel = "Список пользователей панели управления"
)

var faultOps = []faultOp{
	{name: "deploy/upload", method: "POST", path: apiV2 + "/projects/*/assemblies",
		args: func(b *faultBed) []string { return []string{"deploy", "--project-dir", b.good} },
		done: deployed, duplicated: newBuildsOnce},
	{name: "deploy/apply", method: "POST", path: apiV2 + "/applications/*/project/update",
		args: func(b *faultBed) []string { return []string{"deploy", "--project-dir", b.good} },
		done: deployed, duplicated: newBuildsOnce},
	{name: "probe/upload", method: "POST", path: apiV2 + "/projects", probe: true,
		args: func(b *faultBed) []string { return []string{"probe", "--project-dir", b.good} },
		done: compiled},
	{name: "probe/create", method: "POST", path: apiV2 + "/applications", probe: true,
		args: func(b *faultBed) []string { return []string{"probe", "--project-dir", b.good} },
		done: compiled},
	{name: "probe/delete-app", method: "DELETE", path: apiV2 + "/applications/*", probe: true,
		args: func(b *faultBed) []string { return []string{"probe", "--project-dir", b.good} },
		done: compiled},
	{name: "probe/delete-build", method: "DELETE", path: apiV2 + "/projects/*/assemblies/*", probe: true,
		args: func(b *faultBed) []string { return []string{"probe", "--project-dir", b.good} },
		done: compiled},
	{name: "probe/delete-project", method: "DELETE", path: apiV2 + "/projects/*", probe: true,
		args: func(b *faultBed) []string { return []string{"probe", "--project-dir", b.fresh} },
		done: compiled},
	{name: "apps create", method: "POST", path: apiV2 + "/applications",
		args: func(b *faultBed) []string { return []string{"apps", "create", "faulty", "--latest-build"} },
		done: func(b *faultBed, _, after stand.Snapshot) bool { return liveApps(after, "faulty") == 1 },
		duplicated: func(b *faultBed, _, after stand.Snapshot) string {
			if n := liveApps(after, "faulty"); n > 1 {
				return fmt.Sprintf("%d applications named faulty", n)
			}
			return ""
		}},
	{name: "apps ensure", method: "POST", path: apiV2 + "/applications",
		args: func(b *faultBed) []string { return []string{"apps", "ensure", "faulty", "--latest-build"} },
		done: func(b *faultBed, _, after stand.Snapshot) bool { return liveApps(after, "faulty") == 1 },
		duplicated: func(b *faultBed, _, after stand.Snapshot) string {
			if n := liveApps(after, "faulty"); n > 1 {
				return fmt.Sprintf("%d applications named faulty", n)
			}
			return ""
		}},
	{name: "builds upload", method: "POST", path: apiV2 + "/projects/*/assemblies",
		setup: func(b *faultBed) { b.archive(b.good) },
		args: func(b *faultBed) []string {
			return []string{"builds", "upload", b.file, "--project-id", b.demo.ProjectID}
		},
		done:       func(b *faultBed, before, after stand.Snapshot) bool { return len(newBuilds(before, after)) > 0 },
		duplicated: newBuildsOnce},
	{name: "builds upload --new-project", method: "POST", path: apiV2 + "/projects",
		setup: func(b *faultBed) { b.archive(b.fresh) },
		args:  func(b *faultBed) []string { return []string{"builds", "upload", b.file, "--new-project"} },
		done:  func(b *faultBed, before, after stand.Snapshot) bool { return len(newBuilds(before, after)) > 0 },
		duplicated: func(b *faultBed, before, after stand.Snapshot) string {
			if n := len(newBuilds(before, after)); n > 1 {
				return fmt.Sprintf("%d builds from one upload", n)
			}
			if n := liveProjects(after) - liveProjects(before); n > 1 {
				return fmt.Sprintf("%d projects from one upload", n)
			}
			return ""
		}},
	{name: "apps apply", method: "POST", path: apiV2 + "/applications/*/project/update",
		setup: func(b *faultBed) {
			b.archive(b.good)
			b.must("builds", "upload", b.file, "--project-id", b.demo.ProjectID)
			nb := newBuilds(b.initial, b.stand.Snapshot())
			b.target = nb[len(nb)-1].ID
		},
		args: func(b *faultBed) []string { return []string{"apps", "apply", b.demo.AppID, b.target} },
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			return a != nil && a.BuildID == b.target && a.Status == "Running"
		}},
	{name: "apps delete", method: "DELETE", path: apiV2 + "/applications/*",
		args: func(b *faultBed) []string { return []string{"apps", "delete", b.demo.AppID} },
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			return a == nil || a.Status == "Deleted" || a.Status == "Deleting"
		}},
	{name: "apps stop", method: "PUT", path: apiV2 + "/applications/*/status/stop",
		args: func(b *faultBed) []string { return []string{"apps", "stop", b.demo.AppID} },
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			return a != nil && (a.Status == "Stopped" || a.Status == "Stopping")
		}},
	{name: "apps start", method: "PUT", path: apiV2 + "/applications/*/status/start",
		setup: func(b *faultBed) {
			if err := b.stand.SetAppStatus(b.demo.AppID, "Stopped"); err != nil {
				b.t.Fatal(err)
			}
		},
		args: func(b *faultBed) []string { return []string{"apps", "start", b.demo.AppID} },
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			return a != nil && (a.Status == "Running" || a.Status == "Starting")
		}},
	{name: "apps token-access", method: "PUT", path: apiV2 + "/applications/*/users/change-token-access",
		args: func(b *faultBed) []string {
			return []string{"apps", "token-access", b.demo.AppID, "--user", "demo", "--enable"}
		},
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			if a == nil {
				return false
			}
			for _, u := range after.Users {
				if u.Login == "demo" && a.TokenAccess[u.UserListID+"/"+u.ID] {
					return true
				}
			}
			return false
		}},
	{name: "user-lists self-registration", method: "PUT", path: apiV2 + "/user-lists/*/settings/self-registration",
		args: func(b *faultBed) []string {
			return []string{"user-lists", "self-registration", "--app", b.demo.AppID, "--enable"}
		},
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			a := appOf(after, b.demo.AppID)
			for _, l := range after.UserLists {
				if a != nil && l.ID == a.DefaultUserList {
					return l.SelfRegistration.Enabled
				}
			}
			return false
		}},
	{name: "user-lists password-login", method: "PUT", path: apiV2 + "/user-lists/*/settings/account-services-settings/*",
		args: func(b *faultBed) []string { return []string{"user-lists", "password-login", controlPanel, "--disable"} },
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			s := service(after, "Local")
			return s != nil && !s.Enabled
		}},
	{name: "user-lists calculation-rules", method: "PUT", path: apiV2 + "/user-lists/*/settings/account-services-settings/*",
		args: func(b *faultBed) []string {
			return []string{"user-lists", "calculation-rules", controlPanel, "--presentation-rule", "$.name"}
		},
		done: func(b *faultBed, _, after stand.Snapshot) bool {
			s := service(after, "Oidc")
			return s != nil && s.CalculationRules["presentation-rule"] == "$.name"
		}},
}

// faultSample are the cells make test runs: every fault and every kind of
// reading back at least once, within a bounded time.
var faultSample = map[string]bool{
	"deploy/apply × lose-answer":                 true,
	"deploy/upload × timeout":                    true,
	"deploy/apply × interrupt":                   true,
	"probe/create × reset-before":                true,
	"probe/upload × lose-answer":                 true,
	"probe/delete-app × 502":                     true,
	"probe/delete-project × 503-retry-after":     true,
	"probe/delete-build × timeout":               true,
	"probe/create × interrupt":                   true,
	"apps create × lose-answer":                  true,
	"apps start × 503-retry-after":               true,
	"apps stop × lose-answer":                    true,
	"apps delete × interrupt":                    true,
	"apps apply × 502":                           true,
	"apps token-access × reset-before":           true,
	"user-lists self-registration × 502":         true,
	"user-lists calculation-rules × lose-answer": true,
	"builds upload --new-project × lose-answer":  true,
}

// matrixCounts are the figures the matrix reports.
var matrixCounts struct {
	sync.Mutex
	cells, leftovers, duplicates, falseVerdicts, hintsRun, hintsFailed int
}

func count(field *int) {
	matrixCounts.Lock()
	*field++
	matrixCounts.Unlock()
}

func TestFaultMatrix(t *testing.T) {
	full := os.Getenv("ELEMCTL_FAULTS") == "full"
	t.Cleanup(func() {
		matrixCounts.Lock()
		defer matrixCounts.Unlock()
		t.Logf("fault matrix: %d cells run, %d leftovers, %d duplicates, %d false verdicts, %d of %d pasted hints failed",
			matrixCounts.cells, matrixCounts.leftovers, matrixCounts.duplicates, matrixCounts.falseVerdicts,
			matrixCounts.hintsFailed, matrixCounts.hintsRun)
	})
	i := 0
	for _, op := range faultOps {
		for _, fk := range faultKinds {
			name := op.name + " × " + fk.name
			if !full && !faultSample[name] || fk.interrupt && runtime.GOOS == "windows" {
				// (Windows cannot send SIGINT to another process.)
				continue
			}
			// Half the cells reach the stand through an .env file, half
			// through the connection flags with the secret on the command
			// line: the hints must carry either.
			flags := i%2 == 1
			i++
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runCell(t, op, fk, flags)
			})
		}
	}
}

// faultBed is one cell's stand, binary and project copies.
type faultBed struct {
	*cliBed
	fresh   string // a project the stand has never seen (its own Ид and name)
	file    string // an archive built by setup
	target  string // the build apps apply applies
	initial stand.Snapshot
	// connection is how the runs reach the stand; secretEnv is what a
	// pasted hint adds when the secret was given on the command line.
	connection []string
	secretEnv  []string
}

func newFaultBed(t *testing.T, flags bool) *faultBed {
	b := &faultBed{cliBed: newCLIBed(t)}
	b.fresh = filepath.Join(t.TempDir(), "fresh")
	testio.CopyTree(t, b.good, b.fresh)
	desc := filepath.Join(b.fresh, "Acme", "Tasks", "Проект.yaml")
	data, err := os.ReadFile(desc)
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?m)^Ид: .*$`).ReplaceAllString(string(data), "Ид: 0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a")
	text = regexp.MustCompile(`(?m)^Представление: .*$`).ReplaceAllString(text, "Представление: Свежий проект")
	text = regexp.MustCompile(`(?m)^Имя: .*$`).ReplaceAllString(text, "Имя: Fresh")
	if err := os.WriteFile(desc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(b.fresh, "Acme", "Tasks"), filepath.Join(b.fresh, "Acme", "Fresh")); err != nil {
		t.Fatal(err)
	}
	// The connection leaves the environment: a pasted hint must bring it.
	var env []string
	for _, kv := range b.env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "ELEMENT_BASE_URL" && k != "ELEMENT_CLIENT_ID" && k != "ELEMENT_CLIENT_SECRET" {
			env = append(env, kv)
		}
	}
	b.env = env
	if flags {
		b.connection = []string{"--base-url", b.stand.URL(), "--client-id", b.stand.ClientID(), "--client-secret", b.stand.ClientSecret()}
		b.secretEnv = []string{"ELEMENT_CLIENT_SECRET=" + b.stand.ClientSecret()}
	} else {
		dir := filepath.Join(b.work, "stand env")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		dotenv := "ELEMENT_BASE_URL=" + b.stand.URL() + "\nELEMENT_CLIENT_ID=" + b.stand.ClientID() +
			"\nELEMENT_CLIENT_SECRET=" + b.stand.ClientSecret() + "\n"
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(dotenv), 0o600); err != nil {
			t.Fatal(err)
		}
		b.connection = []string{"--env-file", filepath.Join("stand env", ".env")}
	}
	b.connection = append(b.connection, "--timeout", cellTimeout)
	b.initial = b.stand.Snapshot()
	return b
}

// must runs elemctl with the cell's connection and fails the test unless
// it succeeds.
func (b *faultBed) must(args ...string) string {
	b.t.Helper()
	stdout, stderr, code := b.run(append(args, b.connection...)...)
	if code != 0 {
		b.t.Fatalf("elemctl %v: exit %d\n%s%s", args, code, stdout, stderr)
	}
	return stdout
}

// archive builds dir into b.file.
func (b *faultBed) archive(dir string) {
	b.t.Helper()
	out := b.t.TempDir()
	stdout, stderr, code := b.run("build", "--project-dir", dir, "--output", out)
	if code != 0 {
		b.t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	var res struct{ File string }
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.File == "" {
		b.t.Fatalf("build answered %q: %v", stdout, err)
	}
	b.file = res.File
}

// runCell runs one cell and checks it.
func runCell(t *testing.T, op faultOp, fk faultKind, flags bool) {
	b := newFaultBed(t, flags)
	if op.setup != nil {
		op.setup(b)
	}
	before := b.stand.Snapshot()
	rule := fk.rule
	rule.Name, rule.Method, rule.Path, rule.Nth = "cell", op.method, op.path, 1
	if err := b.stand.SetFaults(stand.FaultSet{Faults: []stand.Fault{rule}}); err != nil {
		t.Fatal(err)
	}
	var arrivals <-chan stand.Call
	if fk.interrupt {
		var stop func()
		arrivals, stop = b.stand.Watch(op.method, op.path)
		defer stop()
	}
	count(&matrixCounts.cells)
	stdout, stderr, code := b.runInterrupting(arrivals, append(op.args(b), b.connection...)...)
	b.settleFault()
	b.stand.ClearFaults()
	after := b.stand.Snapshot()
	out := stdout + stderr
	logOnFailure(t, out)

	if strings.Contains(out, b.stand.ClientSecret()) {
		t.Errorf("the client secret shows in the output")
	}
	for rest := out; strings.Contains(rest, "in this order:"); {
		rest = rest[strings.Index(rest, "in this order:")+len("in this order:"):]
		if !strings.HasPrefix(rest, "\n  elemctl ") {
			t.Errorf("steps announced and none given")
		}
	}
	if left := b.leftovers(); len(left) > 0 {
		count(&matrixCounts.leftovers)
		t.Errorf("left in TMPDIR: %v", left)
	}
	if op.duplicated != nil {
		if d := op.duplicated(b, before, after); d != "" {
			count(&matrixCounts.duplicates)
			t.Errorf("duplicated: %s", d)
		}
	}
	done := op.done(b, before, after)
	if why := falseVerdict(op, fk, code, done, out); why != "" {
		count(&matrixCounts.falseVerdicts)
		t.Errorf("false verdict: %s (exit %d, change made: %v)", why, code, done)
	}

	hints := printedHints(stdout, stderr)
	if code == 1 && !done && len(hints) == 0 {
		count(&matrixCounts.falseVerdicts)
		t.Errorf("the change was not made and nothing says how to make it")
	}
	if flags && len(hints) > 0 && !strings.Contains(stderr, "do not repeat --client-secret") {
		t.Errorf("the secret came as --client-secret and nothing says the hints leave it out")
	}
	for _, h := range hints {
		b.runHint(op, h, before)
	}
	if op.probe {
		if left := probeLeftovers(b.initial, b.stand.Snapshot()); left != "" {
			count(&matrixCounts.leftovers)
			t.Errorf("the probe left %s", left)
		}
	}
}

// falseVerdict says why an exit code and output misstate what the stand
// shows, "" when they do not.
func falseVerdict(op faultOp, fk faultKind, code int, done bool, out string) string {
	uncertain := strings.Contains(out, "may have") || strings.Contains(out, "unknown whether") || strings.Contains(out, "not known")
	switch {
	case fk.interrupt && code != exitInterrupt:
		return "an interrupted run did not exit 130"
	case fk.interrupt && done && (strings.Contains(out, ": not done") || strings.Contains(out, "not applied")) && !uncertain:
		return "says the change was not made, and it was"
	case fk.interrupt:
		return ""
	case code != exitOK && code != exitFailure:
		return fmt.Sprintf("exit %d", code)
	case code == exitOK && !done:
		return "claims success for a change the stand does not show"
	case code == exitFailure && done && !uncertain && !op.probe:
		return "claims failure for a change the stand shows made"
	case code == exitFailure && op.probe && done && !uncertain && !strings.Contains(out, "not done"):
		return "a probe that compiled failed without saying why"
	case fk.name == "lose-answer" && code != exitOK && op.name != "user-lists calculation-rules":
		return "the platform acted and only its answer was lost, yet the run failed"
	}
	return ""
}

// runInterrupting runs elemctl; with arrivals, it sends SIGINT as soon as
// the watched request arrives at the stand.
func (b *faultBed) runInterrupting(arrivals <-chan stand.Call, args ...string) (stdout, stderr string, code int) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Env, cmd.Dir = b.env, b.work
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	if arrivals != nil {
		select {
		case <-arrivals:
			_ = cmd.Process.Signal(os.Interrupt)
			interrupted := time.Now()
			err = <-waited
			if took := time.Since(interrupted); took > 5*time.Second {
				b.t.Errorf("the run ended %v after the interrupt", took)
			}
		case err = <-waited:
			b.t.Errorf("the run ended before the watched request arrived")
		}
	} else {
		err = <-waited
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		b.t.Fatalf("elemctl %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// settleFault waits until the request the fault held has been carried out
// by the stand (it acts even when the client has gone).
func (b *faultBed) settleFault() {
	deadline := time.Now().Add(20 * time.Second)
	for {
		fired := false
		for _, f := range b.stand.Firings() {
			fired = fired || f.Rule == "cell"
		}
		if !fired {
			return
		}
		for _, c := range b.stand.Calls() {
			if strings.Contains(c.Fault, "cell") {
				return
			}
		}
		if time.Now().After(deadline) {
			b.t.Fatal("the faulted request never completed on the stand")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hintCommand is a printed command and whether it only looks.
type hintCommand struct {
	text  string
	check bool
}

// printedHints are the commands a run printed for the user to paste: the
// "hint" of the error it ended with, the answer's hint, a probe's cleanup
// command.
func printedHints(stdout, stderr string) []hintCommand {
	var texts []string
	if i := strings.Index(stderr, "\n{"); i >= 0 || strings.HasPrefix(stderr, "{") {
		var obj map[string]any
		if json.Unmarshal([]byte(stderr[i+1:]), &obj) == nil {
			if h, ok := obj["hint"].(string); ok {
				texts = append(texts, h)
			}
		}
	}
	var answer map[string]any
	if json.Unmarshal([]byte(stdout), &answer) == nil {
		if h, ok := answer["hint"].(string); ok {
			texts = append(texts, h)
		}
		if c, ok := answer["cleanup"].(map[string]any); ok {
			if cmd, ok := c["command"].(string); ok && cmd != "" {
				texts = append(texts, cmd)
			}
		}
	}
	var out []hintCommand
	for _, text := range texts {
		i := strings.Index(text, "elemctl ")
		if i < 0 {
			continue // a sentence without a command (the server log)
		}
		cmd := text[i:]
		words := strings.Fields(cmd)
		check := len(words) > 1 && (words[1] == "verify-deploy" || words[1] == "builds" && len(words) > 2 && words[2] == "list" ||
			words[1] == "apps" && len(words) > 2 && words[2] == "get")
		out = append(out, hintCommand{text: cmd, check: check})
	}
	return out
}

// runHint pastes a hint: a command that only looks must answer (exit 0 or
// 1 with an answer), one that acts must succeed and make the change.
func (b *faultBed) runHint(op faultOp, h hintCommand, before stand.Snapshot) {
	t := b.t
	t.Helper()
	count(&matrixCounts.hintsRun)
	fail := func(format string, args ...any) {
		count(&matrixCounts.hintsFailed)
		t.Errorf("pasted hint %q: "+format, append([]any{h.text}, args...)...)
	}
	for _, line := range strings.Split(h.text, " && ") {
		words, err := shellWords(line)
		if err != nil || len(words) < 2 || words[0] != "elemctl" {
			fail("not a command line: %v", err)
			return
		}
		cmd := exec.Command(b.bin, words[1:]...)
		cmd.Env, cmd.Dir = append(append([]string{}, b.env...), b.secretEnv...), b.work
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err = cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			fail("%v", err)
			return
		}
		var answer any
		answered := json.Unmarshal(out.Bytes(), &answer) == nil
		if !answered && code == 1 {
			// A look the platform answered with a refusal (a deleted
			// application's 404) still tells the state.
			var refusal map[string]any
			answered = json.Unmarshal(errOut.Bytes(), &refusal) == nil && refusal["status"] != nil
		}
		switch {
		case h.check && (code > 1 || !answered):
			fail("exit %d\n%s%s", code, out.String(), errOut.String())
			return
		case !h.check && code != 0:
			fail("exit %d\n%s%s", code, out.String(), errOut.String())
			return
		}
	}
	if !h.check && !op.probe && !op.done(b, before, b.stand.Snapshot()) {
		fail("it ran, and the change is still not made")
	}
}

// shellWords splits a command line as a POSIX shell does for the quoting
// hints use: double quotes, and backslash escapes inside them.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	runes := []rune(line)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case quoted && r == '\\' && i+1 < len(runes) && strings.ContainsRune("\"\\$`", runes[i+1]):
			i++
			cur.WriteRune(runes[i])
		case r == '"':
			quoted, inWord = !quoted, true
		case !quoted && (r == ' ' || r == '\t'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New("unclosed quote")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// --- what the stand shows ---

func appOf(s stand.Snapshot, id string) *stand.App {
	for i := range s.Apps {
		if s.Apps[i].ID == id {
			return &s.Apps[i]
		}
	}
	return nil
}

func liveApps(s stand.Snapshot, name string) int {
	n := 0
	for _, a := range s.Apps {
		if a.Status != "Deleted" && a.Status != "Deleting" && strings.EqualFold(a.PublicationContext, name) {
			n++
		}
	}
	return n
}

func liveProjects(s stand.Snapshot) int {
	n := 0
	for _, p := range s.Projects {
		if !p.Deleted && p.Kind != "Group" {
			n++
		}
	}
	return n
}

// newBuilds are the live builds of after that before did not have.
func newBuilds(before, after stand.Snapshot) []stand.Build {
	known := map[string]bool{}
	for _, b := range before.Builds {
		known[b.ID] = true
	}
	var out []stand.Build
	for _, b := range after.Builds {
		if !known[b.ID] && !b.Deleted {
			out = append(out, b)
		}
	}
	return out
}

func newBuildsOnce(_ *faultBed, before, after stand.Snapshot) string {
	if n := len(newBuilds(before, after)); n > 1 {
		return fmt.Sprintf("%d builds from one upload", n)
	}
	return ""
}

// deployed: the demo application runs a build uploaded by the run.
func deployed(b *faultBed, before, after stand.Snapshot) bool {
	a := appOf(after, b.demo.AppID)
	if a == nil || a.Status != "Running" {
		return false
	}
	for _, nb := range newBuilds(before, after) {
		if nb.ID == a.BuildID {
			return true
		}
	}
	return false
}

// compiled: a throwaway application of a probe was created, that is, the
// project was compiled, and the creation succeeded.
func compiled(_ *faultBed, before, after stand.Snapshot) bool {
	names := map[string]string{}
	for _, a := range after.Apps {
		names[a.ID] = a.Name
	}
	old := map[string]bool{}
	for _, t := range before.Tasks {
		old[t.ID] = true
	}
	for _, t := range after.Tasks {
		if !old[t.ID] && t.OperationType == "CreateApplication" && strings.HasPrefix(names[t.AppID], "elemctl-probe-") && t.Status == "Completed" {
			return true
		}
	}
	return false
}

// probeLeftovers names what of a probe is still on the stand: a live
// throwaway application, a live probe build, a project the probe created.
func probeLeftovers(initial, now stand.Snapshot) string {
	var left []string
	for _, a := range now.Apps {
		if strings.HasPrefix(a.Name, "elemctl-probe-") && a.Status != "Deleted" {
			left = append(left, "application "+a.Name+" ("+a.Status+")")
		}
	}
	for _, b := range now.Builds {
		if strings.Contains(b.Version, "-probe-") && !b.Deleted {
			left = append(left, "build "+b.Version)
		}
	}
	if n := liveProjects(now) - liveProjects(initial); n > 0 {
		left = append(left, fmt.Sprintf("%d project(s)", n))
	}
	return strings.Join(left, ", ")
}

// service is the control panel list's account service of a type.
func service(s stand.Snapshot, typ string) *stand.AccountService {
	for _, l := range s.UserLists {
		if !l.ControlPanel {
			continue
		}
		for i := range l.AccountServices {
			if strings.EqualFold(l.AccountServices[i].Type, typ) {
				return &l.AccountServices[i]
			}
		}
	}
	return nil
}

// logOnFailure shows a cell's output when it fails, or always with
// ELEMCTL_FAULTS_SHOW=1.
func logOnFailure(t *testing.T, out string) {
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("ELEMCTL_FAULTS_SHOW") != "" {
			t.Logf("output of the run:\n%s", out)
		}
	})
}
