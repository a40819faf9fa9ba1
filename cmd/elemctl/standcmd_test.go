package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/testio"
)

// startStandProcess runs `elemctl stand` and reads the JSON object it
// prints before serving.
func startStandProcess(t *testing.T, bin string, args ...string) (map[string]any, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"stand", "--speed", "0.001", "--lang", "en"}, args...)...)
	cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
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
	info[standProcessKey] = cmd
	return info, stderr
}

// standProcessKey holds the process in the answer map startStandProcess returns.
const standProcessKey = " process"

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

func TestStandCommandSeedsWritesEnvAndKeepsState(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	envFile, state := filepath.Join(dir, "demo.env"), filepath.Join(dir, "state.json")
	info, _ := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile, "--state", state)
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
	stopStand(t, info)

	if st, err := os.Stat(state); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the state file holds the secret; it must be private: %v %v", st.Mode(), err)
	}

	// A restart with the same state: the first .env works as it is.
	again, _ := startStandProcess(t, bin, "--state", state)
	for _, k := range []string{"base-url", "client-id", "client-secret", "space-id", "project-id", "app-id"} {
		if again[k] != info[k] {
			t.Errorf("after the restart %s is %v, was %v", k, again[k], info[k])
		}
	}
	get = exec.Command(bin, "--env-file", envFile, "apps", "get")
	get.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+t.TempDir())
	if out, err := get.Output(); err != nil || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("apps get with the .env of the first start: %v\n%s", err, out)
	}
	stopStand(t, again)

	// Seeding again seeds nothing twice and writes the same .env.
	envAgain := filepath.Join(dir, "again.env")
	seeded, _ := startStandProcess(t, bin, "--seed", "demo", "--state", state, "--write-env", envAgain)
	if first, _ := os.ReadFile(envAgain); string(first) != string(env) {
		t.Errorf("the .env of a restart differs:\n%s\nwas\n%s", first, env)
	}
	list := exec.Command(bin, "--env-file", envFile, "apps", "list", "--brief")
	list.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+t.TempDir())
	out, err = list.Output()
	if err != nil || strings.Count(string(out), `"id"`) != 1 || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("the restored stand should hold the one demo application: %v\n%s", err, out)
	}
	stopStand(t, seeded)

	// The old address taken: a new one, said on stderr; the secret stays.
	taken, err := net.Listen("tcp", strings.TrimPrefix(info["base-url"].(string), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	moved, stderr := startStandProcess(t, bin, "--state", state)
	if moved["base-url"] == info["base-url"] || moved["client-secret"] != info["client-secret"] {
		t.Errorf("a stand whose address is taken: %v", moved)
	}
	stopStand(t, moved)
	if !strings.Contains(stderr.String(), "previous address "+strings.TrimPrefix(info["base-url"].(string), "http://")+" is taken") {
		t.Errorf("the move was not said: %q", stderr.String())
	}
}

// stopStand interrupts a stand process and waits for it.
func stopStand(t *testing.T, info map[string]any) {
	t.Helper()
	cmd := info[standProcessKey].(*exec.Cmd)
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
}
