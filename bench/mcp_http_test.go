package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchToken is the bearer token of the benchmarked HTTP server.
const benchToken = "bench-token-0123456789-abcdefghij"

// mcpHTTPServer is `elemctl mcp --http` running as a subprocess.
type mcpHTTPServer struct {
	cmd *exec.Cmd
	url string
}

func startMCPHTTP(b *testing.B, env []string) *mcpHTTPServer {
	b.Helper()
	cmd := exec.Command(elemctlBinary(b), "mcp", "--http", "127.0.0.1:0")
	cmd.Env = append(env, "ELEMCTL_MCP_TOKEN="+benchToken)
	cmd.Dir = b.TempDir()
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	var text strings.Builder
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		text.WriteString(sc.Text())
		if sc.Text() == "}" {
			break
		}
	}
	var answer struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal([]byte(text.String()), &answer); err != nil || answer.URL == "" {
		b.Fatalf("elemctl mcp --http did not say where it listens: %q %v", text.String(), err)
	}
	return &mcpHTTPServer{cmd: cmd, url: answer.URL}
}

// httpSession is one MCP session over streamable HTTP, spoken with raw
// JSON-RPC posts, as an agent's client does.
type httpSession struct {
	client *http.Client
	url    string
	id     string
	nextID int
}

func (s *httpSession) post(body []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+benchToken)
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res, data, err
}

func openSession(b *testing.B, client *http.Client, url string) *httpSession {
	b.Helper()
	s := &httpSession{client: client, url: url}
	res, _, err := s.post([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`))
	if err != nil || res.StatusCode != http.StatusOK || res.Header.Get("Mcp-Session-Id") == "" {
		b.Fatalf("initialize over HTTP: %v %v", err, res)
	}
	s.id = res.Header.Get("Mcp-Session-Id")
	if _, _, err := s.post([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		b.Fatal(err)
	}
	return s
}

// listApps calls list_apps once and returns the raw answer.
func (s *httpSession) listApps() ([]byte, error) {
	s.nextID++
	res, data, err := s.post([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`, s.nextID)))
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", res.StatusCode, data)
	}
	return data, nil
}

// callsPerSession is how many list_apps calls each session makes, one
// after another, in one round.
const callsPerSession = 4

// BenchmarkMCPHTTPListApps: concurrent MCP sessions over streamable HTTP,
// each calling list_apps callsPerSession times in a row, against one warm
// `elemctl mcp --http` and a stand of 1,000 applications (100 live). The
// sweep is the number of sessions (1, 10, 50). Each round opens nothing:
// the sessions are initialized before the clock starts. Reported: the
// median (p50-ms) and 99th percentile (p99-ms) of one call's latency from
// the request sent to the whole answer read, over every call of every
// round; the calls made per round (calls); the throughput (calls/s); the
// size of one answer (answer-KiB); and the server's peak resident memory
// over the whole run (server-MiB, VmHWM; Linux only). The bench process
// runs the stand and the clients, so on a small machine the latency also
// counts their share of the cores.
func BenchmarkMCPHTTPListApps(b *testing.B) {
	for _, sessions := range []int{1, 10, 50} {
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) {
			benchMCPHTTPListApps(b, sessions)
		})
	}
}

// Targets per session count. Latency (p50, p99 in ms): one call costs the
// server about 8 ms of CPU at this size (as over stdio) and the stand as
// much again, so on two cores concurrent calls queue, and the targets grow
// with the sessions. Memory (MiB): 50 calls in flight each hold a decoded
// listing; the server's own soft limit is 128 MiB.
var httpTargets = map[int]struct{ p50, p99, mib float64 }{
	1:  {20, 60, 48},
	10: {150, 600, 64},
	50: {600, 1800, 128},
}

func benchMCPHTTPListApps(b *testing.B, sessions int) {
	// elemctl stand --apps 100 --deleted-apps 900
	s := benchStand(b, "--apps", "100", "--deleted-apps", "900")
	srv := startMCPHTTP(b, standEnv(b, s))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: sessions + 8, MaxConnsPerHost: sessions + 8}}
	defer client.CloseIdleConnections()
	all := make([]*httpSession, sessions)
	for i := range all {
		all[i] = openSession(b, client, srv.url)
	}
	// Warm: the platform client, its token and the stand's list.
	answer, err := all[0].listApps()
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Contains(answer, []byte(`из 1000`)) && !bytes.Contains(answer, []byte(`of 1000`)) {
		b.Fatalf("list_apps did not see 1,000 applications: %.300s", answer)
	}

	var (
		mu        sync.Mutex
		latencies []float64
		failures  []error
	)
	cpuBefore, cpuErr := procCPU(srv.cmd.Process.Pid)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		var wg sync.WaitGroup
		for _, sess := range all {
			wg.Add(1)
			go func(sess *httpSession) {
				defer wg.Done()
				own := make([]float64, 0, callsPerSession)
				for k := 0; k < callsPerSession; k++ {
					t0 := time.Now()
					data, err := sess.listApps()
					took := time.Since(t0)
					if err == nil && (!bytes.Contains(data, []byte(`"total"`)) || bytes.Contains(data, []byte(`"isError":true`))) {
						err = fmt.Errorf("list_apps failed: %.300s", data)
					}
					if err != nil {
						mu.Lock()
						failures = append(failures, err)
						mu.Unlock()
						return
					}
					own = append(own, float64(took)/float64(time.Millisecond))
				}
				mu.Lock()
				latencies = append(latencies, own...)
				mu.Unlock()
			}(sess)
		}
		wg.Wait()
		if len(failures) > 0 {
			b.Fatal(failures[0])
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()

	sort.Float64s(latencies)
	calls := sessions * callsPerSession
	b.ReportMetric(percentile(latencies, 0.50), "p50-ms")
	b.ReportMetric(httpTargets[sessions].p50, "target-p50-ms")
	b.ReportMetric(percentile(latencies, 0.99), "p99-ms")
	b.ReportMetric(httpTargets[sessions].p99, "target-p99-ms")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(float64(calls*b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(len(answer))/1024, "answer-KiB")
	// The server's own CPU per call: the latency also holds the stand's
	// work and the wait for a core.
	if cpuAfter, err := procCPU(srv.cmd.Process.Pid); err == nil && cpuErr == nil {
		b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(calls*b.N), "server-cpu-ms")
	}
	if runtime.GOOS == "linux" {
		if kb, err := procStatusKB(srv.cmd.Process.Pid, "VmHWM:"); err == nil {
			b.ReportMetric(float64(kb)/1024, "server-MiB")
			b.ReportMetric(httpTargets[sessions].mib, "target-server-MiB")
		}
	}
}

// percentile of sorted samples (nearest rank).
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// procStatusKB reads one kB figure of /proc/PID/status (VmRSS:, VmHWM:).
func procStatusKB(pid int, field string) (int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return strconv.Atoi(f[0])
			}
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
