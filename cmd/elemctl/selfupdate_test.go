package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/dist"
	"github.com/elemctl/elemctl/internal/releasekey"
	"github.com/elemctl/elemctl/internal/selfupdate/updatetest"
	"github.com/elemctl/elemctl/internal/testio"
)

// TestSelfUpdateBinary runs the real binary, built as version 1.0.0,
// against a release feed on loopback that has 1.0.0 and 1.1.0, both real
// builds packed as `make dist` packs them.
func TestSelfUpdateBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds elemctl twice")
	}
	host := dist.Host()
	builds := t.TempDir()
	binaries := map[string][]byte{}
	built := map[string]string{}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		out := filepath.Join(builds, v, host.BinaryName())
		if err := dist.BuildBinary(context.Background(), dist.BuildOptions{ModuleDir: "../..", Target: host, Version: v,
			ReleaseKeys: updatetest.PublicKey.String()}, out); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		binaries[v] = data
		built[v] = out
	}
	newer := updatetest.PackRelease(t, "1.1.0", host.GOOS, host.GOARCH, binaries["1.1.0"])
	older := updatetest.PackRelease(t, "1.0.0", host.GOOS, host.GOARCH, binaries["1.0.0"])
	newFeed := func(t *testing.T) *updatetest.Server { return updatetest.NewServer(t, newer, older) }
	// install puts version 1.0.0 into a folder of its own.
	install := func(t *testing.T) string {
		exe := filepath.Join(t.TempDir(), host.BinaryName())
		testio.InstallExecutable(t, built["1.0.0"], exe)
		return exe
	}

	t.Run("check only reports", func(t *testing.T) {
		feed := newFeed(t)
		exe := install(t)
		r := runBinary(t, exe, feed, "self-update", "--check")
		r.wantCode(t, 0)
		answer := r.answer(t)
		if answer["updated"] != false || answer["from"] != "1.0.0" || answer["to"] != "1.1.0" ||
			answer["available"] != true || answer["path"] != realPath(t, exe) {
			t.Fatalf("answer %v", answer)
		}
		if !strings.Contains(r.stderr, "version 1.1.0 is available") {
			t.Fatalf("stderr %q", r.stderr)
		}
		wantVersion(t, exe, "1.0.0")
	})

	t.Run("moves to the newest release", func(t *testing.T) {
		feed := newFeed(t)
		exe := install(t)
		r := runBinary(t, exe, feed, "self-update")
		r.wantCode(t, 0)
		answer := r.answer(t)
		if answer["updated"] != true || answer["from"] != "1.0.0" || answer["to"] != "1.1.0" ||
			answer["archive"] != host.ArchiveName() || len(answer["stopped"].([]any)) != 0 {
			t.Fatalf("answer %v", answer)
		}
		wantVersion(t, exe, "1.1.0")
		wantAlone(t, exe)

		// The new binary finds nothing newer, and goes back when asked by version.
		r = runBinary(t, exe, feed, "self-update")
		r.wantCode(t, 0)
		if a := r.answer(t); a["updated"] != false || a["to"] != "1.1.0" {
			t.Fatalf("second run: %v", a)
		}
		r = runBinary(t, exe, feed, "self-update", "--version", "1.0.0")
		r.wantCode(t, 0)
		wantVersion(t, exe, "1.0.0")
	})

	t.Run("a tampered archive is refused", func(t *testing.T) {
		feed := newFeed(t)
		archive := bytes.Clone(newer.Files[host.ArchiveName()])
		archive[len(archive)-100] ^= 0x55
		feed.Replace("1.1.0", host.ArchiveName(), archive)
		exe := install(t)
		r := runBinary(t, exe, feed, "self-update")
		r.wantCode(t, 1)
		if r.stdout != "" || !strings.Contains(r.stderr, `"error"`) || !strings.Contains(r.stderr, "SHA256SUMS says") {
			t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
		}
		wantVersion(t, exe, "1.0.0")
		wantAlone(t, exe)
	})

	for _, c := range []struct {
		name      string
		signature []byte
		want      string
	}{
		{"an unsigned release is refused", nil, "has no signature SHA256SUMS.minisig"},
		{"a release signed by another key is refused",
			releasekey.Sign(updatetest.ForeignKey, newer.Files[dist.SumsName], "1.1.0"),
			"is signed by key " + releasekey.KeyID(updatetest.ForeignKey.ID()) + ", which this elemctl does not trust"},
		{"a malformed signature is refused", []byte("untrusted comment: signature\nRWQ=\n"), "is no minisign signature"},
	} {
		t.Run(c.name, func(t *testing.T) {
			feed := newFeed(t)
			feed.Replace("1.1.0", releasekey.SignatureName, c.signature)
			exe := install(t)
			r := runBinary(t, exe, feed, "self-update")
			r.wantCode(t, 1)
			if r.stdout != "" || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "nothing is installed") {
				t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
			}
			wantVersion(t, exe, "1.0.0")
			wantAlone(t, exe)
		})
	}

	t.Run("a held binary is reported", func(t *testing.T) {
		feed := newFeed(t)
		exe := install(t)
		const secret = "S3CR3T-of-the-server-0042"
		server := startServer(t, exe, "--client-secret", secret, "mcp")
		r := runBinary(t, exe, feed, "self-update")
		r.wantCode(t, 0)
		answer := r.answer(t)
		holders := answer["holders"].([]any)
		if answer["updated"] != true || len(holders) != 1 || len(answer["stopped"].([]any)) != 0 {
			t.Fatalf("answer %v", answer)
		}
		h := holders[0].(map[string]any)
		if int(h["pid"].(float64)) != server.pid() || !strings.HasSuffix(h["command"].(string), "--client-secret *** mcp") {
			t.Fatalf("holder %v, want pid %d", h, server.pid())
		}
		if !strings.Contains(r.stderr, "processes still run elemctl") {
			t.Fatalf("stderr %q", r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Fatal("the server's client secret is in the output")
		}
		if !server.running() {
			t.Fatal("the server was stopped without --stop-holders")
		}
	})

	t.Run("the advised repeat ends the old servers", func(t *testing.T) {
		feed := newFeed(t)
		exe := install(t)
		server := startServer(t, exe, "mcp")
		r := runBinary(t, exe, feed, "self-update")
		r.wantCode(t, 0)
		if !strings.Contains(r.stderr, "elemctl self-update --stop-holders") {
			t.Fatalf("no command to stop the holders:\n%s", r.stderr)
		}
		r = runBinary(t, exe, feed, "self-update", "--stop-holders")
		r.wantCode(t, 0)
		answer := r.answer(t)
		stopped := answer["stopped"].([]any)
		if answer["updated"] != false || len(stopped) != 1 || int(stopped[0].(map[string]any)["pid"].(float64)) != server.pid() {
			t.Fatalf("answer %v, want pid %d stopped", answer, server.pid())
		}
		if !server.waitExit(10 * time.Second) {
			t.Fatal("the server still runs")
		}
	})

	t.Run("stop-holders ends the servers", func(t *testing.T) {
		feed := newFeed(t)
		exe := install(t)
		server := startServer(t, exe, "mcp")
		r := runBinary(t, exe, feed, "self-update", "--stop-holders")
		r.wantCode(t, 0)
		answer := r.answer(t)
		stopped := answer["stopped"].([]any)
		if len(stopped) != 1 || int(stopped[0].(map[string]any)["pid"].(float64)) != server.pid() || len(answer["holders"].([]any)) != 0 {
			t.Fatalf("answer %v, want pid %d stopped", answer, server.pid())
		}
		if !server.waitExit(10 * time.Second) {
			t.Fatal("the server still runs")
		}
		wantVersion(t, exe, "1.1.0")
	})
}

