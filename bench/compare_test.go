package bench

import (
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

// measured is one run of a binary: its wall time and its peak resident
// memory (0 where the system does not tell it).
type measured struct {
	wall  time.Duration
	rssKB int64
}

func (m measured) ms() float64     { return float64(m.wall) / float64(time.Millisecond) }
func (m measured) rssMiB() float64 { return float64(m.rssKB) / 1024 }

// runMeasured runs bin once with stdout and stderr into files (a pipe
// would time the copying goroutine too) and measures it.
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
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		text, _ := os.ReadFile(stderr.Name())
		b.Fatalf("%s %v: %v\n%s", filepath.Base(bin), args, err, text)
	}
	return measured{wall: wall, rssKB: peakRSSKB(cmd.ProcessState)}
}

var floor struct {
	once      sync.Once
	path, dir string
	err       error
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

// floorBinary builds the floor program once per test process.
func floorBinary(b testing.TB) string {
	floor.once.Do(func() {
		dir, err := os.MkdirTemp("", "elemctl-bench-floor-")
		if err != nil {
			floor.err = err
			return
		}
		floor.dir = dir
		for name, text := range map[string]string{"main.go": floorSource, "go.mod": "module floor\n\ngo 1.21\n"} {
			if floor.err = os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); floor.err != nil {
				return
			}
		}
		floor.path = filepath.Join(dir, "floor")
		if runtime.GOOS == "windows" {
			floor.path += ".exe"
		}
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", floor.path, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			floor.err = &buildError{out: string(out), err: err}
		}
	})
	if floor.err != nil {
		b.Fatal(floor.err)
	}
	return floor.path
}
