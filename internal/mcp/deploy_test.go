package mcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/stand"
)

// demoProject is the demo project's directory in the repository.
func demoProject(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "demo", "Acme", "Tasks"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// needTools fails a test whose tools the server does not serve.
func needTools(t *testing.T, h *harness, tools ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, name := range h.srv.Tools() {
		have[name] = true
	}
	for _, name := range tools {
		if !have[name] {
			t.Fatalf("the server has no %s tool", name)
		}
	}
}

// fastPolls makes the deploy waits poll at the stand's accelerated pace.
func fastPolls(h *harness) { h.env["ELEMCTL_POLL_SCALE"] = "0.001" }

func TestDeployThroughMCPReportsWithLogAndProgress(t *testing.T) {
	h := start(t, setup{})
	needTools(t, h, "deploy", "verify_deploy")
	fastPolls(h)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := h.callWith(ctx, "deploy", map[string]any{
		"app_id": h.demo.AppName, "project_id": h.demo.ProjectID, "project_dir": demoProject(t),
		// A negative wait for a starting server is no wait, as 0 is.
		"server_start_timeout": -1,
	}, &mcpgo.Meta{ProgressToken: "deploy"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("deploy: %s", textOf(res))
	}
	report := decodeText(t, textOf(res)).(*jsonx.Object)
	if !report.Bool("ok") {
		t.Errorf("deploy of the demo must succeed: %s", textOf(res))
	}
	log, _ := report.Value("log").([]any)
	if len(log) == 0 {
		t.Errorf("the deploy report carries its log: %s", textOf(res))
	}
	target := fmt.Sprint(log...)
	if !strings.Contains(target, "(задано параметром app_id), проект "+h.demo.ProjectID+" (задано параметром project_id)") ||
		strings.Contains(target, "флагом") {
		t.Errorf("the target line names the tool's parameters, not a flag: %v", log)
	}
	waitFor(t, "progress of the deploy", func() bool { return len(h.progressNotes()) > 0 })
	if first := h.progressNotes()[0]; first["message"] != log[0] {
		t.Errorf("progress follows the log: %v vs %v", first["message"], log[0])
	}
	verify := h.ok("verify_deploy", map[string]any{"app_id": h.demo.AppID})
	if !verify.Bool("ok") {
		t.Errorf("verify after deploy: %v", verify)
	}
}

// gitDemo copies the demo project into a fresh repository with one commit
// and returns the project directory.
func gitDemo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "Acme", "Tasks")
	src := demoProject(t)
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.name", "MCP Test"}, {"config", "user.email", "mcp@example.com"},
		{"add", "-A"}, {"commit", "-q", "-m", "demo"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestDeployThroughMCPPassesAllowDataLoss: the deploy tool's
// allow_data_loss reaches the schema guard: without it a shorter length
// is refused (an error result), with it the apply goes through "allowed".
func TestDeployThroughMCPPassesAllowDataLoss(t *testing.T) {
	h := start(t, setup{})
	needTools(t, h, "deploy")
	fastPolls(h)
	dir := gitDemo(t)
	args := func(allow bool) map[string]any {
		return map[string]any{"app_id": h.demo.AppID, "project_id": h.demo.ProjectID, "project_dir": dir, "allow_data_loss": allow}
	}
	if first := h.ok("deploy", args(false)); first.Value("schema-check") != "skipped:no-commit-id" {
		t.Fatalf("first deploy: %v", first)
	}
	file := filepath.Join(dir, "Основное", "Задача.yaml")
	data, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(data), "Длина: 200", "Длина: 20", 1)), 0o644)
	if out, err := exec.Command("git", "-C", dir, "commit", "-q", "-am", "shorter").CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	refusal := h.fails("deploy", args(false))
	if !strings.Contains(refusal, "ОТКАЗ: применение уничтожит данные") || !strings.Contains(refusal, "длина уменьшается с 200 до 20") {
		t.Errorf("refusal: %s", refusal)
	}
	// The refusal names the tool's parameter, not the command line's flag.
	if !strings.Contains(refusal, "повторите с allow_data_loss=true") || strings.Contains(refusal, "--allow-data-loss") {
		t.Errorf("the refusal should name allow_data_loss=true: %s", refusal)
	}
	allowed := h.ok("deploy", args(true))
	if allowed.Value("schema-check") != "allowed" || !allowed.Bool("ok") || allowed.Value("schema-commit-source") != "platform" {
		t.Fatalf("allowed deploy: %v", allowed)
	}
	if log := fmt.Sprint(allowed.Value("log")); !strings.Contains(log, "внимание: allow_data_loss=true – применение уничтожит данные") || strings.Contains(log, "--allow-data-loss") {
		t.Errorf("the warning should name allow_data_loss=true: %s", log)
	}
	if warnings, _ := allowed.Value("schema-warnings").([]any); len(warnings) != 1 {
		t.Errorf("schema-warnings %v", allowed.Value("schema-warnings"))
	}
}