type binaryRun struct {
	stdout, stderr string
	code           int
}

func runBinary(t *testing.T, exe string, feed *updatetest.Server, args ...string) binaryRun {
	t.Helper()
	cmd := exec.Command(exe, append([]string{"--lang", "en"}, args...)...)
	cmd.Dir = t.TempDir() // no .env
	cmd.Env = append(os.Environ(), "ELEMCTL_UPDATE_URL="+feed.FeedURL(), "ELEMCTL_NO_PLUGINS=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return binaryRun{stdout: out.String(), stderr: errOut.String(), code: code}
}

func (r binaryRun) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, code, r.stdout, r.stderr)
	}
}

func (r binaryRun) answer(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is no JSON object: %v\n%s", err, r.stdout)
	}
	return m
}

func wantVersion(t *testing.T, exe, version string) {
	t.Helper()
	out, err := exec.Command(exe, "--version").Output()
	if err != nil || string(out) != "elemctl "+version+"\n" {
		t.Fatalf("%s --version: %q %v, want %s", exe, out, err, version)
	}
}

// wantAlone checks that nothing is left beside the binary (a staged file,
// an old binary – except one Windows keeps while it runs).
func wantAlone(t *testing.T, exe string) {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Dir(exe))
	var names []string
	for _, e := range entries {
		if runtime.GOOS == "windows" && strings.HasSuffix(e.Name(), ".old") {
			continue
		}
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{filepath.Base(exe)}) {
		t.Fatalf("beside the binary: %v", names)
	}
}

func realPath(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// server is an elemctl server process the test started.
type server struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

func (s *server) running() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

func (s *server) waitExit(limit time.Duration) bool {
	select {
	case <-s.exited:
		return true
	case <-time.After(limit):
		return false
	}
}

// startServer starts a server of the binary with its stdin held open, as
// an editor or agent does.
func startServer(t *testing.T, exe string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		<-s.exited
	})
	// The server is up once the system shows it running the binary.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.GOOS == "linux" && time.Now().Before(deadline) {
		if target, err := os.Readlink("/proc/" + strconv.Itoa(s.pid()) + "/exe"); err == nil && target == realPath(t, exe) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if runtime.GOOS != "linux" {
		time.Sleep(500 * time.Millisecond)
	}
	return s
}
