package mcp

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/stand"
)

const testToken = "test-token-0123456789-abcdefghij"

// httpServer is a harness's server also speaking HTTP on loopback.
type httpServer struct {
	h      *harness
	url    string
	stop   context.CancelFunc
	served chan error
	srv    *HTTPServer
}

// serveHTTP serves the harness's server over real HTTP on 127.0.0.1 until
// the test ends.
func serveHTTP(t *testing.T, h *harness, o HTTPOptions) *httpServer {
	t.Helper()

	ctx := context.Background()
	if o.Token == "" {
		o.Token = testToken
	}
	h.secrets = append(h.secrets, o.Token)
	srv, err := h.srv.NewHTTP(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	hs := &httpServer{h: h, stop: stop, served: make(chan error, 1), srv: srv}
	scheme := "http"
	if o.TLSCertFile != "" {
		scheme = "https"
	}
	hs.url = scheme + "://" + ln.Addr().String() + EndpointPath
	go func() { hs.served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		select {
		case <-hs.served:
		case <-time.After(10 * time.Second):
			t.Error("the HTTP server did not stop")
		}
		// The token never reaches the server log.
		if strings.Contains(h.stderr.String(), o.Token) {
			t.Errorf("the token appeared in the server log: %s", h.stderr.String())
		}
	})
	return hs
}

// connect is an mcp-go client over streamable HTTP with the token,
// initialized; notes collects its notifications.
func (hs *httpServer) connect(t *testing.T, token string, opts ...transport.StreamableHTTPCOption) (*client.Client, *notes) {
	t.Helper()
	// The client's own complaints (a DELETE after the server stopped) are
	// not the server's log.
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}), transport.WithHTTPLogger(quiet))
	cl, err := client.NewStreamableHttpClient(hs.url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	n := &notes{}
	cl.OnNotification(n.add)
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcpgo.Implementation{Name: "http-test", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize over HTTP: %v", err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl, n
}

type notes struct {
	mu   sync.Mutex
	list []mcpgo.JSONRPCNotification
}

func (n *notes) add(x mcpgo.JSONRPCNotification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, x)
}

func (n *notes) progress() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, x := range n.list {
		if x.Method == string(mcpgo.MethodNotificationProgress) {
			msg, _ := x.Params.AdditionalFields["message"].(string)
			out = append(out, msg)
		}
	}
	return out
}

func callTool(t *testing.T, cl *client.Client, tool string, args map[string]any, meta *mcpgo.Meta) *mcpgo.CallToolResult {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	if args != nil {
		req.Params.Arguments = args
	}
	req.Params.Meta = meta
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s over HTTP: %v", tool, err)
	}
	return res
}

