package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// mcpHTTPProcess is `elemctl mcp --http` running as a child process.
type mcpHTTPProcess struct {
	cmd    *exec.Cmd
	answer map[string]any
	stderr *syncBuffer
	done   chan error
}

// startMCPHTTP runs the binary with args and reads the JSON answer it
// prints once listening; it fails the test when the process ends first.
func startMCPHTTP(t *testing.T, bin string, env []string, args ...string) *mcpHTTPProcess {
	t.Helper()
	p := &mcpHTTPProcess{cmd: exec.Command(bin, args...), stderr: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd.Env = env
	p.cmd.Stderr = p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		text.WriteString(sc.Text() + "\n")
		if sc.Text() == "}" {
			break
		}
	}
	if err := json.Unmarshal([]byte(text.String()), &p.answer); err != nil {
		t.Fatalf("no answer from %v: %q %v\n%s", args, text.String(), err, p.stderr.String())
	}
	return p
}

// interrupt sends SIGINT and waits for the process to end.
func (p *mcpHTTPProcess) interrupt(t *testing.T) error {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(15 * time.Second):
		t.Fatal("the server ignored the interrupt")
	}
	return nil
}

// rpc posts one JSON-RPC message to url with the token and session.
func rpc(t *testing.T, url, token, session, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	return res, string(text)
}

const initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cli-test","version":"1"}}}`

func TestMCPOverHTTPCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	envFile := filepath.Join(dir, "stand.env")
	stand, _ := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile)
	secret := stand["client-secret"].(string)
	env := append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+filepath.Join(dir, "data"), "TMPDIR="+dir,
		"ELEMCTL_LANG=ru", "ELEMCTL_MCP_TOKEN=")

	tokenFile := filepath.Join(dir, "secrets", "mcp.token")
	p := startMCPHTTP(t, bin, env, "--env-file", envFile, "mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile)
	if p.answer["token-file"] != tokenFile || p.answer["token-created"] != true || p.answer["loopback"] != true || p.answer["token-source"] != "file" {
		t.Errorf("answer %v", p.answer)
	}
	url, _ := p.answer["url"].(string)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Fatalf("url %q", url)
	}
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v %v", st, err)
	}
	raw, _ := os.ReadFile(tokenFile)
	token := strings.TrimSpace(string(raw))

	if res, body := rpc(t, url, "", "", initializeRequest); res.StatusCode != http.StatusUnauthorized || body != "" {
		t.Errorf("without the token: %d %q", res.StatusCode, body)
	}
	res, _ := rpc(t, url, token, "", initializeRequest)
	session := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: %d", res.StatusCode)
	}
	rpc(t, url, token, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := rpc(t, url, token, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`)
	if !strings.Contains(body, stand["app-id"].(string)) || !strings.Contains(body, `живых 1 из 1`) {
		t.Errorf("list_apps over HTTP: %s", body)
	}
	// The server's own stand only: no --env-dir, no env_file.
	_, body = rpc(t, url, token, session, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_apps","arguments":{"env_file":"`+envFile+`"}}}`)
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "--env-dir") {
		t.Errorf("env_file without --env-dir: %s", body)
	}

	if err := p.interrupt(t); err != nil {
		t.Errorf("the server did not stop cleanly: %v\n%s", err, p.stderr.String())
	}
	log := p.stderr.String()
	for _, want := range []string{"создан файл токена " + tokenFile, "MCP-сервер слушает " + url, "MCP-сервер остановлен"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, token) || strings.Contains(log, secret) {
		t.Errorf("a secret in the server log:\n%s", log)
	}

	// The next start reads the same token, creating nothing.
	again := startMCPHTTP(t, bin, env, "--env-file", envFile, "mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile)
	if again.answer["token-created"] != false {
		t.Errorf("the second start: %v", again.answer)
	}
	if res, _ := rpc(t, again.answer["url"].(string), token, "", initializeRequest); res.StatusCode != http.StatusOK {
		t.Errorf("the same token after a restart: %d", res.StatusCode)
	}
	again.interrupt(t)
}

