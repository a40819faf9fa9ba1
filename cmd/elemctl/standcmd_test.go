package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// startStandProcess runs `elemctl stand` and reads the JSON object it
// prints before serving.
func startStandProcess(t *testing.T, bin string, args ...string) (*exec.Cmd, map[string]any) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"stand", "--speed", "0.001"}, args...)...)
	cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		text.WriteString(sc.Text() + "\n")
		if sc.Text() == "}" {
			break
		}
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(text.String()), &info); err != nil {
		t.Fatalf("stand answer %q: %v", text.String(), err)
	}
	return cmd, info
}

func TestStandCommandSeedsWritesEnvAndKeepsState(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	envFile, state := filepath.Join(dir, "demo.env"), filepath.Join(dir, "state.json")
	cmd, info := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile, "--state", state)
	for _, k := range []string{"base-url", "client-id", "client-secret", "space-id", "project-id", "app-id", "env-file"} {
		if info[k] == nil || info[k] == "" {
			t.Errorf("the stand's answer lacks %s: %v", k, info)
		}
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"ELEMENT_BASE_URL=" + info["base-url"].(string), "ELEMENT_APP_ID=" + info["app-id"].(string),
		"ELEMENT_PROJECT_ID=" + info["project-id"].(string), "ELEMCTL_NO_PROXY=1"} {
		if !strings.Contains(string(env), line+"\n") {
			t.Errorf(".env lacks %q:\n%s", line, env)
		}
	}
	if st, _ := os.Stat(envFile); st.Mode().Perm() != 0o600 {
		t.Errorf("the .env holds the secret; mode %v", st.Mode().Perm())
	}

	// The written .env is all a command needs.
	get := exec.Command(bin, "--env-file", envFile, "apps", "get")
	get.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+dir)
	out, err := get.Output()
	if err != nil || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("apps get against the stand: %v\n%s", err, out)
	}

	// Ctrl-C stops it cleanly.
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the stand did not stop cleanly: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stand ignored the interrupt")
	}

	// A restart with the same state keeps the application and seeds nothing twice.
	_, again := startStandProcess(t, bin, "--seed", "demo", "--state", state)
	if again["app-id"] != nil {
		t.Errorf("a restored stand was seeded again: %v", again)
	}
	list := exec.Command(bin, "--base-url", again["base-url"].(string), "--client-id", again["client-id"].(string),
		"--client-secret", again["client-secret"].(string), "apps", "list", "--brief")
	list.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+dir, "ELEMCTL_NO_PROXY=1")
	out, err = list.Output()
	if err != nil || strings.Count(string(out), `"id"`) != 1 || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("the restored stand should hold the one demo application: %v\n%s", err, out)
	}
}
