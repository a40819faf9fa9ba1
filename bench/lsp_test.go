package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lspSession is a minimal LSP client over the pipes of `elemctl lsp`:
// Content-Length frames, sequential requests, notifications skipped.
type lspSession struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	seq int
}

func startLSP(b *testing.B, env []string) *lspSession {
	cmd := exec.Command(elemctlBinary(b), "lsp")
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
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &lspSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	b.Cleanup(func() {
		s.call(b, "shutdown", nil)
		s.send(b, map[string]any{"jsonrpc": "2.0", "method": "exit"})
		in.Close()
		_ = cmd.Wait()
	})
	return s
}

func (s *lspSession) send(b *testing.B, msg any) {
	body, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		b.Fatal(err)
	}
}

// call sends a request and reads frames until its response.
func (s *lspSession) call(b *testing.B, method string, params any) json.RawMessage {
	s.seq++
	s.send(b, map[string]any{"jsonrpc": "2.0", "id": s.seq, "method": method, "params": params})
	for {
		length := 0
		for {
			line, err := s.out.ReadString('\n')
			if err != nil {
				b.Fatalf("reading a frame: %v", err)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.out, body); err != nil {
			b.Fatal(err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			b.Fatal(err)
		}
		if msg.Method != "" || msg.ID == nil || *msg.ID != s.seq {
			continue
		}
		if len(msg.Error) > 0 && string(msg.Error) != "null" {
			b.Fatalf("%s: %s", method, msg.Error)
		}
		return msg.Result
	}
}

// BenchmarkLSPAppsList500: one `elemctl.apps.list` (brief, as an editor's
// application picker asks) through a running `elemctl lsp` over 500
// applications – request written to the answer read (target ≤ 20 ms).
//
// The stand: elemctl stand --apps 500
func BenchmarkLSPAppsList500(b *testing.B) {
	s := benchStand(b, "--apps", "500")
	lsp := startLSP(b, standEnv(b, s))
	lsp.call(b, "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	lsp.send(b, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	list := map[string]any{"command": "elemctl.apps.list", "arguments": []any{map[string]any{"brief": true}}}
	var answer struct {
		Live int `json:"live"`
	}
	if err := json.Unmarshal(lsp.call(b, "workspace/executeCommand", list), &answer); err != nil || answer.Live < 500 {
		b.Fatalf("apps.list: %+v %v", answer, err)
	}
	b.ResetTimer()
	reportMedian(b, "ms", 20, time.Millisecond, func() time.Duration {
		start := time.Now()
		lsp.call(b, "workspace/executeCommand", list)
		return time.Since(start)
	})
}
