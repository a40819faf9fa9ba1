package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

var binary struct {
	once sync.Once
	path string
	err  error
	dir  string
}

// elemctlBinary builds the binary once per test process.
func elemctlBinary(b testing.TB) string {
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "elemctl-bench-")
		if binary.err != nil {
			return
		}
		name := "elemctl"
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		binary.path = filepath.Join(binary.dir, name)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", binary.path, "../cmd/elemctl")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binary.err = &buildError{out: string(out), err: err}
		}
	})
	if binary.err != nil {
		b.Fatal(binary.err)
	}
	return binary.path
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// benchStand starts a stand for a benchmark.
func benchStand(b testing.TB, opts stand.Options) *stand.Stand {
	if opts.Speed == 0 {
		opts.Speed = 0.001
	}
	s, err := stand.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Listen("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// standEnv is the environment that points elemctl at a stand, with a
// private registry and token cache.
func standEnv(b testing.TB, s *stand.Stand) []string {
	dir := b.TempDir()
	return append(os.Environ(),
		"ELEMENT_BASE_URL="+s.URL(),
		"ELEMENT_CLIENT_ID="+s.ClientID(),
		"ELEMENT_CLIENT_SECRET="+s.ClientSecret(),
		"ELEMCTL_NO_PROXY=1",
		"ELEMCTL_NO_PLUGINS=1",
		"ELEMCTL_DATA_DIR="+filepath.Join(dir, "data"),
		"TMPDIR="+dir,
	)
}

// runTimed runs the binary once and returns its wall time. Its stderr goes
// to a file, not a pipe: a pipe would time the copying goroutine too.
func runTimed(b testing.TB, env []string, args ...string) time.Duration {
	stderr, err := os.CreateTemp("", "elemctl-bench-stderr-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(stderr.Name())
	defer stderr.Close()
	cmd := exec.Command(elemctlBinary(b), args...)
	cmd.Env = env
	cmd.Stdout = nil
	cmd.Stderr = stderr
	start := time.Now()
	err = cmd.Run()
	d := time.Since(start)
	if err != nil {
		text, _ := os.ReadFile(stderr.Name())
		b.Fatalf("elemctl %v: %v\n%s", args, err, text)
	}
	return d
}

// reportMedian runs f once per benchmark iteration and reports the median
// in the given unit beside the target.
func reportMedian(b *testing.B, unit string, target float64, scale time.Duration, f func() time.Duration) {
	b.ReportMetric(medianSample(b, 1, scale, f), unit)
	b.ReportMetric(target, "target-"+unit)
}

// startSamples is how many starts each iteration of a start figure times:
// a start of a few milliseconds moves by as much from one run to the next
// on a shared machine, so its median is taken over several per iteration.
const startSamples = 5

// reportStartMedian is reportMedian over startSamples runs of f per
// iteration.
func reportStartMedian(b *testing.B, unit string, target float64, scale time.Duration, f func() time.Duration) {
	b.ReportMetric(medianSample(b, startSamples, scale, f), unit)
	b.ReportMetric(target, "target-"+unit)
}

// medianSample is the median of perIteration runs of f per benchmark
// iteration, in scale units.
func medianSample(b *testing.B, perIteration int, scale time.Duration, f func() time.Duration) float64 {
	var samples []float64
	for i := 0; i < b.N; i++ {
		for k := 0; k < perIteration; k++ {
			samples = append(samples, float64(f())/float64(scale))
		}
	}
	sort.Float64s(samples)
	return samples[len(samples)/2]
}
