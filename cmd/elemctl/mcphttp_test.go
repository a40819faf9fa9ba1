package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