func TestMCPOverHTTPTokenRules(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	base := append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+filepath.Join(dir, "data"), "TMPDIR="+dir,
		"ELEMCTL_LANG=en", "ELEMCTL_MCP_TOKEN=")
	run := func(env []string, args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Stdout = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, stderr.String()
	}

	// Every interface, and no token named: refused before listening.
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0"} {
		code, out := run(base, "mcp", "--http", addr)
		if code != 1 || !strings.Contains(out, "reachable from other machines") || !strings.Contains(out, "--token-file") {
			t.Errorf("%s without a token: %d %s", addr, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "mcp-token")); err == nil {
		t.Error("a refused start created the default token file")
	}
	// The HTTP options need --http.
	if code, out := run(base, "mcp", "--token-file", "t", "--env-dir", dir); code != 1 || !strings.Contains(out, "--token-file, --env-dir make sense only with --http") {
		t.Errorf("HTTP options over stdio: %d %s", code, out)
	}
	if code, out := run(base, "mcp", "--http", "nowhere"); code != 1 || !strings.Contains(out, "neither HOST:PORT nor PORT") {
		t.Errorf("a bad address: %d %s", code, out)
	}
	if code, out := run(base, "mcp", "--http", "0", "--tls-cert", "c.pem"); code != 1 || !strings.Contains(out, "both --tls-cert and --tls-key") {
		t.Errorf("half a TLS pair: %d %s", code, out)
	}
	short := append(append([]string(nil), base...), "ELEMCTL_MCP_TOKEN=short")
	if code, out := run(short, "mcp", "--http", "0"); code != 1 || !strings.Contains(out, "too short (ELEMCTL_MCP_TOKEN)") || strings.Contains(out, `"short"`) {
		t.Errorf("a short token: %d %s", code, out)
	}
	shared := filepath.Join(dir, "shared.token")
	os.WriteFile(shared, []byte("0123456789abcdef0123456789\n"), 0o644)
	if code, out := run(base, "mcp", "--http", "0", "--token-file", shared); code != 1 || !strings.Contains(out, "chmod 600") || strings.Contains(out, "0123456789abcdef") {
		t.Errorf("a token file others may read: %d %s", code, out)
	}

	// With the token in the environment every interface is served, with a
	// warning about clear text.
	token := "env-token-0123456789-abcdef"
	withToken := append(append([]string(nil), base...), "ELEMCTL_MCP_TOKEN="+token)
	p := startMCPHTTP(t, bin, withToken, "mcp", "--http", ":0")
	if p.answer["loopback"] != false || p.answer["token-source"] != "env" || p.answer["token-file"] != nil {
		t.Errorf("answer %v", p.answer)
	}
	if err := p.interrupt(t); err != nil {
		t.Errorf("stop: %v", err)
	}
	if log := p.stderr.String(); !strings.Contains(log, "clear text") || strings.Contains(log, token) {
		t.Errorf("stderr:\n%s", log)
	}

	// Loopback without a token named: the token file in elemctl's data
	// directory, created once.
	p = startMCPHTTP(t, bin, base, "mcp", "--http", "0")
	defaultFile := filepath.Join(dir, "data", "mcp-token")
	if p.answer["token-file"] != defaultFile || p.answer["token-created"] != true {
		t.Errorf("answer %v", p.answer)
	}
	raw, err := os.ReadFile(defaultFile)
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := rpc(t, p.answer["url"].(string), strings.TrimSpace(string(raw)), "", initializeRequest); res.StatusCode != http.StatusOK {
		t.Errorf("the default token: %d", res.StatusCode)
	}
	p.interrupt(t)
}

// A second interrupt stops the HTTP server without waiting out the
// cleanup of the calls the first one interrupted: the CLI's one signal
// handler tells the server.
func TestMCPOverHTTPSecondInterruptStopsWaiting(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	envFile := filepath.Join(dir, "stand.env")
	// Ten times slower than the platform: the probe's application is
	// still being created, and busy, when the call is interrupted.
	stand, _ := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile, "--speed", "10")
	apps := standApps(t, stand)
	seeded := len(apps())
	env := append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+filepath.Join(dir, "data"), "TMPDIR="+dir,
		"ELEMCTL_LANG=en", "ELEMCTL_MCP_TOKEN=a-token-of-the-test-0123456789")
	p := startMCPHTTP(t, bin, env, "--env-file", envFile, "mcp", "--http", "127.0.0.1:0")
	url, _ := p.answer["url"].(string)
	token := "a-token-of-the-test-0123456789"
	res, _ := rpc(t, url, token, "", initializeRequest)
	session := res.Header.Get("Mcp-Session-Id")
	rpc(t, url, token, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	project, _ := filepath.Abs(filepath.Join("..", "..", "examples", "demo", "Acme", "Tasks"))
	call, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe","arguments":{"project_dir":"`+project+`"}}}`))
	call.Header.Set("Content-Type", "application/json")
	call.Header.Set("Accept", "application/json, text/event-stream")
	call.Header.Set("Authorization", "Bearer "+token)
	call.Header.Set("Mcp-Session-Id", session)
	go func() {
		if res, err := http.DefaultClient.Do(call); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	// Built and uploaded: the probe's application is being created (which
	// takes minutes) when the interrupt comes.
	waitFor(t, "the probe's application", func() bool { return len(apps()) > seeded })
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the server to wait for the probe's cleanup", func() bool {
		return strings.Contains(p.stderr.String(), "stopping: 1 calls in progress are interrupted")
	})
	select {
	case err := <-p.done:
		t.Fatalf("the server stopped at the first interrupt, not waiting for the probe's cleanup: %v\n%s", err, p.stderr.String())
	default:
	}
	if err := p.interrupt(t); err == nil {
		t.Logf("stopped: %s", p.stderr.String())
	}
	if log := p.stderr.String(); !strings.Contains(log, "elemctl is stopping") || !strings.Contains(log, "stopping without waiting") {
		t.Errorf("the second interrupt is not acknowledged:\n%s", log)
	}
}