// post sends one raw JSON-RPC message with the given headers.
func (hs *httpServer) post(t *testing.T, headers map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, hs.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPServesTheToolsWithProgress(t *testing.T) {
	h := start(t, setup{})
	needTools(t, h, "deploy")
	fastPolls(h)
	hs := serveHTTP(t, h, HTTPOptions{})
	cl, n := hs.connect(t, testToken)

	list := callTool(t, cl, "list_apps", nil, nil)
	if list.IsError || !strings.Contains(textOf(list), `"summary": "живых 1 из 1"`) {
		t.Fatalf("list_apps over HTTP: %s", textOf(list))
	}
	res := callTool(t, cl, "deploy", map[string]any{
		"app_id": h.demo.AppName, "project_id": h.demo.ProjectID, "project_dir": demoProject(t),
	}, &mcpgo.Meta{ProgressToken: "deploy"})
	if res.IsError {
		t.Fatalf("deploy over HTTP: %s", textOf(res))
	}
	report := decodeText(t, textOf(res)).(*jsonx.Object)
	if !report.Bool("ok") {
		t.Fatalf("deploy report: %s", textOf(res))
	}
	log, _ := report.Value("log").([]any)
	waitFor(t, "progress notifications over HTTP", func() bool { return len(n.progress()) > 0 })
	if got := n.progress(); len(log) == 0 || got[0] != log[0] {
		t.Errorf("progress %q, log %q", got, log)
	}
	h.checkNoSecrets(res)
}

func TestHTTPRefusesRequestsWithoutTheRightToken(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	for name, headers := range map[string]map[string]string{
		"no token":     nil,
		"wrong token":  {"Authorization": "Bearer " + testToken + "x"},
		"prefix":       {"Authorization": "Bearer " + testToken[:len(testToken)-1]},
		"other scheme": {"Authorization": "Basic " + testToken},
		"empty bearer": {"Authorization": "Bearer "},
	} {
		res := hs.post(t, headers, initializeBody)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusUnauthorized || len(body) != 0 {
			t.Errorf("%s: %d %q", name, res.StatusCode, body)
		}
		if got := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", name, got)
		}
		if res.Header.Get("Mcp-Session-Id") != "" || res.Header.Get("Content-Type") != "" {
			t.Errorf("%s: a refused request got more than 401: %v", name, res.Header)
		}
	}
	// Other paths are refused the same way before anything else.
	req, _ := http.NewRequest(http.MethodGet, strings.TrimSuffix(hs.url, EndpointPath)+"/other", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("another path without the token: %d", res.StatusCode)
	}

	// The mcp-go client with a wrong token cannot initialize.
	cl, err := client.NewStreamableHttpClient(hs.url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer nope-nope-nope-nope-nope"}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	if _, err := cl.Initialize(context.Background(), init); err == nil {
		t.Error("a client with a wrong token initialized")
	}

	// With the token, the same request opens a session.
	ok := hs.post(t, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody)
	if ok.StatusCode != http.StatusOK || ok.Header.Get("Mcp-Session-Id") == "" {
		t.Errorf("initialize with the token: %d %v", ok.StatusCode, ok.Header)
	}
}

func TestHTTPSessionsFollowTheSpec(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	res := hs.post(t, auth, initializeBody)
	id := res.Header.Get("Mcp-Session-Id")
	if len(id) < 32 || strings.ContainsFunc(id, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		t.Fatalf("session id %q: want a long id of visible ASCII", id)
	}
	if other := hs.post(t, auth, initializeBody).Header.Get("Mcp-Session-Id"); other == id || other == "" {
		t.Errorf("two initializations share the session id %q", id)
	}
	if hs.srv.Sessions() < 2 {
		t.Errorf("sessions open: %d", hs.srv.Sessions())
	}

	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	with := func(session string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
	}
	if got := hs.post(t, with(id), list); got.StatusCode != http.StatusOK {
		t.Errorf("tools/list in the session: %d", got.StatusCode)
	}
	if got := hs.post(t, auth, list); got.StatusCode != http.StatusBadRequest {
		t.Errorf("tools/list without a session id: %d, want 400", got.StatusCode)
	}
	if got := hs.post(t, with("made-up-session-id"), list); got.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown session id: %d, want 404", got.StatusCode)
	}
	get := func(session string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, hs.url, nil)
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Accept", "text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := get(""); code != http.StatusBadRequest {
		t.Errorf("GET without a session id: %d, want 400", code)
	}
	if code := get("made-up-session-id"); code != http.StatusNotFound {
		t.Errorf("GET with an unknown session id: %d, want 404", code)
	}

	// DELETE ends the session; it is unknown afterwards.
	req, _ := http.NewRequest(http.MethodDelete, hs.url, nil)
	for k, v := range with(id) {
		req.Header.Set(k, v)
	}
	del, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	del.Body.Close()
	if del.StatusCode != http.StatusOK {
		t.Errorf("DELETE: %d", del.StatusCode)
	}
	if got := hs.post(t, with(id), list); got.StatusCode != http.StatusNotFound {
		t.Errorf("the deleted session: %d, want 404", got.StatusCode)
	}
}

