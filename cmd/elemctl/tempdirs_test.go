package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// demoProjects copies the shipped demo project twice: as it is, and with a
// compile error the stand refuses.
func demoProjects(t *testing.T) (good, broken string) {
	t.Helper()
	dir := t.TempDir()
	good, broken = filepath.Join(dir, "good"), filepath.Join(dir, "broken")
	testio.CopyTree(t, filepath.Join("..", "..", "examples", "demo"), good)
	testio.CopyTree(t, filepath.Join("..", "..", "examples", "demo"), broken)
	module := filepath.Join(broken, "Acme", "Tasks", "Основное", "Задачи.xbsl")
	f, err := os.OpenFile(module, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("\n#error Тип \"Х\" не виден\n"); err != nil {
		t.Fatal(err)
	}
	return good, broken
}

// cliBed runs the real binary against a stand with a private TMPDIR.
type cliBed struct {
	t      *testing.T
	bin    string
	stand  *stand.Stand
	tmp    string
	work   string
	env    []string
	demo   stand.DemoInfo
	good   string
	broken string
}

func newCLIBed(t *testing.T) *cliBed {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	home, tmp, work := t.TempDir(), t.TempDir(), t.TempDir()
	b := &cliBed{t: t, bin: buildBin(t, "cmd/elemctl"), stand: s, tmp: tmp, work: work, demo: demo}
	b.good, b.broken = demoProjects(t)
	b.env = []string{
		"PATH=" + os.Getenv("PATH"), "SYSTEMROOT=" + os.Getenv("SYSTEMROOT"),
		"HOME=" + home, "USERPROFILE=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"ELEMCTL_DATA_DIR=" + filepath.Join(home, "elemctl"), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_NO_PROXY=1", "ELEMCTL_LANG=en",
		"ELEMCTL_POLL_SCALE=0.01", "TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp,
		"ELEMENT_BASE_URL=" + s.URL(), "ELEMENT_CLIENT_ID=" + s.ClientID(), "ELEMENT_CLIENT_SECRET=" + s.ClientSecret(),
		"ELEMENT_APP_ID=" + demo.AppID, "ELEMENT_PROJECT_ID=" + demo.ProjectID,
	}
	return b
}

// run runs elemctl and returns its output and exit code.
func (b *cliBed) run(args ...string) (stdout, stderr string, code int) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Env, cmd.Dir = b.env, b.work
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		b.t.Fatalf("elemctl %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// leftovers lists what a run left in the temporary directory besides the
// token cache, which lives there by design (one small file per stand and
// client id, reused by the next command).
func (b *cliBed) leftovers() []string {
	b.t.Helper()
	entries, err := os.ReadDir(b.tmp)
	if err != nil {
		b.t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), "elemctl-token-") && strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		left = append(left, e.Name())
	}
	return left
}

func TestBuildsLeaveNoTemporaryFolders(t *testing.T) {
	t.Parallel()
	b := newCLIBed(t)
	otherProject := "019f0000-0000-7000-8000-00000000dead"
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"deploy, verified", []string{"deploy", "--project-dir", b.good}, 0},
		{"deploy, rolled back by a compile error", []string{"deploy", "--project-dir", b.broken}, 1},
		{"deploy, upload refused after the build", []string{"deploy", "--project-dir", b.good, "--project-id", otherProject}, 1},
		{"deploy --dry-run", []string{"deploy", "--dry-run", "--project-dir", b.good}, 0},
		{"deploy --dry-run, build fails", []string{"deploy", "--dry-run", "--project-dir", filepath.Join(b.work, "nowhere")}, 1},
		{"build", []string{"build", "--project-dir", b.good, "--output", filepath.Join(b.work, "dist")}, 0},
		{"build fails", []string{"build", "--project-dir", filepath.Join(b.work, "nowhere")}, 1},
		{"probe, compiles", []string{"probe", "--project-dir", b.good}, 0},
		{"probe, compile error", []string{"probe", "--project-dir", b.broken}, 1},
	}
	for _, c := range cases {
		stdout, stderr, code := b.run(c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, code, c.code, stdout, stderr)
		}
		if left := b.leftovers(); len(left) > 0 {
			t.Errorf("%s left %v in TMPDIR\n%s", c.name, left, stderr)
			for _, l := range left {
				os.RemoveAll(filepath.Join(b.tmp, l))
			}
		}
		if c.name == "deploy --dry-run" && !strings.Contains(stderr, "the archive was built in a temporary directory and removed; to keep it, pass --output DIR") {
			t.Errorf("a dry run without --output does not say its archive is gone:\n%s", stderr)
		}
	}
}

func TestDeployRefusesAMalformedProjectIDBeforeAnything(t *testing.T) {
	t.Parallel()
	b := newCLIBed(t)
	for _, c := range []struct {
		args []string
		name string
	}{
		{[]string{"deploy", "--project-dir", b.good, "--project-id", "not-a-uuid"}, "--project-id=not-a-uuid"},
		{[]string{"deploy", "--project-dir", b.good}, "ELEMENT_PROJECT_ID=Tasks"},
	} {
		if c.name == "ELEMENT_PROJECT_ID=Tasks" {
			b.env = append(b.env, "ELEMENT_PROJECT_ID=Tasks")
		}
		before := len(b.stand.Calls())
		stdout, stderr, code := b.run(c.args...)
		if code != 1 || stdout != "" {
			t.Errorf("exit %d, stdout %q; want exit 1 and the error on stderr", code, stdout)
		}
		if !strings.Contains(stderr, c.name+" is not a project id: the platform names projects by UUID") {
			t.Errorf("the refusal does not name %s:\n%s", c.name, stderr)
		}
		if strings.Count(stderr, "\n") > 4 {
			t.Errorf("more than the refusal was said (it is the first step):\n%s", stderr)
		}
		if calls := b.stand.Calls()[before:]; len(calls) > 0 {
			t.Errorf("the stand was asked %d time(s), first %s %s", len(calls), calls[0].Method, calls[0].Path)
		}
		if left := b.leftovers(); len(left) > 0 {
			t.Errorf("a temporary folder was made: %v", left)
		}
		if _, err := os.Stat(filepath.Join(b.good, "Tasks 1.0-1.xasm")); err == nil {
			t.Error("an archive was built")
		}
	}
}