// standApps lists the applications of a stand process (its answer gives
// the credentials).
func standApps(t *testing.T, stand map[string]any) func() []*jsonx.Object {
	t.Helper()
	ctx := context.Background()
	base, _ := stand["base-url"].(string)
	id, _ := stand["client-id"].(string)
	secret, _ := stand["client-secret"].(string)
	cl, err := platform.NewClient(ctx, &platform.Config{BaseURL: base, ClientID: id, ClientSecret: secret,
		TLSVerify: true, NoProxy: true, Timeout: 10 * time.Second}, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return func() []*jsonx.Object {
		apps, err := cl.ListApps(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return apps
	}
}

// waitFor polls cond until it holds; after two minutes – no machine is
// that slow – the state is taken as never coming.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never came", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// mcpTeamBed is an `elemctl mcp --http` process over a stand process, as a
// team's server runs, spoken to with raw HTTP as curl would.
type mcpTeamBed struct {
	t       *testing.T
	bin     string
	dir     string
	envFile string
	stand   map[string]any
	env     []string
	p       *mcpHTTPProcess
	url     string
}

const bedToken = "team-token-0123456789-abcdefgh"

// newTeamBed starts a stand (at speed, "0.001" is fast) and the MCP
// server with args after --http.
func newTeamBed(t *testing.T, speed string, args ...string) *mcpTeamBed {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	b := &mcpTeamBed{t: t, bin: buildBin(t, "cmd/elemctl"), dir: t.TempDir()}
	b.envFile = filepath.Join(b.dir, "stand.env")
	b.stand, _ = startStandProcess(t, b.bin, "--seed", "demo", "--write-env", b.envFile, "--speed", speed)
	b.env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+filepath.Join(b.dir, "data"), "TMPDIR="+b.dir,
		"ELEMCTL_LANG=en", "ELEMCTL_MCP_TOKEN="+bedToken, "ELEMCTL_POLL_SCALE=0.01")
	b.p = startMCPHTTP(t, b.bin, b.env, append([]string{"--env-file", b.envFile, "mcp"}, args...)...)
	b.url, _ = b.p.answer["url"].(string)
	return b
}

// request is a raw request to the server with the bed's defaults; headers
// may override them ("" deletes one).
func (b *mcpTeamBed) request(ctx context.Context, method, body string, headers map[string]string) *http.Response {
	b.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(ctx, method, b.url, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+bedToken)
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return res
}

// session initializes a session with token and returns its headers.
func (b *mcpTeamBed) session(token string) map[string]string {
	b.t.Helper()
	res := b.request(context.Background(), http.MethodPost, initializeRequest, map[string]string{"Authorization": "Bearer " + token})
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	id := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || id == "" {
		b.t.Fatalf("initialize: %d", res.StatusCode)
	}
	h := map[string]string{"Authorization": "Bearer " + token, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-06-18"}
	res = b.request(context.Background(), http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
	res.Body.Close()
	return h
}

// call posts a request and returns its status and whole body.
func (b *mcpTeamBed) call(headers map[string]string, body string) (*http.Response, string) {
	b.t.Helper()
	res := b.request(context.Background(), http.MethodPost, body, headers)
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res, string(data)
}

// rpcMessages are the JSON-RPC messages of a response body: the JSON body
// itself, or the data of each SSE event.
func rpcMessages(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if strings.HasPrefix(strings.TrimSpace(body), "{") {
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return append(out, m)
	}
	for _, line := range strings.Split(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("%v: %s", err, data)
			}
			out = append(out, m)
		}
	}
	return out
}

// sseStream reads the events of an SSE body as they come; the channel
// closes at the end of the stream.
func sseStream(body io.ReadCloser) <-chan map[string]any {
	out := make(chan map[string]any, 256)
	go func() {
		defer close(out)
		defer body.Close()
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]any
				if json.Unmarshal([]byte(data), &m) == nil {
					out <- m
				}
			}
		}
	}()
	return out
}