// TestHTTPEnvFileIsLimitedToEnvDir: over HTTP a call names only files under
// --env-dir (none without it); "..", absolute paths and symlinks cannot
// lead outside. Over stdio the same call reads any file.
func TestHTTPEnvFileIsLimitedToEnvDir(t *testing.T) {
	h := start(t, setup{})
	other, _ := newStand(t, true)
	outside := writeFile(t, filepath.Join(t.TempDir(), "outside.env"), envText(other))
	h.secrets = append(h.secrets, other.ClientSecret())

	// Without --env-dir: the server's own stand only.
	bare := serveHTTP(t, h, HTTPOptions{})
	cl, _ := bare.connect(t, testToken)
	if res := callTool(t, cl, "list_apps", nil, nil); res.IsError {
		t.Fatalf("the server's own stand over HTTP: %s", textOf(res))
	}
	res := callTool(t, cl, "list_apps", map[string]any{"env_file": outside}, nil)
	if !res.IsError || !strings.Contains(textOf(res), "--env-dir") {
		t.Fatalf("env_file without --env-dir: %s", textOf(res))
	}
	// Over stdio the same file is another stand like any other.
	if text := textOf(h.call("list_apps", map[string]any{"env_file": outside})); !strings.Contains(text, "живых") {
		t.Fatalf("env_file over stdio: %s", text)
	}

	dir := filepath.Join(t.TempDir(), "stands")
	inside := writeFile(t, filepath.Join(dir, "team", "other.env"), envText(other))
	served := serveHTTP(t, h, HTTPOptions{EnvDir: dir})
	cl, _ = served.connect(t, testToken)
	for _, name := range []string{inside, "team/other.env", filepath.Join(dir, "x", "..", "team", "other.env")} {
		res := callTool(t, cl, "list_apps", map[string]any{"env_file": name}, nil)
		if res.IsError || !strings.Contains(textOf(res), "живых") {
			t.Errorf("env_file %s inside --env-dir: %s", name, textOf(res))
		}
		h.checkNoSecrets(res)
	}
	refused := []string{outside, "../outside.env", filepath.Join(dir, "..", "outside.env"), "team/../../outside.env", dir}
	if runtime.GOOS != "windows" {
		// A link inside that leads outside.
		if err := os.Symlink(outside, filepath.Join(dir, "link.env")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "linkdir")); err != nil {
			t.Fatal(err)
		}
		refused = append(refused, "link.env", "linkdir/outside.env")
	}
	for _, name := range refused {
		res := callTool(t, cl, "list_apps", map[string]any{"env_file": name}, nil)
		text := textOf(res)
		if !res.IsError || !strings.Contains(text, "env_file") || !strings.Contains(text, "--env-dir") {
			t.Errorf("env_file %s must be refused by the rule: %s", name, text)
		}
		if strings.Contains(text, "ELEMENT_") || strings.Contains(text, other.URL()) {
			t.Errorf("the refusal of %s shows the file's content: %s", name, text)
		}
	}
	missing := callTool(t, cl, "list_apps", map[string]any{"env_file": "team/none.env"}, nil)
	if !missing.IsError || !strings.Contains(textOf(missing), "не найден: team/none.env") {
		t.Errorf("a missing file inside --env-dir: %s", textOf(missing))
	}
}

// TestHTTPDisconnectCancelsTheCall: a client that goes away mid-call
// cancels the call's context at once, as notifications/cancelled does.
func TestHTTPDisconnectCancelsTheCall(t *testing.T) {
	started := make(chan struct{}, 1)
	stopped := make(chan error, 1)
	catalog := catalogWith(&command.Command{
		Tool: "test_block", Help: "blocks until cancelled", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				stopped <- ctx.Err()
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				stopped <- nil
				return jsonx.New("ok", true), nil
			}
		},
	})
	h := start(t, setup{catalog: catalog})
	hs := serveHTTP(t, h, HTTPOptions{})
	session := hs.post(t, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody).Header.Get("Mcp-Session-Id")

	ctx, disconnect := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, hs.url,
		strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_block","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	go func() {
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool did not start")
	}
	at := time.Now()
	disconnect()
	select {
	case err := <-stopped:
		if err == nil {
			t.Fatal("the call ran to its end after the client went away")
		}
		if d := time.Since(at); d > 2*time.Second {
			t.Errorf("the disconnect reached the call after %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the disconnect did not cancel the call")
	}
}

