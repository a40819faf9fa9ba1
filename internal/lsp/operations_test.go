package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/lsp"
	"github.com/elemctl/elemctl/internal/stand"
)

// running is a command executing in the background.
type running struct {
	done chan struct{}
	raw  json.RawMessage
	err  error
}

func (s *session) start(cmd string, arg map[string]any, token string) *running {
	r := &running{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		r.raw, r.err = s.execute(ctx, cmd, arg, token)
	}()
	return r
}

func (r *running) finished() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// wait waits for the command and says how long that took.
func (r *running) wait(t *testing.T) time.Duration {
	t.Helper()
	began := time.Now()
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the command did not end")
	}
	return time.Since(began)
}

// updating tells whether the demo application is in the middle of an apply.
func updating(st *stand.Stand, appID string) bool {
	for _, a := range st.Snapshot().Apps {
		if a.ID == appID && a.Status == "Updating" {
			return true
		}
	}
	return false
}

func TestCancelRequestStopsADeployMidApply(t *testing.T) {
	// The apply takes 1.8 s of real time: long enough to cancel inside it.
	s := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Apply: 30 * time.Minute}}})
	s.initialize()
	deploy := commandID(t, "deploy")
	before := len(liveApps(s.stand))
	r := s.start(deploy, map[string]any{"cwd": s.ws}, "deploy-cancel")
	waitFor(t, "the apply", func() bool { return r.finished() || updating(s.stand, s.demo.AppID) })
	if r.finished() {
		t.Fatalf("the deploy ended before the cancel: %s %v", r.raw, r.err)
	}
	id, ok := s.idOf("deploy-cancel")
	if !ok {
		t.Fatal("no request id recorded")
	}
	s.cancelRequest(id)
	if took := r.wait(t); took > 1500*time.Millisecond {
		t.Errorf("the cancel took %v", took)
	}
	je := rpcError(t, r.err)
	if je.Code != -32800 {
		t.Errorf("a cancelled deploy: %v", je)
	}
	if after := len(liveApps(s.stand)); after != before {
		t.Errorf("applications: %d before, %d after", before, after)
	}
	// The progress ended and the editor was told.
	progress := s.messages("$/progress")
	if len(progress) == 0 || !strings.Contains(string(progress[len(progress)-1]), `"kind":"end"`) {
		t.Errorf("progress after the cancel: %s", progress)
	}
	shown := s.messages("window/showMessage")
	if len(shown) != 1 || !strings.Contains(string(shown[0]), `"type":2`) {
		t.Errorf("the cancel is shown as a warning: %s", shown)
	}
	// The session goes on.
	if out := s.run("elemctl.apps.list", map[string]any{"cwd": s.ws}); out["total"] == nil {
		t.Errorf("after the cancel: %v", out)
	}
}

// liveProbeApps are the throwaway applications still on the stand, and the
// probe builds not deleted.
func probeLeftovers(st *stand.Stand) (apps, builds []string) {
	sn := st.Snapshot()
	for _, a := range sn.Apps {
		if a.Status != "Deleted" && strings.HasPrefix(a.PublicationContext, "elemctl-probe-") {
			apps = append(apps, a.ID)
		}
	}
	for _, b := range sn.Builds {
		if !b.Deleted && strings.Contains(b.Version, "-probe-") {
			builds = append(builds, b.Version)
		}
	}
	return apps, builds
}

func TestProgressCancelStopsAProbeThatCleansUp(t *testing.T) {
	// Creating the throwaway application takes 1.2 s of real time.
	s := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Create: 20 * time.Minute}}})
	s.initialize()
	probe := commandID(t, "probe")
	r := s.start(probe, map[string]any{"cwd": s.ws}, "probe-cancel")
	waitFor(t, "the probe application", func() bool {
		apps, _ := probeLeftovers(s.stand)
		return r.finished() || len(apps) > 0
	})
	if r.finished() {
		t.Fatalf("the probe ended before the cancel: %s %v", r.raw, r.err)
	}
	if err := s.conn.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": "probe-cancel"}); err != nil {
		t.Fatal(err)
	}
	r.wait(t)
	je := rpcError(t, r.err)
	if je.Code != -32800 {
		t.Fatalf("a cancelled probe: %v", je)
	}
	// The message says what the cleanup did.
	if !strings.Contains(je.Message, "проба прервана") || !strings.Contains(je.Message, "убрано") {
		t.Errorf("the cancel message: %s", je.Message)
	}
	apps, builds := probeLeftovers(s.stand)
	if len(apps) > 0 || len(builds) > 0 {
		t.Errorf("the cancelled probe left applications %v and builds %v", apps, builds)
	}
}

