package deploy_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// TestDeployStopsWhenTheStandDies runs the real binary and closes the
// stand once the apply started: deploy must not wait out its five minutes
// line after line, but stop after a bounded number of failed polls with
// exit 1, one error that says the platform is not answering, and the exact
// verify-deploy command to run later.
func TestDeployStopsWhenTheStandDies(t *testing.T) {
	bin := elemctlBinary(t)
	// The apply takes three seconds of real time: the stand is gone long
	// before it would end.
	s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Apply: 300 * time.Second}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cmd := exec.Command(bin, "deploy", "--project-dir", demoCopy(t, nil))
	cmd.Env = append(os.Environ(),
		"ELEMENT_BASE_URL="+s.URL(), "ELEMENT_CLIENT_ID="+s.ClientID(), "ELEMENT_CLIENT_SECRET="+s.ClientSecret(),
		"ELEMENT_APP_ID="+demo.AppID, "ELEMENT_PROJECT_ID="+demo.ProjectID,
		"ELEMCTL_NO_PROXY=1", "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_LANG=ru", "ELEMCTL_DATA_DIR="+filepath.Join(home, "data"),
		deploy.PollScaleVar+"=0.01", "HOME="+home, "TMPDIR="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"))
	cmd.Dir = home
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	buildID := ""
	closed := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if m := regexp.MustCompile(`сборка загружена \(id: ([0-9a-f-]+)\)`).FindStringSubmatch(sc.Text()); m != nil {
				buildID = m[1]
			}
			if !closed && strings.Contains(sc.Text(), "применение началось") {
				closed = true
				s.Close()
			}
		}
	}()
	waited := make(chan error, 1)
	go func() {
		<-done
		waited <- cmd.Wait()
	}()
	var runErr error
	select {
	case runErr = <-waited:
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-waited
		t.Fatalf("deploy did not stop after the stand died:\n%s", strings.Join(lines, "\n"))
	}
	text := strings.Join(lines, "\n")
	if !closed || buildID == "" {
		t.Fatalf("the deploy did not get to the apply:\n%s", text)
	}
	var exit *exec.ExitError
	if !errors.As(runErr, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit %v, want 1\n%s", runErr, text)
	}
	if stdout.Len() != 0 {
		t.Errorf("a deploy that could not finish printed an answer: %s", stdout.String())
	}
	// stderr ends with the error object.
	v, err := jsonx.Decode([]byte(strings.TrimSpace(strings.Join(lines[indexOfBrace(lines):], "\n"))))
	if err != nil {
		t.Fatalf("no error JSON at the end of stderr (%v):\n%s", err, text)
	}
	msg := v.(*jsonx.Object).Str("error")
	want := "elemctl verify-deploy " + demo.AppID + " --version-id " + buildID
	if !strings.Contains(msg, "платформа не отвечает") || !strings.Contains(msg, want) {
		t.Errorf("the error does not say the platform is gone and how to check later (%q):\n%s", want, msg)
	}
	if strings.Count(text, "оборвалось") > 1 {
		t.Errorf("the broken reads were not collapsed into one line:\n%s", text)
	}
	if len(lines) > 25 {
		t.Errorf("%d lines on stderr for a stand that died:\n%s", len(lines), text)
	}
	t.Logf("stderr:\n%s", text)
}

// indexOfBrace finds the line where the trailing JSON object starts.
func indexOfBrace(lines []string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "{") {
			return i
		}
	}
	return len(lines) - 1
}