// TestHTTPDisconnectedProbeStillCleansUp: the probe of a client that went
// away removes its application, as a cancelled probe does.
func TestHTTPDisconnectedProbeStillCleansUp(t *testing.T) {
	h := start(t, setup{standOptions: stand.Options{Durations: stand.Durations{Create: 20 * time.Minute}}})
	needTools(t, h, "probe")
	fastPolls(h)
	hs := serveHTTP(t, h, HTTPOptions{})
	session := hs.post(t, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody).Header.Get("Mcp-Session-Id")
	args, _ := json.Marshal(map[string]any{"project_dir": demoProject(t)})
	ctx, disconnect := context.WithCancel(context.Background())
	defer disconnect()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, hs.url,
		bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"probe","arguments":`+string(args)+`}}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Mcp-Session-Id", session)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if res, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	waitFor(t, "the probe application", func() bool {
		select {
		case <-done:
			t.Fatal("the probe ended before the client went away")
		default:
		}
		return len(liveProbes(t, h)) > 0
	})
	disconnect()
	<-done
	waitFor(t, "the cleanup of the abandoned probe", func() bool { return len(liveProbes(t, h)) == 0 })
}

// TestHTTPShutdownInterruptsCallsAndWaitsForTheirCleanup: when the server
// stops, the calls in progress are cancelled and Serve returns only after
// their handlers finished.
func TestHTTPShutdownInterruptsCallsAndWaitsForTheirCleanup(t *testing.T) {
	ctx := context.Background()
	started := make(chan struct{}, 1)
	var cleaned sync.WaitGroup
	cleaned.Add(1)
	var cleanedUp atomic.Bool
	catalog := catalogWith(&command.Command{
		Tool: "test_cleanup", Help: "cleans up after a cancellation", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			<-ctx.Done()
			time.Sleep(200 * time.Millisecond) // the cleanup takes a while
			cleanedUp.Store(true)
			cleaned.Done()
			return nil, ctx.Err()
		},
	})
	h := start(t, setup{catalog: catalog})
	srv, err := h.srv.NewHTTP(ctx, HTTPOptions{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	hs := &httpServer{h: h, url: "http://" + ln.Addr().String() + EndpointPath}
	cl, _ := hs.connect(t, testToken)
	go func() {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "test_cleanup"
		_, _ = cl.CallTool(context.Background(), req)
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool did not start")
	}
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		if !cleanedUp.Load() {
			t.Error("Serve returned before the interrupted call cleaned up")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the stop")
	}
	cleaned.Wait()
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the server still accepts connections after the stop")
	}
}