func TestADeployNeverBlocksQuickCommands(t *testing.T) {
	s := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Apply: 30 * time.Minute}}})
	s.initialize()
	deploy := commandID(t, "deploy")
	r := s.start(deploy, map[string]any{"cwd": s.ws}, "deploy-long")
	waitFor(t, "the apply", func() bool { return r.finished() || updating(s.stand, s.demo.AppID) })
	began := time.Now()
	for i := 0; i < 5; i++ {
		out := s.run("elemctl.apps.list", map[string]any{"cwd": s.ws, "brief": true})
		if out["live"] == nil {
			t.Fatalf("apps.list: %v", out)
		}
		s.run("elemctl.apps.get", map[string]any{"cwd": s.ws})
	}
	took := time.Since(began)
	if r.finished() {
		t.Fatalf("the deploy ended before the quick commands did (they took %v): %s %v", took, r.raw, r.err)
	}
	if took > time.Second {
		t.Errorf("ten quick commands beside a deploy took %v", took)
	}
	r.wait(t)
	if r.err != nil {
		t.Fatalf("the deploy itself: %v", r.err)
	}
	var report map[string]any
	_ = json.Unmarshal(r.raw, &report)
	if report["ok"] != true {
		t.Errorf("the deploy: %s", r.raw)
	}
}

// diagnosticsOf is the last publishDiagnostics of a URI: its items, and
// whether there was one at all.
func (s *session) diagnosticsOf(uri string) ([]map[string]any, bool) {
	var last []map[string]any
	found := false
	for _, raw := range s.messages("textDocument/publishDiagnostics") {
		var p struct {
			URI         string           `json:"uri"`
			Diagnostics []map[string]any `json:"diagnostics"`
		}
		_ = json.Unmarshal(raw, &p)
		if p.URI == uri {
			last, found = p.Diagnostics, true
		}
	}
	return last, found
}

func TestProbeErrorsBecomeDiagnosticsUntilACleanRun(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	probe := commandID(t, "probe")
	deploy := commandID(t, "deploy")
	source := filepath.Join(s.project, "Основное", "Задачи.xbsl")
	good, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	broken := strings.Join(append(lines[:2:2], append([]string{`    #error Тип "Х" не виден`}, lines[2:]...)...), "\n")
	uri := lsp.URIFromPath(source)

	check := func(stage string, want int) {
		t.Helper()
		diags, found := s.diagnosticsOf(uri)
		if !found {
			t.Fatalf("%s: no diagnostics published for %s; published: %s", stage, uri, s.messages("textDocument/publishDiagnostics"))
		}
		if len(diags) != want {
			t.Fatalf("%s: %d diagnostics, want %d: %v", stage, len(diags), want, diags)
		}
		if want == 0 {
			return
		}
		d := diags[0]
		rng := d["range"].(map[string]any)
		start := rng["start"].(map[string]any)
		end := rng["end"].(map[string]any)
		// Line 3, column 5 of the platform: 0-based line 2, character 4,
		// to the end of the line's text.
		if start["line"] != 2.0 || start["character"] != 4.0 || end["line"] != 2.0 || end["character"] != float64(len([]rune(`    #error Тип "Х" не виден`))) {
			t.Errorf("%s: range %v", stage, rng)
		}
		if d["severity"] != 1.0 || !strings.Contains(d["message"].(string), `Тип "Х" не виден`) || !strings.Contains(d["message"].(string), "Сервер") {
			t.Errorf("%s: diagnostic %v", stage, d)
		}
	}

	// A failing probe puts the error on the line.
	writeFile(t, source, broken)
	out := s.run(probe, map[string]any{"cwd": s.ws})
	if out["ok"] != false {
		t.Fatalf("a probe of a broken project: %v", out)
	}
	check("failing probe", 1)
	shown := s.messages("window/showMessage")
	if len(shown) == 0 || !strings.Contains(string(shown[len(shown)-1]), `"type":1`) {
		t.Errorf("the failed probe is shown as an error: %s", shown)
	}
	// A clean probe clears it.
	writeFile(t, source, string(good))
	if out := s.run(probe, map[string]any{"cwd": s.ws}); out["ok"] != true {
		t.Fatalf("a probe of the fixed project: %v", out)
	}
	check("clean probe", 0)

	// A deploy that the platform rolls back shows the error too, as an
	// error message.
	writeFile(t, source, broken)
	out = s.run(deploy, map[string]any{"cwd": s.ws})
	if out["ok"] != false {
		t.Fatalf("a deploy of a broken project: %v", out)
	}
	check("rolled back deploy", 1)
	shown = s.messages("window/showMessage")
	if last := string(shown[len(shown)-1]); !strings.Contains(last, `"type":1`) || !strings.Contains(last, "откатила") {
		t.Errorf("the rollback is shown as an error: %s", last)
	}
	// A clean deploy clears it.
	writeFile(t, source, string(good))
	if out := s.run(deploy, map[string]any{"cwd": s.ws}); out["ok"] != true {
		t.Fatalf("a deploy of the fixed project: %v", out)
	}
	check("clean deploy", 0)
}