// openStream opens the session's GET stream.
func (b *mcpTeamBed) openStream(headers map[string]string) <-chan map[string]any {
	b.t.Helper()
	h := map[string]string{"Accept": "text/event-stream", "Content-Type": ""}
	for k, v := range headers {
		h[k] = v
	}
	res := b.request(context.Background(), http.MethodGet, "", h)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		res.Body.Close()
		b.t.Fatalf("GET stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	return sseStream(res.Body)
}

// endSession deletes the session; the server closes its GET stream.
func (b *mcpTeamBed) endSession(headers map[string]string) {
	b.t.Helper()
	res := b.request(context.Background(), http.MethodDelete, "", headers)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.t.Fatalf("DELETE: %d", res.StatusCode)
	}
}

func drain(events <-chan map[string]any) []map[string]any {
	var all []map[string]any
	for e := range events {
		all = append(all, e)
	}
	return all
}

func demoProjectDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "demo", "Acme", "Tasks"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMCPOverHTTPRequestMessagesStayOnTheirStream: with the session's GET
// stream open, a call's progress notifications and its response all come
// on the call's own POST stream, progress increasing, the response last;
// the GET stream carries none of them.
func TestMCPOverHTTPRequestMessagesStayOnTheirStream(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0")
	h := b.session(bedToken)
	stream := b.openStream(h)
	args, _ := json.Marshal(map[string]any{"app_id": b.stand["app-id"], "project_id": b.stand["project-id"], "project_dir": demoProjectDir(t)})
	res, body := b.call(h, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"deploy","arguments":`+string(args)+`,"_meta":{"progressToken":"deploy-5"}}}`)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("deploy: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	msgs := rpcMessages(t, body)
	if len(msgs) < 3 {
		t.Fatalf("deploy sent %d messages: %s", len(msgs), body)
	}
	last := -1.0
	for i, m := range msgs[:len(msgs)-1] {
		params, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/progress" || params["progressToken"] != "deploy-5" {
			t.Fatalf("message %d before the response: %v", i, m)
		}
		n, _ := params["progress"].(float64)
		if n <= last {
			t.Errorf("progress %v after %v: it must increase", n, last)
		}
		last = n
	}
	final := msgs[len(msgs)-1]
	if final["id"] != float64(5) || final["result"] == nil {
		t.Fatalf("the last message is not the response: %v", final)
	}
	if text := fmt.Sprint(final["result"]); !strings.Contains(text, `ok:true`) {
		t.Errorf("deploy did not report ok: %s", text)
	}
	// Ending the session closes the GET stream: everything it ever got is
	// read by then.
	b.endSession(h)
	if got := drain(stream); len(got) > 0 {
		t.Errorf("the GET stream carried messages of the call: %v", got)
	}
}

// TestMCPOverHTTPCancelledCallIsSilent: after notifications/cancelled the
// client hears nothing more of the call on any stream – no progress, no
// response – while the call ends (and the server log says how).
func TestMCPOverHTTPCancelledCallIsSilent(t *testing.T) {
	// Ten times slower than the platform: the deploy waits for minutes.
	b := newTeamBed(t, "10", "--http", "127.0.0.1:0")
	h := b.session(bedToken)
	stream := b.openStream(h)
	args, _ := json.Marshal(map[string]any{"app_id": b.stand["app-id"], "project_id": b.stand["project-id"], "project_dir": demoProjectDir(t)})
	res := b.request(context.Background(), http.MethodPost, `{"jsonrpc":"2.0","id":"call-9","method":"tools/call","params":{"name":"deploy","arguments":`+string(args)+`,"_meta":{"progressToken":9}}}`, h)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("deploy: %d", res.StatusCode)
	}
	events := sseStream(res.Body)
	first, ok := <-events
	if !ok || first["method"] != "notifications/progress" {
		t.Fatalf("the first message of the deploy: %v", first)
	}
	cancel, _ := b.call(h, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call-9","reason":"the user changed their mind"}}`)
	if cancel.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %d", cancel.StatusCode)
	}
	// The server ends the call's stream without a response.
	for _, m := range drain(events) {
		if m["id"] != nil || m["method"] != "notifications/progress" {
			t.Errorf("after the cancellation the call's stream carried %v", m)
		}
	}
	waitForLog(t, b.p, "the call of deploy was cancelled by the client")
	// The call has ended: nothing of it can come any more. The GET stream
	// got nothing.
	b.endSession(h)
	if got := drain(stream); len(got) > 0 {
		t.Errorf("the GET stream carried messages of the cancelled call: %v", got)
	}
	// The session's next request is answered as usual.
	h = b.session(bedToken)
	if _, body := b.call(h, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`); !strings.Contains(body, "1 live of 1") {
		t.Errorf("list_apps after the cancellation: %s", body)
	}
}

// waitForLog waits until the server's stderr holds text.
func waitForLog(t *testing.T, p *mcpHTTPProcess, text string) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%q in the server log", text), func() bool { return strings.Contains(p.stderr.String(), text) })
}

// TestMCPOverHTTPChecksOriginAndHost: a browser's Origin must be a
// loopback one or named with --allow-origin, the Host an address the
// server listens on or a name given with --allow-host; the refusal is 403
// with a one-line reason. Requests without Origin (agents, curl) pass.
func TestMCPOverHTTPChecksOriginAndHost(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0", "--allow-origin", "https://chat.example.com", "--allow-host", "mcp.team.example")
	port := b.url[strings.LastIndex(b.url, ":")+1 : strings.LastIndex(b.url, "/")]
	for _, c := range []struct {
		name    string
		headers map[string]string
		status  int
		reason  string
	}{
		{"no Origin", nil, http.StatusOK, ""},
		{"a loopback origin", map[string]string{"Origin": "http://localhost:6274"}, http.StatusOK, ""},
		{"a loopback IP origin", map[string]string{"Origin": "http://127.0.0.1:3000"}, http.StatusOK, ""},
		{"an allowed origin", map[string]string{"Origin": "https://chat.example.com"}, http.StatusOK, ""},
		{"an allowed origin with its default port", map[string]string{"Origin": "https://CHAT.example.com:443"}, http.StatusOK, ""},
		{"another origin", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, "http://evil.example"},
		{"the allowed host over plain http", map[string]string{"Origin": "http://chat.example.com"}, http.StatusForbidden, "--allow-origin"},
		{"a null origin", map[string]string{"Origin": "null"}, http.StatusForbidden, "null"},
		{"localhost as Host", map[string]string{"Host": "localhost:" + port}, http.StatusOK, ""},
		{"an allowed Host", map[string]string{"Host": "mcp.team.example"}, http.StatusOK, ""},
		{"a rebinding Host", map[string]string{"Host": "evil.example:" + port}, http.StatusForbidden, "evil.example"},
		{"another address", map[string]string{"Host": "10.1.2.3:" + port}, http.StatusForbidden, "--allow-host"},
	} {
		res, body := b.call(c.headers, initializeRequest)
		if res.StatusCode != c.status {
			t.Errorf("%s: %d %s", c.name, res.StatusCode, body)
			continue
		}
		if c.status == http.StatusForbidden {
			if strings.Count(body, "\n") != 1 || !strings.Contains(body, c.reason) || res.Header.Get("Mcp-Session-Id") != "" {
				t.Errorf("%s: the refusal is not one line naming %q: %q", c.name, c.reason, body)
			}
		}
	}
	// Every request is checked, not only initialize; without the token too.
	h := b.session(bedToken)
	h["Origin"] = "http://evil.example"
	if res, _ := b.call(h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusForbidden {
		t.Errorf("tools/list from another origin: %d", res.StatusCode)
	}
	res := b.request(context.Background(), http.MethodGet, "", map[string]string{"Origin": "http://evil.example", "Authorization": ""})
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("GET from another origin without a token: %d", res.StatusCode)
	}
}

// TestMCPOverHTTPBounds: sessions per token and in all, calls in flight
// with a short queue and the body size are bounded, each with a clear
// refusal: 429 or 503 with Retry-After, 413.
func TestMCPOverHTTPBounds(t *testing.T) {
	dir := t.TempDir()
	other := "other-token-0123456789-abcdefgh"
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte(bedToken+" full anna\n"+other+" full boris\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Ten times slower than the platform: a deploy holds its place.
	b := newTeamBed(t, "10", "--http", "127.0.0.1:0", "--token-file", tokens,
		"--max-sessions", "3", "--max-sessions-per-token", "2", "--session-idle", "7", "--max-calls", "1")
	if b.p.answer["max-sessions"] != float64(3) || b.p.answer["session-idle-minutes"] != float64(7) || b.p.answer["max-calls"] != float64(1) {
		t.Errorf("the answer does not state the bounds: %v", b.p.answer)
	}
	a1, _ := b.session(bedToken), b.session(bedToken)
	res, body := b.call(map[string]string{"Authorization": "Bearer " + bedToken}, initializeRequest)
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "anna") || !strings.Contains(body, "7 min") {
		t.Errorf("anna's third session: %d %s", res.StatusCode, body)
	}
	if after, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || after < 1 || after > 7*60 {
		t.Errorf("Retry-After %q: want the seconds until a session may expire", res.Header.Get("Retry-After"))
	}
	boris := b.session(other)
	res, body = b.call(map[string]string{"Authorization": "Bearer " + other}, initializeRequest)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "3 sessions") {
		t.Errorf("a fourth session on the server: %d %s", res.StatusCode, body)
	}
	// A session of another token is unknown to this one.
	wrong := map[string]string{"Authorization": "Bearer " + bedToken, "Mcp-Session-Id": boris["Mcp-Session-Id"], "Mcp-Protocol-Version": "2025-06-18"}
	if res, _ := b.call(wrong, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusNotFound {
		t.Errorf("anna in boris's session: %d", res.StatusCode)
	}
	b.endSession(boris)
	b.session(other)

	// One call runs, four wait, the sixth is refused at once.
	args, _ := json.Marshal(map[string]any{"app_id": b.stand["app-id"], "project_id": b.stand["project-id"], "project_dir": demoProjectDir(t)})
	ctx, stop := context.WithCancel(context.Background())
	running := b.request(ctx, http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":`+string(args)+`,"_meta":{"progressToken":3}}}`, a1)
	if first, ok := <-sseStream(running.Body); !ok || first["method"] != "notifications/progress" {
		t.Fatalf("the deploy did not start: %v", first)
	}
	type answer struct {
		status int
		retry  string
		body   string
	}
	answers := make(chan answer, 5)
	for i := 0; i < 5; i++ {
		go func(i int) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`, 10+i)))
			for k, v := range a1 {
				req.Header.Set(k, v)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				answers <- answer{}
				return
			}
			data, _ := io.ReadAll(res.Body)
			res.Body.Close()
			answers <- answer{res.StatusCode, res.Header.Get("Retry-After"), string(data)}
		}(i)
	}
	// The four that found a place in the queue wait for the deploy; the
	// fifth is answered at once.
	if a := <-answers; a.status != http.StatusServiceUnavailable || a.retry != "1" || !strings.Contains(a.body, "busy") {
		t.Errorf("a call beyond the queue: %+v", a)
	}
	stop()

	// A body over the limit is 413, not a JSON error.
	big := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_apps","arguments":{"name":"` + strings.Repeat("x", 5<<20) + `"}}}`
	res, body = b.call(a1, big)
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "4 MiB") {
		t.Errorf("a 5 MiB body: %d %.200s", res.StatusCode, body)
	}
}

