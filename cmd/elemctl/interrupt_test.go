package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/testio"
)

// interruptBound is how soon after the first interrupt every run must
// have ended: a bound on hangs, not a speed target (the slowest ending, a
// probe removing its throwaway application, takes a fraction of it).
const interruptBound = 5 * time.Second

// TestInterruptAtAnyInstant interrupts build, probe and deploy of the
// real binary with SIGINT or SIGTERM at random instants across their run
// (seeded, so a failure repeats): packing, the upload, the create, the
// waits, the cleanup. Every run must end within interruptBound of the
// interrupt, exit 130 (or 0 when it finished first), and leave nothing:
// no temporary folder, no half-written archive, nothing of a probe once
// the cleanup it printed ran. make test interrupts each command a few
// times; ELEMCTL_FAULTS=full (make faults) 200 times.
func TestInterruptAtAnyInstant(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows cannot send SIGINT to another process")
	}
	// The full run packs a bigger project, so that more interrupts land
	// in the packing.
	runs, files := 6, 120
	if os.Getenv("ELEMCTL_FAULTS") == "full" {
		runs, files = 200, 300
	}
	for i, name := range []string{"build", "probe", "deploy"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			interruptRuns(t, name, runs, files, uint64(i))
		})
	}
}

func interruptRuns(t *testing.T, name string, runs, files int, seed uint64) {
	b := newFaultBed(t, false)
	b.connection = nil // the environment of newCLIBed carries it
	b.env = append(b.env, "ELEMENT_BASE_URL="+b.stand.URL(), "ELEMENT_CLIENT_ID="+b.stand.ClientID(),
		"ELEMENT_CLIENT_SECRET="+b.stand.ClientSecret())
	project := bulkyCopy(t, b.good, files)
	out := filepath.Join(b.work, "out")
	args := map[string][]string{
		"build":  {"build", "--project-dir", project, "--output", out},
		"probe":  {"probe", "--project-dir", project},
		"deploy": {"deploy", "--project-dir", project},
	}[name]

	// One run uninterrupted measures the span the instants fall in.
	began := time.Now()
	if stdout, stderr, code := b.run(args...); code != 0 {
		t.Fatalf("an uninterrupted %s: exit %d\n%s%s", name, code, stdout, stderr)
	}
	span := time.Since(began)
	rng := rand.New(rand.NewPCG(20260301, seed))
	hangs, interrupted, seconds := 0, 0, 0
	for run := range runs {
		at := time.Duration(rng.Float64() * 1.1 * float64(span))
		sig := os.Signal(os.Interrupt)
		if rng.IntN(2) == 1 {
			sig = syscall.SIGTERM
		}
		// Every fourth run gets a second interrupt soon after the first:
		// it must say what is truly still running.
		second := run%4 == 3
		code, took, stdout, stderr := b.interruptAt(args, at, sig, second)
		if line := secondInterruptLine(stderr); line != "" {
			seconds++
			if !truthfulSecond(name, line) {
				t.Errorf("run %d: the second interrupt says %q", run, line)
			}
		}
		where := fmt.Sprintf("run %d (%v at %v of %v)", run, sig, at.Round(time.Millisecond), span.Round(time.Millisecond))
		switch {
		case took < 0:
			// finished before the signal
		case took > interruptBound:
			hangs++
			t.Errorf("%s: ended %v after the interrupt\n%s", where, took, stderr)
		default:
			interrupted++
		}
		if code != exitOK && code != exitInterrupt && !(code == -1 && took >= 0 && took < interruptBound && stdout == "" && stderr == "") {
			// (A signal that came before the Go runtime let elemctl catch
			// it ends the process at once, before it did anything.)
			t.Errorf("%s: exit %d\n%s%s", where, code, stdout, stderr)
		}
		if left := b.leftovers(); len(left) > 0 {
			t.Errorf("%s: left in TMPDIR: %v\n%s", where, left, stderr)
			for _, l := range left {
				os.RemoveAll(filepath.Join(b.tmp, l))
			}
		}
		if entries, _ := os.ReadDir(out); len(entries) > 0 {
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("%s: a half-written archive is left: %s", where, e.Name())
				}
				os.RemoveAll(filepath.Join(out, e.Name()))
			}
		}
		if name == "probe" {
			for _, h := range printedHints(stdout, stderr) {
				b.runHint(faultOp{probe: true}, h, b.stand.Snapshot())
			}
			if left := probeLeftovers(b.initial, b.stand.Snapshot()); left != "" {
				t.Errorf("%s: the probe left %s\n%s", where, left, stderr)
			}
		}
		if strings.Contains(stderr, "context canceled") {
			t.Errorf("%s: a raw context error reached the user:\n%s", where, stderr)
		}
	}
	t.Logf("%s: %d hangs in %d runs (%d ended by the interrupt, the rest finished first; %d answered a second interrupt; a run takes %v)",
		name, hangs, runs, interrupted, seconds, span.Round(time.Millisecond))
}

// interruptAt runs elemctl and sends sig after at; took is how long it
// took to end after the signal, negative when it ended before.
func (b *faultBed) interruptAt(args []string, at time.Duration, sig os.Signal, second bool) (code int, took time.Duration, stdout, stderr string) {
	b.t.Helper()
	cmd := exec.Command(b.bin, args...)
	cmd.Env, cmd.Dir = b.env, b.work
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var err error
	took = -1
	select {
	case err = <-waited:
	case <-time.After(at):
		_ = cmd.Process.Signal(sig)
		sent := time.Now()
		if second {
			select {
			case err = <-waited:
				took = time.Since(sent)
			case <-time.After(20 * time.Millisecond):
				_ = cmd.Process.Signal(sig)
			}
			if took >= 0 {
				break
			}
		}
		select {
		case err = <-waited:
			took = time.Since(sent)
		case <-time.After(4 * interruptBound):
			// A hang: stopped here so the test goes on and counts it.
			_ = cmd.Process.Kill()
			err = <-waited
			took = time.Since(sent)
		}
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		b.t.Fatalf("elemctl %v: %v", args, err)
	}
	return code, took, out.String(), errOut.String()
}

// bulkyCopy is the demo project with files resource files of 8 KiB, so
// that packing takes a good part of a run and interrupts land in it.
func bulkyCopy(t *testing.T, good string, files int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bulky")
	testio.CopyTree(t, good, dir)
	res := filepath.Join(dir, "Acme", "Tasks", "Ресурсы")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	line := make([]byte, 64)
	for i := range files {
		var text bytes.Buffer
		for text.Len() < 8<<10 {
			for j := range line {
				line[j] = byte('a' + rng.IntN(26))
			}
			text.Write(line)
			text.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(res, fmt.Sprintf("filler%03d.txt", i)), text.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// secondInterruptLine is what a run said to a second interrupt, "" when
// it got none in time.
func secondInterruptLine(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "(one more interrupt stops at once)") {
			return line
		}
	}
	return ""
}

// truthfulSecond tells whether a second interrupt's line names what the
// command can truly still be doing: a probe waiting for an answer or
// cleaning up (with the command that finishes it), or nothing.
func truthfulSecond(command, line string) bool {
	if strings.HasPrefix(line, "elemctl is stopping; nothing it started is left to finish") {
		return true
	}
	return command == "probe" && (strings.HasPrefix(line, "cleaning up what the probe made") && strings.Contains(line, "elemctl ") ||
		strings.HasPrefix(line, "waiting for the answer to the"))
}
