package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BeforeVar names an earlier elemctl binary to compare with. The figures of
// issue-sized work (the deploy verdict, the long lists, the uploads' memory)
// then run both binaries in turn on the same load – this tree's and the
// earlier one – and report the earlier one's figures with the unit prefix
// "before-". `make bench BEFORE=REV` builds REV's binary and sets it.
const BeforeVar = "ELEMCTL_BENCH_BEFORE"

// client is one elemctl binary a comparing benchmark runs.
type client struct {
	path string
	// prefix goes before the units of its figures: "" for this tree,
	// "before-" for the earlier binary.
	prefix string
}

// clients are this tree's binary and, when BeforeVar names one, the
// earlier binary: the benchmark interleaves their runs, so both meet the
// same moments of a shared machine.
func clients(b testing.TB) []client {
	out := []client{{path: elemctlBinary(b)}}
	if p := os.Getenv(BeforeVar); p != "" {
		if _, err := os.Stat(p); err != nil {
			b.Fatalf("%s: %v", BeforeVar, err)
		}
		out = append(out, client{path: p, prefix: "before-"})
	}
	return out
}

// inTurn is the order in which round r runs the binaries of clients: as
// clients lists them in even rounds, the other way round in odd ones, so
// each takes each place in a round as often. A place can cost or save
// time (the stand's collection of the answers before it, the machine's
// state after the floor's run): in a fixed order, that would count for one
// binary against the other.
func inTurn(r, n int) []int {
	order := make([]int, n)
	for k := range order {
		order[k] = k
		if r%2 == 1 {
			order[k] = n - 1 - k
		}
	}
	return order
}

// measured is one run of a binary: its wall time and its peak resident
// memory (0 where the system does not tell it).
type measured struct {
	wall  time.Duration
	rssKB int64
	// head is the start of what the run printed on stdout.
	head string
}

func (m measured) ms() float64     { return float64(m.wall) / float64(time.Millisecond) }
func (m measured) rssMiB() float64 { return float64(m.rssKB) / 1024 }

// runMeasured runs bin once with stdout and stderr into files (a pipe
// would time the copying goroutine too) and measures it. It runs through
// the measuring program (measureSource): the peak memory the system tells
// of a child counts its parent's up to the moment the child starts its own
// program, and the benchmark's process is far larger than a command's.
func runMeasured(b testing.TB, bin string, env []string, args ...string) measured {
	b.Helper()
	dir := b.TempDir()
	stdout, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		b.Fatal(err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		b.Fatal(err)
	}
	defer stderr.Close()
	report := filepath.Join(dir, "measured")
	cmd := exec.Command(helperBinary(b, "measure", measureSource), append([]string{report, bin}, args...)...)
	cmd.Env = env
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		text, _ := os.ReadFile(stderr.Name())
		b.Fatalf("%s %v: %v\n%s", filepath.Base(bin), args, err, text)
	}
	var m measured
	if f, err := os.Open(stdout.Name()); err == nil {
		buf := make([]byte, 4096)
		n, _ := f.Read(buf)
		m.head = string(buf[:n])
		f.Close()
	}
	text, err := os.ReadFile(report)
	if err == nil {
		_, err = fmt.Sscan(string(text), &m.wall, &m.rssKB)
	}
	if err != nil {
		b.Fatalf("the measuring program's report %q: %v", text, err)
	}
	return m
}

// measureSource runs a command as a small parent and writes its wall time
// (ns) and peak resident memory (KiB, 0 where the system does not tell)
// into the file named first; it exits as the command did.
const measureSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(127)
	}
	os.WriteFile(os.Args[1], []byte(fmt.Sprint(int64(wall), " ", peakKB(cmd.ProcessState))), 0o644)
	os.Exit(cmd.ProcessState.ExitCode())
}
`

// measurePeakUnix and measurePeakOther are the measuring program's
// peakKB by system.
const measurePeakUnix = `//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

func peakKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
`

const measurePeakOther = `//go:build !unix

package main

import "os"

func peakKB(*os.ProcessState) int64 { return 0 }
`

var helpers struct {
	mu    sync.Mutex
	paths map[string]string
	dirs  []string
}

// helperBinary builds a small Go program of the benchmarks once per test
// process: its main.go is source (the measuring program also gets its
// peak memory files).
func helperBinary(b testing.TB, name, source string) string {
	helpers.mu.Lock()
	defer helpers.mu.Unlock()
	if p, ok := helpers.paths[name]; ok {
		return p
	}
	dir, err := os.MkdirTemp("", "elemctl-bench-"+name+"-")
	if err != nil {
		b.Fatal(err)
	}
	helpers.dirs = append(helpers.dirs, dir)
	files := map[string]string{"main.go": source, "go.mod": "module " + name + "\n\ngo 1.21\n"}
	if name == "measure" {
		files["peak_unix.go"], files["peak_other.go"] = measurePeakUnix, measurePeakOther
	}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	exe := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", exe, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatal(&buildError{out: string(out), err: err})
	}
	if helpers.paths == nil {
		helpers.paths = map[string]string{}
	}
	helpers.paths[name] = exe
	return exe
}

// floorSource is the floor of a list figure: a plain Go GET of the same
// address with the same token, reading the whole answer and keeping
// nothing (what curl -o /dev/null does). Its start is a Go program's, as
// elemctl's is.
const floorSource = `package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	req, err := http.NewRequest("GET", os.Args[1], nil)
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("FLOOR_TOKEN"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != 200 {
		panic(fmt.Sprint(resp.Status, err))
	}
	fmt.Println(n)
}
`

// floorBinary is the floor program.
func floorBinary(b testing.TB) string { return helperBinary(b, "floor", floorSource) }