// rpcError is the JSON-RPC error of a response body, or nil.
func rpcError(t *testing.T, body string) map[string]any {
	t.Helper()
	msgs := rpcMessages(t, body)
	if len(msgs) == 0 {
		t.Fatalf("no message in %q", body)
	}
	e, _ := msgs[len(msgs)-1]["error"].(map[string]any)
	return e
}

// TestMCPOverHTTPErrorCodes: the spec's codes – a resource that names
// nothing is -32002, a prompt without its required argument and a
// resource id that can name nothing are -32602 – over HTTP and stdio
// alike; an id of a megabyte is refused before any work.
func TestMCPOverHTTPErrorCodes(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0")
	h := b.session(bedToken)
	huge := strings.Repeat("a", 1<<20)
	cases := []struct {
		name, body string
		code       float64
		text       string
	}{
		{"a missing application", `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"elemctl://apps/no-such-application"}}`, -32002, "no-such-application"},
		{"a missing application by id", `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"elemctl://apps/00000000-0000-4000-8000-000000000000"}}`, -32002, ""},
		{"no such resource", `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"elemctl://nothing"}}`, -32002, ""},
		{"an id of a megabyte", `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"elemctl://apps/` + huge + `"}}`, -32602, "empty or malformed id"},
		{"a prompt without its argument", `{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"why_rolled_back","arguments":{}}}`, -32602, "app"},
		{"a prompt without arguments", `{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"deploy_and_verify"}}`, -32602, "app"},
	}
	for _, c := range cases {
		res, body := b.call(h, c.body)
		e := rpcError(t, body)
		if res.StatusCode != http.StatusOK || e == nil || e["code"] != c.code || !strings.Contains(fmt.Sprint(e["message"]), c.text) {
			t.Errorf("%s: %d %.300s", c.name, res.StatusCode, body)
		}
		if len(body) > 2000 {
			t.Errorf("%s: the answer repeats the id (%d bytes)", c.name, len(body))
		}
	}
	// An existing application reads as usual.
	if _, body := b.call(h, `{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"elemctl://apps/`+b.stand["app-id"].(string)+`"}}`); rpcError(t, body) != nil {
		t.Errorf("an existing application: %.300s", body)
	}

	// The same over stdio.
	cmd := exec.Command(b.bin, "--env-file", b.envFile, "mcp")
	cmd.Env = b.env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	lines := bufio.NewScanner(out)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	io.WriteString(in, initializeRequest+"\n")
	lines.Scan()
	for _, c := range cases {
		io.WriteString(in, c.body+"\n")
		if !lines.Scan() {
			t.Fatalf("stdio ended: %v", lines.Err())
		}
		if e := rpcError(t, lines.Text()); e == nil || e["code"] != c.code {
			t.Errorf("%s over stdio: %.300s", c.name, lines.Text())
		}
	}
}