func TestHTTPSOnlyWithACertificate(t *testing.T) {
	ctx := context.Background()
	h := start(t, setup{})
	cert, key, pool := selfSigned(t)
	if _, err := h.srv.NewHTTP(ctx, HTTPOptions{Token: testToken, TLSCertFile: cert, TLSKeyFile: cert}); err == nil {
		t.Error("a certificate without its key was accepted")
	}
	hs := serveHTTP(t, h, HTTPOptions{TLSCertFile: cert, TLSKeyFile: key})
	httpClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	cl, _ := hs.connect(t, testToken, transport.WithHTTPBasicClient(httpClient))
	if res := callTool(t, cl, "list_apps", nil, nil); res.IsError {
		t.Fatalf("list_apps over HTTPS: %s", textOf(res))
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "elemctl test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	parsed, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(parsed)
	return certFile, keyFile, pool
}

func TestHTTPInstructionsNameTheEnvDirRule(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	res := hs.post(t, map[string]string{"Authorization": "Bearer " + testToken}, initializeBody)
	var msg struct {
		Result mcpgo.InitializeResult `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg.Result.Instructions, "--env-dir") || !strings.Contains(msg.Result.Instructions, "откатывает") {
		t.Errorf("instructions over HTTP: %s", msg.Result.Instructions)
	}
	// The stdio instructions stay as they were.
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	cl := h.connect()
	got, err := cl.Initialize(context.Background(), init)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Instructions, "--env-dir") {
		t.Errorf("stdio instructions speak of --env-dir: %s", got.Instructions)
	}
}

func TestNewHTTPRefusesBadOptions(t *testing.T) {
	ctx := context.Background()
	h := start(t, setup{})
	for name, o := range map[string]HTTPOptions{
		"no token":           {},
		"short token":        {Token: "short"},
		"token with a space": {Token: "0123456789 0123456789"},
		"missing env-dir":    {Token: testToken, EnvDir: filepath.Join(t.TempDir(), "none")},
		"env-dir a file":     {Token: testToken, EnvDir: writeFile(t, filepath.Join(t.TempDir(), "f"), "x")},
	} {
		if _, err := h.srv.NewHTTP(ctx, o); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "short") && name != "short token" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseListenAddress(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		in, network, hostPort string
		loopback              bool
	}{
		{"8080", "tcp4", "127.0.0.1:8080", true},
		{"0", "tcp4", "127.0.0.1:0", true},
		{"localhost:8080", "tcp4", "127.0.0.1:8080", true},
		{"LocalHost:1", "tcp4", "127.0.0.1:1", true},
		{"127.0.0.1:8080", "tcp4", "127.0.0.1:8080", true},
		{"127.1.2.3:8080", "tcp4", "127.1.2.3:8080", true},
		{"[::1]:8080", "tcp6", "[::1]:8080", true},
		{":8080", "tcp", ":8080", false},
		{"0.0.0.0:8080", "tcp4", "0.0.0.0:8080", false},
		{"[::]:8080", "tcp6", "[::]:8080", false},
		{"[::ffff:10.0.0.1]:8080", "tcp4", "10.0.0.1:8080", false},
		{"192.168.1.5:8080", "tcp4", "192.168.1.5:8080", false},
		{"build-host:8080", "tcp", "build-host:8080", false},
	} {
		got, err := ParseListenAddress(ctx, c.in)
		if err != nil || got.Network != c.network || got.HostPort != c.hostPort || got.Loopback != c.loopback {
			t.Errorf("%q: %+v %v, want %s %s loopback=%v", c.in, got, err, c.network, c.hostPort, c.loopback)
		}
	}
	for _, bad := range []string{"", "host", "host:port", "70000", ":70000", "-1", "1.2.3.4"} {
		if _, err := ParseListenAddress(ctx, bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestLoadTokenFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "token")
	tokens, created, err := LoadTokenFile(ctx, path)
	if err != nil || !created || len(tokens) != 1 || len(tokens[0].Value) < MinTokenLength || tokens[0].Scope != ScopeFull {
		t.Fatalf("a new token file: %v %v %v", tokens, created, err)
	}
	token := tokens[0].Value
	if runtime.GOOS != "windows" {
		st, _ := os.Stat(path)
		if st.Mode().Perm() != 0o600 {
			t.Errorf("the new token file's mode is %v", st.Mode().Perm())
		}
	}
	again, created, err := LoadTokenFile(ctx, path)
	if err != nil || created || len(again) != 1 || again[0].Value != token {
		t.Errorf("the token file read again: %v %v %v", again, created, err)
	}
	if other, _, _ := LoadTokenFile(ctx, filepath.Join(dir, "other")); len(other) != 1 || other[0].Value == token {
		t.Error("two new token files hold the same token")
	}

	short := writeFile(t, filepath.Join(dir, "short"), "abc\n")
	if _, _, err := LoadTokenFile(ctx, short); err == nil || strings.Contains(err.Error(), "abc") {
		t.Errorf("a short token: %v", err)
	}
	if _, _, err := LoadTokenFile(ctx, dir); err == nil {
		t.Error("a directory as the token file was accepted")
	}
	if runtime.GOOS != "windows" {
		shared := writeFile(t, filepath.Join(dir, "shared"), testToken+"\n")
		os.Chmod(shared, 0o640)
		_, _, err := LoadTokenFile(ctx, shared)
		if err == nil || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(err.Error(), testToken) {
			t.Errorf("a token file others may read: %v", err)
		}
	}
}

// TestTokenFileFormat: several tokens, each with a scope and a name; one
// token alone (the original file) is full scope; mistakes name the line
// and never the token.
func TestTokenFileFormat(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	anna, ci := "anna-token-0123456789abcdef", "ci-token-0123456789abcdef"
	path := writeFile(t, filepath.Join(dir, "tokens"), "# team tokens\n\n"+anna+" full anna\n  "+ci+"   READ   dashboard  \n"+testToken+"\n")
	tokens, _, err := LoadTokenFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Token{{anna, ScopeFull, "anna"}, {ci, ScopeRead, "dashboard"}, {testToken, ScopeFull, "line-5"}}
	if len(tokens) != len(want) {
		t.Fatalf("tokens: %v", tokens)
	}
	for i := range want {
		if tokens[i] != want[i] {
			t.Errorf("token %d: %+v, want %+v", i, tokens[i], want[i])
		}
	}
	for _, c := range []struct{ text, want string }{
		{anna + " admin\n", "строка 1"},
		{anna + " full a\n" + anna + " read b\n", "строке 1"},
		{anna + " full a\n" + ci + " read a\n", "имя a"},
		{anna + " full a extra\n", "ТОКЕН [full|read] [ИМЯ]"},
		{"# nothing\n", "нет ни одного токена"},
		{"short read x\n", "слишком короткий"},
	} {
		_, _, err := LoadTokenFile(ctx, writeFile(t, filepath.Join(dir, "bad"), c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), anna) || strings.Contains(err.Error(), ci)) {
			t.Errorf("%q: the error shows a token: %v", c.text, err)
		}
	}
}

// TestHTTPShutdownStopsWaitingOnForceOrGrace: a call that ignores its
// cancellation holds the stop only until Force (a second interrupt) or
// the grace period.
func TestHTTPShutdownStopsWaitingOnForceOrGrace(t *testing.T) {
	ctx := context.Background()
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{}, 2)
	catalog := catalogWith(&command.Command{
		Tool: "test_stubborn", Help: "ignores its cancellation", Slow: true,
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			started <- struct{}{}
			<-release
			return nil, ctx.Err()
		},
	})
	h := start(t, setup{catalog: catalog})
	force := make(chan struct{})
	for _, c := range []struct {
		name  string
		o     HTTPOptions
		force chan struct{}
	}{
		{"force", HTTPOptions{Token: testToken, Force: force}, force},
		{"grace", HTTPOptions{Token: testToken, ShutdownGrace: 300 * time.Millisecond}, nil},
	} {
		srv, err := h.srv.NewHTTP(ctx, c.o)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ctx, ln) }()
		hs := &httpServer{h: h, url: "http://" + ln.Addr().String() + EndpointPath}
		cl, _ := hs.connect(t, testToken)
		go func() {
			req := mcpgo.CallToolRequest{}
			req.Params.Name = "test_stubborn"
			_, _ = cl.CallTool(context.Background(), req)
		}()
		<-started
		stop()
		select {
		case <-served:
			t.Fatalf("%s: Serve returned while the call was still running", c.name)
		case <-time.After(100 * time.Millisecond):
		}
		if c.force != nil {
			close(c.force)
		}
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Serve still waits", c.name)
		}
	}
	if !strings.Contains(h.stderr.String(), "вызовов в работе – 1, они прерваны") || !strings.Contains(h.stderr.String(), "не закончили уборку") {
		t.Errorf("the server log: %s", h.stderr.String())
	}
}

// TestHTTPSessionlessProtocol: a client of the protocol without sessions
// (2026-07-28) gets the same tools behind the same token and env_file rule.
func TestHTTPSessionlessProtocol(t *testing.T) {
	h := start(t, setup{})
	hs := serveHTTP(t, h, HTTPOptions{})
	modern := func(token string) (*client.Client, error) {
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		cl, err := client.NewStreamableHttpClient(hs.url, transport.WithHTTPLogger(quiet),
			transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cl.Close() })
		if err := cl.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		init := mcpgo.InitializeRequest{}
		init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
		res, err := cl.Initialize(context.Background(), init)
		if err == nil && !mcpgo.IsModernProtocol(res.ProtocolVersion) {
			t.Fatalf("negotiated %s", res.ProtocolVersion)
		}
		return cl, err
	}
	cl, err := modern(testToken)
	if err != nil {
		t.Fatal(err)
	}
	if res := callTool(t, cl, "list_apps", nil, nil); res.IsError || !strings.Contains(textOf(res), "живых 1 из 1") {
		t.Errorf("list_apps: %s", textOf(res))
	}
	if res := callTool(t, cl, "list_apps", map[string]any{"env_file": "x.env"}, nil); !res.IsError || !strings.Contains(textOf(res), "--env-dir") {
		t.Errorf("env_file: %s", textOf(res))
	}
	wrong, err := modern("wrong-token-0123456789")
	if err == nil {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "list_apps"
		if _, err := wrong.CallTool(context.Background(), req); err == nil {
			t.Error("a wrong token called a tool")
		}
	}
}
