package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
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
	// The benchmarks' packs keep their projects in a pack cache of their
	// own, not in the user's.
	cache, err := os.MkdirTemp("", "elemctl-bench-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("ELEMCTL_CACHE_DIR", cache)
	code := m.Run()
	os.RemoveAll(cache)
	for _, dir := range append([]string{binary.dir}, helpers.dirs...) {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// standProcess is `elemctl stand` as a benchmark runs it: the real binary
// with the options a user gives on the command line, so every figure can
// be reproduced from a shell.
type standProcess struct {
	URL, ClientID, ClientSecret string
	// Of --seed demo: the demo's ids; of --apps/--builds without the demo:
	// the bulk project.
	SpaceID, ProjectID, AppID, BulkProjectID string
	// Log is the request log when the benchmark gave --log.
	Log string
}

// benchStand runs `elemctl stand --speed 0.001 ARGS...` (a --speed among
// args wins) until the benchmark ends, and reads what it printed.
func benchStand(b testing.TB, args ...string) *standProcess {
	b.Helper()
	dir := b.TempDir()
	cmd := exec.Command(elemctlBinary(b), append([]string{"stand", "--speed", "0.001", "--lang", "en"}, args...)...)
	cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "TMPDIR="+dir)
	stderr, err := os.Create(filepath.Join(dir, "stand.stderr"))
	if err != nil {
		b.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stopStandProcess(cmd) })
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		text.WriteString(sc.Text() + "\n")
		if sc.Text() == "}" {
			break
		}
	}
	var answer map[string]string
	if err := json.Unmarshal([]byte(text.String()), &answer); err != nil {
		msg, _ := os.ReadFile(stderr.Name())
		b.Fatalf("elemctl stand %v printed %q: %v\n%s", args, text.String(), err, msg)
	}
	s := &standProcess{URL: answer["base-url"], ClientID: answer["client-id"], ClientSecret: answer["client-secret"],
		SpaceID: answer["space-id"], ProjectID: answer["project-id"], AppID: answer["app-id"], BulkProjectID: answer["bulk-project-id"]}
	for i, a := range args {
		if a == "--log" && i+1 < len(args) {
			s.Log = args[i+1]
		}
	}
	return s
}

// stopStandProcess interrupts the stand, as Ctrl-C does, so it removes its
// store; one that does not stop in time is killed.
func stopStandProcess(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// token is a bearer token of the stand's own, as the token endpoint gives
// it to any client.
func (s *standProcess) token(b testing.TB) string {
	b.Helper()
	req, _ := http.NewRequest("POST", s.URL+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var token struct {
		IDToken string `json:"id_token"`
	}
	if err := fetchJSON(req, &token); err != nil {
		b.Fatal(err)
	}
	return token.IDToken
}

// get reads a list of the stand's Console API with a token of its own.
func (s *standProcess) get(b testing.TB, path string) []map[string]any {
	b.Helper()
	req, _ := http.NewRequest("GET", s.URL+"/console/api/v2"+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.token(b))
	var out []map[string]any
	if err := fetchJSON(req, &out); err != nil {
		b.Fatal(err)
	}
	return out
}

func fetchJSON(req *http.Request, v any) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", req.Method, req.URL, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// standEnv is the environment that points elemctl at a stand, with a
// private registry and token cache.
func standEnv(b testing.TB, s *standProcess) []string {
	dir := b.TempDir()
	return append(os.Environ(),
		"ELEMENT_BASE_URL="+s.URL,
		"ELEMENT_CLIENT_ID="+s.ClientID,
		"ELEMENT_CLIENT_SECRET="+s.ClientSecret,
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