// TestMCPOverHTTPScopes: a read token sees and calls the read-only tools
// alone, reads resources and gets the prompts of read-only tools; calling
// a tool that changes something is refused with a message naming the
// scope. A full token in the same file sees everything.
func TestMCPOverHTTPScopes(t *testing.T) {
	dir := t.TempDir()
	reader := "reader-token-0123456789-abcdefgh"
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("# the team\n"+bedToken+" full anna\n"+reader+" read dashboard\n"), 0o600)
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0", "--token-file", tokens)
	if got := fmt.Sprint(b.p.answer["tokens"]); got != "[map[name:anna scope:full] map[name:dashboard scope:read]]" {
		t.Errorf("the answer's tokens: %s", got)
	}
	if strings.Contains(b.p.stderr.String(), reader) {
		t.Error("the read token appears in the server log")
	}
	toolNames := func(h map[string]string) map[string]bool {
		_, body := b.call(h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		names := map[string]bool{}
		for _, tool := range rpcMessages(t, body)[0]["result"].(map[string]any)["tools"].([]any) {
			names[tool.(map[string]any)["name"].(string)] = true
		}
		return names
	}
	full, read := b.session(bedToken), b.session(reader)
	all, some := toolNames(full), toolNames(read)
	for _, name := range []string{"deploy", "delete_app", "export_app", "build_assembly"} {
		if !all[name] || some[name] {
			t.Errorf("%s: full sees it %v, read sees it %v", name, all[name], some[name])
		}
	}
	for _, name := range []string{"list_apps", "get_app", "verify_deploy", "inspect_assembly"} {
		if !some[name] {
			t.Errorf("the read token does not see %s", name)
		}
	}
	_, body := b.call(read, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_app","arguments":{"app_id":"`+b.stand["app-id"].(string)+`"}}}`)
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "dashboard") || !strings.Contains(body, "scope read") {
		t.Errorf("delete_app with the read token: %s", body)
	}
	if _, body := b.call(read, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`); !strings.Contains(body, "1 live of 1") {
		t.Errorf("list_apps with the read token: %s", body)
	}
	// The application is still there: the refusal came before any work.
	if _, body := b.call(full, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"elemctl://apps"}}`); !strings.Contains(body, b.stand["app-id"].(string)) {
		t.Errorf("the application after the refused delete: %.300s", body)
	}
	if _, body := b.call(read, `{"jsonrpc":"2.0","id":6,"method":"prompts/list"}`); !strings.Contains(body, "why_rolled_back") || strings.Contains(body, "deploy_and_verify") {
		t.Errorf("the read token's prompts: %s", body)
	}
	if _, body := b.call(read, `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"elemctl://apps"}}`); !strings.Contains(body, b.stand["app-id"].(string)) {
		t.Errorf("a resource with the read token: %.300s", body)
	}
}

