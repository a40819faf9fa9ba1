package deploy_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/messages"
	"github.com/elemctl/elemctl/internal/ops/deploy"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

var binary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// elemctlBinary builds the real binary once for the tests that send it
// signals.
func elemctlBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "elemctl-deploy-test-")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "elemctl")
		cmd := exec.Command("go", "build", "-o", binary.path, "../../../cmd/elemctl")
		binary.out, binary.err = cmd.CombinedOutput()
	})
	if binary.err != nil {
		t.Fatalf("building elemctl: %v\n%s", binary.err, binary.out)
	}
	return binary.path
}

func TestMain(m *testing.M) {
	i18n.Register(messages.Operations()...)
	code := m.Run()
	if binary.path != "" {
		os.RemoveAll(filepath.Dir(binary.path))
	}
	os.Exit(code)
}

// TestProbeInterruptedStillCleansUp runs the real binary and stops it with
// a signal after the upload – once mid-wait for the throwaway application
// (SIGINT, Ctrl-C) and once right after the upload, before the create
// (SIGTERM). Both times the run must remove everything it made and exit
// with 130, and the stand must hold nothing of it.
func TestProbeInterruptedStillCleansUp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a console interrupt cannot be sent to another process on Windows")
	}
	bin := elemctlBinary(t)
	cases := []struct {
		name  string
		sig   os.Signal
		after string
		delay time.Duration
		// second: one more signal while the cleanup runs, which tells
		// what it still does and how to finish it.
		second bool
	}{
		{"sigint-mid-wait", os.Interrupt, "создаю временное приложение", 150 * time.Millisecond, false},
		{"sigterm-after-upload", syscall.SIGTERM, "сборка загружена", 0, false},
		{"sighup-mid-wait", syscall.SIGHUP, "создаю временное приложение", 150 * time.Millisecond, false},
		{"second-sigint-during-cleanup", os.Interrupt, "создаю временное приложение", 150 * time.Millisecond, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The create takes a second of real time: long enough to be
			// interrupted in the middle, short enough for the cleanup to
			// wait until the application can be deleted.
			s := standtest.Start(t, stand.Options{Speed: 0.01, Durations: stand.Durations{Create: 100 * time.Second, Delete: time.Second}})
			before := idsOf(s.Snapshot())
			home := t.TempDir()
			cmd := exec.Command(bin, "probe", "--project-dir", demoCopy(t, nil))
			cmd.Env = append(os.Environ(),
				"ELEMENT_BASE_URL="+s.URL(), "ELEMENT_CLIENT_ID="+s.ClientID(), "ELEMENT_CLIENT_SECRET="+s.ClientSecret(),
				"ELEMENT_APP_ID=", "ELEMENT_PROJECT_ID=", "ELEMENT_SPACE_ID=",
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
			var stderr strings.Builder
			signalled := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				sc := bufio.NewScanner(pipe)
				sent := false
				for sc.Scan() {
					stderr.WriteString(sc.Text() + "\n")
					if !sent && strings.Contains(sc.Text(), tc.after) {
						sent = true
						time.Sleep(tc.delay)
						cmd.Process.Signal(tc.sig)
						if tc.second {
							time.Sleep(100 * time.Millisecond)
							cmd.Process.Signal(tc.sig)
						}
						close(signalled)
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
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("the probe did not end after the signal:\n%s", stderr.String())
			}
			select {
			case <-signalled:
			default:
				t.Fatalf("the probe ended before %q appeared:\n%s", tc.after, stderr.String())
			}
			var exit *exec.ExitError
			if !errors.As(runErr, &exit) || exit.ExitCode() != 130 {
				t.Errorf("exit %v, want 130\n%s", runErr, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("an interrupted probe printed an answer: %s", stdout.String())
			}
			if !strings.Contains(stderr.String(), "проба прервана; всё, что она успела создать, убрано") {
				t.Errorf("the interruption does not say the cleanup is done:\n%s", stderr.String())
			}
			if strings.Contains(stderr.String(), "context canceled") {
				t.Errorf("a raw context error reached the user:\n%s", stderr.String())
			}
			if tc.second && !strings.Contains(stderr.String(), "идёт уборка того, что создала проба") ||
				tc.second && !strings.Contains(stderr.String(), "elemctl probe --cleanup ") {
				t.Errorf("the second interrupt does not tell what is being cleaned up and how to finish:\n%s", stderr.String())
			}
			assertNothingLeft(t, s, before)
			t.Logf("stderr of the run:\n%s", stderr.String())
		})
	}
}
