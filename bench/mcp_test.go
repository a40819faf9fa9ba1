package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mcpSession is `elemctl mcp` running as a subprocess, spoken to with raw
// JSON-RPC lines over its stdin and stdout – what an agent's client does.
type mcpSession struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int
}

func startMCP(b *testing.B, env []string) *mcpSession {
	b.Helper()
	cmd := exec.Command(elemctlBinary(b), "mcp")
	cmd.Env = env
	cmd.Dir = b.TempDir()
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &mcpSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	b.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	s.request(b, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench", "version": "1"},
	})
	s.notify(b, "notifications/initialized")
	return s
}

func (s *mcpSession) send(b *testing.B, msg map[string]any) {
	raw, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.in.Write(append(raw, '\n')); err != nil {
		b.Fatal(err)
	}
}

func (s *mcpSession) notify(b *testing.B, method string) {
	s.send(b, map[string]any{"jsonrpc": "2.0", "method": method})
}

// request sends one request and returns its result raw.
func (s *mcpSession) request(b *testing.B, method string, params any) json.RawMessage {
	b.Helper()
	return s.result(b, method, s.exchange(b, method, params))
}

// exchange sends one request and reads lines until the one answering it,
// which it returns undecoded: a timed call ends when the whole answer is
// in, and checking it is the caller's business, outside the timing.
func (s *mcpSession) exchange(b *testing.B, method string, params any) []byte {
	b.Helper()
	s.nextID++
	id := s.nextID
	s.send(b, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	prefix := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, id))
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("%s: reading the answer: %v", method, err)
		}
		if bytes.HasPrefix(line, prefix) {
			return line
		}
		// Anything else must be a notification (checked, untimed
		// callers only see their own answer).
		var msg struct {
			ID *int `json:"id"`
		}
		if err := json.Unmarshal(line, &msg); err != nil || msg.ID != nil {
			b.Fatalf("%s: unexpected line on stdout: %.300q", method, line)
		}
	}
}

// result decodes an answer line and fails on a JSON-RPC error.
func (s *mcpSession) result(b *testing.B, method string, line []byte) json.RawMessage {
	b.Helper()
	var msg struct {
		ID     *int            `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &msg); err != nil {
		b.Fatalf("%s: not JSON on stdout: %.300q", method, line)
	}
	if msg.Error != nil {
		b.Fatalf("%s: %s", method, msg.Error)
	}
	return msg.Result
}

// callTool calls a tool and fails on a tool error.
func (s *mcpSession) callTool(b *testing.B, name string, args map[string]any) json.RawMessage {
	b.Helper()
	return s.toolResult(b, name, s.exchange(b, "tools/call", map[string]any{"name": name, "arguments": args}))
}

// toolResult checks a tools/call answer line and returns its result.
func (s *mcpSession) toolResult(b *testing.B, name string, line []byte) json.RawMessage {
	b.Helper()
	res := s.result(b, "tools/call", line)
	var r struct {
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if r.IsError {
		b.Fatalf("%s: %s", name, res)
	}
	return res
}

// BenchmarkMCPListApps5000: list_apps over 5,000 applications (500 live)
// through a warm `elemctl mcp` (target ≤ 50 ms per call): from the request
// written to the whole answer read, the answer checked after the clock
// stops.
//
// The stand: elemctl stand --apps 500 --deleted-apps 4500
func BenchmarkMCPListApps5000(b *testing.B) {
	s := benchStand(b, "--apps", "500", "--deleted-apps", "4500")
	srv := startMCP(b, standEnv(b, s))
	// Warm: the client, its token and the stand's list.
	res := srv.callTool(b, "list_apps", map[string]any{})
	if !strings.Contains(string(res), `live of 5000`) && !strings.Contains(string(res), `из 5000`) {
		b.Fatalf("list_apps did not see 5,000 applications: %.300s", res)
	}
	cpuBefore, cpuErr := procCPU(srv.cmd.Process.Pid)
	b.ResetTimer()
	reportMedian(b, "ms", 50, time.Millisecond, func() time.Duration {
		start := time.Now()
		line := srv.exchange(b, "tools/call", map[string]any{"name": "list_apps", "arguments": map[string]any{}})
		took := time.Since(start)
		if res := srv.toolResult(b, "list_apps", line); !bytes.Contains(res, []byte(`5000`)) {
			b.Fatalf("list_apps lost the total: %.300s", res)
		}
		return took
	})
	// The server's own CPU per call: on a busy machine wall time also
	// counts the stand's work and the wait for a core.
	if cpuAfter, err := procCPU(srv.cmd.Process.Pid); err == nil && cpuErr == nil {
		b.ReportMetric(float64(cpuAfter-cpuBefore)/float64(b.N), "server-cpu-ms")
	}
}

// BenchmarkMCPIdleRSS: resident memory of an idle `elemctl mcp` after
// initialize and tools/list (target ≤ 30 MiB; Linux only).
func BenchmarkMCPIdleRSS(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("VmRSS is read from /proc")
	}
	s := benchStand(b)
	srv := startMCP(b, standEnv(b, s))
	srv.request(b, "tools/list", map[string]any{})
	time.Sleep(100 * time.Millisecond)
	var samples []float64
	for i := 0; i < b.N; i++ {
		kb, err := vmRSS(srv.cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		samples = append(samples, float64(kb)/1024)
		time.Sleep(10 * time.Millisecond)
	}
	sort.Float64s(samples)
	b.ReportMetric(samples[len(samples)/2], "MiB")
	b.ReportMetric(30, "target-MiB")
}

// procCPU is the user plus system CPU time a process used, in ms (Linux;
// USER_HZ is 100 there).
func procCPU(pid int) (int64, error) {
	if runtime.GOOS != "linux" {
		return 0, fmt.Errorf("no /proc")
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which ends with the last ')'.
	rest := string(data[strings.LastIndexByte(string(data), ')')+1:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bad /proc/%d/stat", pid)
	}
	return (utime + stime) * 10, nil
}

// vmRSS reads a process's resident set size in KiB.
func vmRSS(pid int) (int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				return strconv.Atoi(f[0])
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