// TestMCPOverHTTPReadOnly: --read-only serves the read-only tools alone,
// to every token; the instructions speak of them only.
func TestMCPOverHTTPReadOnly(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0", "--read-only")
	if b.p.answer["read-only"] != true {
		t.Errorf("answer %v", b.p.answer)
	}
	res, body := b.call(map[string]string{}, initializeRequest)
	if res.StatusCode != http.StatusOK || strings.Contains(body, "take minutes") || strings.Contains(body, "probe") {
		t.Errorf("the instructions of a read-only server speak of the long tools: %s", body)
	}
	h := b.session(bedToken)
	_, body = b.call(h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	for _, tool := range rpcMessages(t, body)[0]["result"].(map[string]any)["tools"].([]any) {
		ann := tool.(map[string]any)["annotations"].(map[string]any)
		if ann["readOnlyHint"] != true || ann["destructiveHint"] != false {
			t.Errorf("a read-only server lists %v", tool.(map[string]any)["name"])
		}
	}
	_, body = b.call(h, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{}}}`)
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "--read-only") {
		t.Errorf("deploy on a read-only server: %s", body)
	}
}

// TestMCPOverHTTPStateless: --stateless issues no session: every request
// stands alone (any replica may answer it), there is no GET stream and
// nothing to DELETE.
func TestMCPOverHTTPStateless(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0", "--stateless")
	res, _ := b.call(nil, initializeRequest)
	if res.StatusCode != http.StatusOK || res.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize without sessions: %d %q", res.StatusCode, res.Header.Get("Mcp-Session-Id"))
	}
	plain := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	if _, body := b.call(plain, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`); !strings.Contains(body, "1 live of 1") {
		t.Errorf("a call without a session: %s", body)
	}
	// A session id some balancer passes on is ignored.
	plain["Mcp-Session-Id"] = "from-another-replica"
	if res, body := b.call(plain, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != http.StatusOK || !strings.Contains(body, "list_apps") {
		t.Errorf("tools/list with a foreign session id: %d", res.StatusCode)
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		res := b.request(context.Background(), method, "", map[string]string{"Accept": "text/event-stream"})
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "POST" {
			t.Errorf("%s without sessions: %d %q", method, res.StatusCode, res.Header.Get("Allow"))
		}
	}
}

