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
		// midWait: the signal waits until the stand holds the throwaway
		// application, being created.
		midWait bool
		// second: one more signal once the cleanup asks the stand to
		// delete it, which tells what it still does and how to finish it.
		second bool
	}{
		{"sigint-mid-wait", os.Interrupt, "создаю временное приложение", true, false},
		{"sigterm-after-upload", syscall.SIGTERM, "сборка загружена", false, false},
		{"sighup-mid-wait", syscall.SIGHUP, "создаю временное приложение", true, false},
		{"second-sigint-during-cleanup", os.Interrupt, "создаю временное приложение", true, true},
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
			seen, signalled := make(chan struct{}), make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				sc := bufio.NewScanner(pipe)
				sent := false
				for sc.Scan() {
					stderr.WriteString(sc.Text() + "\n")
					if !sent && strings.Contains(sc.Text(), tc.after) {
						sent = true
						close(seen)
						go func() {
							defer close(signalled)
							var app string
							if tc.midWait {
								app = waitUntil(done, func() string { return newApp(s, before) })
							}
							cmd.Process.Signal(tc.sig)
							if tc.second {
								waitUntil(done, func() string { return deleteAsked(s, app) })
								cmd.Process.Signal(tc.sig)
							}
						}()
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
			<-done
			select {
			case <-seen:
				<-signalled // waits end with the process
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

// waitUntil polls found until it names something, or until stop closes
// (the process ended): then it gives "".
func waitUntil(stop <-chan struct{}, found func() string) string {
	for {
		if v := found(); v != "" {
			return v
		}
		select {
		case <-stop:
			return ""
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// newApp is an application of the stand that before did not hold.
func newApp(s *stand.Stand, before stateIDs) string {
	for _, a := range s.Snapshot().Apps {
		if !before.apps[a.ID] {
			return a.ID
		}
	}
	return ""
}

// deleteAsked tells (by a non-empty answer) that the stand was asked to
// delete the application.
func deleteAsked(s *stand.Stand, app string) string {
	for _, c := range s.Calls() {
		if c.Method == "DELETE" && strings.HasSuffix(c.Path, "/applications/"+app) {
			return c.Path
		}
	}
	return ""
}