// liveProbes are the probe applications still alive on the stand.
func liveProbes(t *testing.T, h *harness) []string {
	t.Helper()
	var out []string
	for _, a := range jsonx.Objects(h.ok("list_apps", nil).Value("applications")) {
		if strings.HasPrefix(a.Str("name"), "elemctl-probe-") {
			out = append(out, a.Str("id"))
		}
	}
	return out
}

func TestProbeThroughMCP(t *testing.T) {
	h := start(t, setup{})
	needTools(t, h, "probe")
	fastPolls(h)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := h.callWith(ctx, "probe", map[string]any{"project_dir": demoProject(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("probe: %s", textOf(res))
	}
	report := decodeText(t, textOf(res)).(*jsonx.Object)
	if log, _ := report.Value("log").([]any); len(log) == 0 {
		t.Errorf("the probe report carries its log: %s", textOf(res))
	}
	if left := liveProbes(t, h); len(left) > 0 {
		t.Errorf("probe without keep leaves nothing behind: %v", left)
	}

	// A kept probe, removed with probe_cleanup beside a refused reference:
	// the answer names both and carries the cleanup's log.
	res, err = h.callWith(ctx, "probe", map[string]any{"project_dir": demoProject(t), "keep": true}, nil)
	if err != nil || res.IsError {
		t.Fatalf("probe keep: %v %s", err, textOf(res))
	}
	keptReport := decodeText(t, textOf(res)).(*jsonx.Object)
	kept := keptReport.Str("app-id")
	// The log names the tool's keep parameter, not the command line's --keep.
	if log := fmt.Sprint(keptReport.Value("log")); !strings.Contains(log, "уборка выключена (keep=true)") || strings.Contains(log, "--keep") {
		t.Errorf("the kept probe's log should name keep=true: %s", log)
	}
	res, err = h.callWith(ctx, "probe_cleanup", map[string]any{"app_id": []any{kept, h.demo.AppName}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cleanup := decodeText(t, textOf(res)).(*jsonx.Object)
	cleanups, _ := cleanup.Value("cleanups").([]any)
	if log, _ := cleanup.Value("log").([]any); cleanup.Value("ok") != false || len(cleanups) != 2 || len(log) == 0 {
		t.Errorf("probe_cleanup: %s", textOf(res))
	}
}

// TestCancelledProbeStillCleansUp: notifications/cancelled (here the
// in-process client's context) stops the probe promptly, and the probe's
// own cleanup still removes what it created.
func TestCancelledProbeStillCleansUp(t *testing.T) {
	// Creating the probe application takes seconds, long enough to cancel
	// in the middle.
	h := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Create: 20 * time.Minute}}})
	needTools(t, h, "probe")
	fastPolls(h)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	var res *mcpgo.CallToolResult
	var callErr error
	go func() {
		defer close(done)
		res, callErr = h.callWith(ctx, "probe", map[string]any{"project_dir": demoProject(t)}, &mcpgo.Meta{ProgressToken: "probe"})
	}()
	// Cancel once the probe application exists.
	waitFor(t, "the probe application", func() bool {
		select {
		case <-done:
			return true
		default:
		}
		return len(liveProbes(t, h)) > 0
	})
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled probe did not stop")
	}
	if callErr == nil && !res.IsError {
		t.Fatalf("the probe finished before it could be cancelled: %s", textOf(res))
	}
	t.Logf("cancelled probe: %v %s", callErr, textOf(res))
	waitFor(t, "the cleanup of the cancelled probe", func() bool { return len(liveProbes(t, h)) == 0 })
}