// TestMCPOverHTTPListensWhereAsked: 0.0.0.0 is every IPv4 address and not
// IPv6 too; the answer and the log say where the server listens.
func TestMCPOverHTTPListensWhereAsked(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "0.0.0.0:0")
	listen, _ := b.p.answer["listen"].(string)
	if b.p.answer["network"] != "tcp4" || !strings.HasPrefix(listen, "0.0.0.0:") {
		t.Fatalf("answer %v", b.p.answer)
	}
	_, port, _ := net.SplitHostPort(listen)
	waitForLog(t, b.p, "every IPv4 address of this machine (not IPv6")
	if c, err := net.Dial("tcp4", "127.0.0.1:"+port); err != nil {
		t.Errorf("IPv4: %v", err)
	} else {
		c.Close()
	}
	if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		ln.Close()
		if c, err := net.Dial("tcp6", "[::1]:"+port); err == nil {
			c.Close()
			t.Error("0.0.0.0 listens on IPv6 too")
		}
	}
}

// TestMCPOverHTTPAnnotationsTellTheTruth: every tool a client lists
// carries all four hints, none is read-only and destructive at once, and
// the tools that write files on the server's machine (an export, an
// archive, a probe's or a deploy's build) are not read-only.
func TestMCPOverHTTPAnnotationsTellTheTruth(t *testing.T) {
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0")
	h := b.session(bedToken)
	_, body := b.call(h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	seen := map[string]bool{}
	for _, tool := range rpcMessages(t, body)[0]["result"].(map[string]any)["tools"].([]any) {
		name := tool.(map[string]any)["name"].(string)
		ann, _ := tool.(map[string]any)["annotations"].(map[string]any)
		for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if _, ok := ann[hint].(bool); !ok {
				t.Errorf("%s: %s is not stated: %v", name, hint, ann)
			}
		}
		if ann["readOnlyHint"] == true && ann["destructiveHint"] == true {
			t.Errorf("%s is read-only and destructive at once", name)
		}
		seen[name] = true
		switch name {
		case "export_app", "export_extension", "build_assembly", "probe", "deploy":
			if ann["readOnlyHint"] != false {
				t.Errorf("%s writes files but is annotated read-only", name)
			}
		}
	}
	for _, name := range []string{"export_app", "export_extension", "build_assembly", "probe", "deploy", "list_apps"} {
		if !seen[name] {
			t.Errorf("tools/list lacks %s", name)
		}
	}
}

// TestMCPOverHTTPMemoryLimit: --memory-limit is the limit the server
// states and keeps: while the live heap is over half of it, calls are
// refused with 503 and Retry-After while cheap requests pass; a limit
// that is no number of MiB is refused at the start.
func TestMCPOverHTTPMemoryLimit(t *testing.T) {
	// One MiB: the server's own tables fill half of it.
	b := newTeamBed(t, "0.001", "--http", "127.0.0.1:0", "--memory-limit", "1")
	if b.p.answer["memory-limit-mib"] != float64(1) {
		t.Errorf("the answer does not state the limit: %v", b.p.answer["memory-limit-mib"])
	}
	h := b.session(bedToken)
	res, body := b.call(h, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_apps","arguments":{}}}`)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" || !strings.Contains(body, "memory limit of 1 MiB") {
		t.Errorf("a call over the memory limit: %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, body := b.call(h, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); res.StatusCode != http.StatusOK || !strings.Contains(body, "list_apps") {
		t.Errorf("tools/list over the memory limit: %d %.200s", res.StatusCode, body)
	}
	waitForLog(t, b.p, "memory limit of 1 MiB")

	cmd := exec.Command(b.bin, "mcp", "--http", "127.0.0.1:0", "--memory-limit", "-5")
	cmd.Env = b.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "--memory-limit -5") {
		t.Errorf("a negative memory limit: %v %s", err, stderr.String())
	}
}