func TestCodeLensesOnTheDescriptor(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	lenses := func(uri string) []map[string]any {
		var out []map[string]any
		if _, err := s.conn.Call(context.Background(), "textDocument/codeLens",
			map[string]any{"textDocument": map[string]any{"uri": uri}}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := lenses(lsp.URIFromPath(filepath.Join(s.project, "Проект.yaml")))
	var cmds []string
	for _, l := range got {
		c := l["command"].(map[string]any)
		cmds = append(cmds, c["command"].(string))
		arg := c["arguments"].([]any)[0].(map[string]any)
		if arg["cwd"] != s.ws || arg["projectDir"] != s.project {
			t.Errorf("lens argument: %v", arg)
		}
	}
	var want []string
	for _, path := range [][]string{{"deploy"}, {"probe"}, {"verify-deploy"}} {
		want = append(want, commandID(t, path...))
	}
	if strings.Join(cmds, " ") != strings.Join(want, " ") {
		t.Errorf("lenses %v, want %v", cmds, want)
	}
	if l := lenses(lsp.URIFromPath(filepath.Join(s.project, "Основное", "Задачи.xbsl"))); len(l) != 0 {
		t.Errorf("lenses on a module: %v", l)
	}
	// The lens runs as it is.
	c := got[1]["command"].(map[string]any)
	arg := c["arguments"].([]any)[0].(map[string]any)
	if out := s.run(c["command"].(string), arg); out["ok"] != true {
		t.Errorf("the probe lens: %v", out)
	}
}

func TestShutdownStopsRunningCommandsFirst(t *testing.T) {
	s := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Apply: 30 * time.Minute}}})
	s.initialize()
	deploy := commandID(t, "deploy")
	r := s.start(deploy, map[string]any{"cwd": s.ws}, "deploy-at-shutdown")
	waitFor(t, "the apply", func() bool { return r.finished() || updating(s.stand, s.demo.AppID) })
	if r.finished() {
		t.Fatalf("the deploy ended too early: %s %v", r.raw, r.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The client hands each answer to its caller's goroutine, so the
	// deploy's may be delivered a moment after shutdown's returned; the
	// order on the wire is what the server decided: the deploy first.
	waitFor(t, "the deploy's answer", r.finished)
	s.mu.Lock()
	deployID := fmt.Sprintf("%q", s.calls[`"deploy-at-shutdown"`])
	s.mu.Unlock()
	answers := s.messages("<response>")
	if len(answers) < 2 || string(answers[len(answers)-2]) != deployID {
		t.Fatalf("shutdown was answered while the deploy still ran: responses %s, deploy %s", answers, deployID)
	}
	if je := rpcError(t, r.err); je.Code != -32800 {
		t.Errorf("the deploy at shutdown: %v", je)
	}
	_ = s.conn.Notify(ctx, "exit", nil)
	if err := s.waitServed(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestDebugAdapterCommand runs the adapter lookup the XBSL debug set-up
// needs (`elemctl debug-adapter`) as elemctl.debugAdapter.
func TestDebugAdapterCommand(t *testing.T) {
	c := catalog.Core().Tool("debug_adapter")
	if c == nil || c.LSP != "debugAdapter" {
		t.Fatalf("the catalog's debug_adapter command must answer as elemctl.debugAdapter: %+v", c)
	}
	s := start(t, setup{noSeed: true})
	s.initialize()
	out := s.run("elemctl.debugAdapter", map[string]any{"cwd": s.ws})
	if found, ok := out["found"].(bool); !ok || (found && out["path"] == nil) {
		t.Errorf("debugAdapter: %v", out)
	}
}

// A dry run from the editor tells how to keep the archive by the command's
// own parameter, not by the command line's --output.
func TestDryRunNamesTheEditorsParameter(t *testing.T) {
	t.Parallel()
	s := start(t, setup{})
	s.initialize()
	out := s.run(commandID(t, "deploy"), map[string]any{"cwd": s.ws, "projectDir": s.project, "dryRun": true})
	said := fmt.Sprint(out)
	for _, m := range append(s.messages("window/logMessage"), s.messages("$/progress")...) {
		said += "\n" + string(m)
	}
	if !strings.Contains(said, "передайте каталог в output") || strings.Contains(said, "--output") {
		t.Errorf("the dry run should name the parameter output, not --output: %s", said)
	}
}
