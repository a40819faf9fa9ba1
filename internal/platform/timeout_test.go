package platform_test

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// The timeout of these tests: every gap a server leaves is well below it,
// every stall well above it. Upper bounds on durations are generous (the
// machine is shared); the request counts are what is exact.
const testTimeout = 300 * time.Millisecond

const (
	testSecret = "secret-5ee1-do-not-print"
	testToken  = "token-70c3-do-not-print"
)

// slowServer is a real HTTP server speaking just enough Console API: the
// token endpoint answers at once, API paths go to api. It counts API
// requests and TCP connections.
type slowServer struct {
	*httptest.Server
	api      http.HandlerFunc
	requests atomic.Int32
	conns    atomic.Int32
	// release unblocks handlers that hang, so that Close does not wait.
	release chan struct{}
}

func startSlowServer(t *testing.T, useTLS bool, api http.HandlerFunc) *slowServer {
	t.Helper()
	s := &slowServer{api: api, release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/console/sys/token", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id_token": %q}`, testToken)
	})
	mux.HandleFunc("/console/api/", func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.api(w, r)
	})
	s.Server = httptest.NewUnstartedServer(mux)
	s.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
			if tc, ok := c.(*net.TCPConn); ok {
				// A small receive buffer makes a slow reader hold the
				// client's writes back instead of buffering the body.
				_ = tc.SetReadBuffer(32 << 10)
			}
		}
	}
	if useTLS {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(func() {
		close(s.release)
		s.Close()
	})
	return s
}

// hang blocks a handler until the client goes away or the test ends.
func (s *slowServer) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.release:
	}
}

// slowClient connects a client to s with the test timeout and the
// production retry pauses (so that a retry would show in time and counts).
func slowClient(t *testing.T, s *slowServer, timeout time.Duration) *platform.Client {
	t.Helper()

	ctx := context.Background()
	cfg := &platform.Config{BaseURL: s.URL, ClientID: "client", ClientSecret: testSecret,
		TLSVerify: true, TLSStrict: true, NoProxy: true, Timeout: timeout}
	if s.TLS != nil {
		cfg.CAFile = writeCA(t, s.Certificate().Raw)
	}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func writeCA(t *testing.T, der []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// bothSchemes runs a test over plain HTTP and over TLS.
func bothSchemes(t *testing.T, f func(t *testing.T, useTLS bool)) {
	for _, useTLS := range []bool{false, true} {
		name := "http"
		if useTLS {
			name = "https"
		}
		t.Run(name, func(t *testing.T) { f(t, useTLS) })
	}
}

// trickle sends body in pieces with a pause before each piece.
func trickle(w http.ResponseWriter, body []byte, piece int, pause time.Duration) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for len(body) > 0 {
		time.Sleep(pause)
		n := min(piece, len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		body = body[n:]
	}
}

// checkClean makes sure an error shows neither the secret nor the token.
func checkClean(t *testing.T, err error) {
	t.Helper()
	out, _ := jsonx.Marshal(platform.ErrorObject(err))
	for _, s := range []string{testSecret, testToken} {
		if strings.Contains(err.Error(), s) || strings.Contains(string(out), s) {
			t.Fatalf("the error shows a secret: %s", out)
		}
	}
}

func TestTricklingAnswerSlowerThanTheTimeoutSucceeds(t *testing.T) {
	bothSchemes(t, func(t *testing.T, useTLS bool) {
		card := []byte(`{"id": "019f0000-0000-7000-8000-000000000001", "name": "demo", "status": "Running", "uri": "https://x"}`)
		s := startSlowServer(t, useTLS, func(w http.ResponseWriter, r *http.Request) {
			trickle(w, card, 15, 100*time.Millisecond)
		})
		cl := slowClient(t, s, testTimeout)
		start := time.Now()
		app, err := cl.GetApp(context.Background(), "019f0000-0000-7000-8000-000000000001")
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("a trickling answer whose every gap is below the timeout failed after %v: %v", elapsed, err)
		}
		if app.Str("name") != "demo" {
			t.Fatalf("card %v", app)
		}
		if elapsed < 2*testTimeout {
			t.Fatalf("the answer took %v, not longer than the timeout: the test proves nothing", elapsed)
		}
		if n := s.requests.Load(); n != 1 {
			t.Errorf("the server got %d requests, want 1", n)
		}
	})
}

func TestAnswerStalledMidBodyTimesOutAfterOneTimeout(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	bothSchemes(t, func(t *testing.T, useTLS bool) {
		var s *slowServer
		s = startSlowServer(t, useTLS, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`[{"id": "a", "name": "x"},`))
			w.(http.Flusher).Flush()
			s.hang(r)
		})
		cl := slowClient(t, s, testTimeout)
		// Read whole, and read as it arrives (a goroutine receives it
		// ahead of the parse): the first card of the streamed list reaches
		// its visitor before the stall.
		for _, read := range listReads {
			requests := s.requests.Load()
			start := time.Now()
			seen, err := read.list(ctx, cl)
			elapsed := time.Since(start)
			if !platform.IsTimeout(err) || !platform.IsTransport(err) {
				t.Fatalf("%s: want a network timeout, got %v", read.name, err)
			}
			if elapsed < testTimeout || elapsed > 3*time.Second {
				t.Errorf("%s: failed after %v, want about one timeout of %v", read.name, elapsed, testTimeout)
			}
			for _, want := range []string{"timed out after 0.3 s", "GET " + s.URL + "/console/api/v2/applications", "waiting for the answer"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: the message lacks %q: %v", read.name, want, err)
				}
			}
			checkClean(t, err)
			if n := s.requests.Load() - requests; n != 1 {
				t.Errorf("%s: the server got %d requests, want 1: a timeout is never repeated", read.name, n)
			}
			if read.streamed && seen != 1 {
				t.Errorf("%s: the visitor saw %d cards before the stall, want 1", read.name, seen)
			}
		}
	})
}

// listReads are the two ways an answer is read: whole (List), and as it
// arrives (ListEach); list gives the cards a streamed read's visitor saw.
var listReads = []struct {
	name     string
	streamed bool
	list     func(ctx context.Context, cl *platform.Client) (int, error)
}{
	{"whole", false, func(ctx context.Context, cl *platform.Client) (int, error) {
		_, err := cl.ListApps(ctx)
		return 0, err
	}},
	{"as it arrives", true, func(ctx context.Context, cl *platform.Client) (int, error) {
		seen := 0
		err := cl.ListEach(ctx, platform.Request{Path: "/applications"}, func() { seen = 0 },
			func(string, *jsonx.RawObject) error { seen++; return nil }, "applications")
		return seen, err
	}},
}

func TestHungServerCostsOneTimeoutForAGET(t *testing.T) {
	bothSchemes(t, func(t *testing.T, useTLS bool) {
		var s *slowServer
		s = startSlowServer(t, useTLS, func(w http.ResponseWriter, r *http.Request) { s.hang(r) })
		cl := slowClient(t, s, testTimeout)
		start := time.Now()
		// The token request went first on the same connection: the GET
		// runs on a reused keep-alive connection, where net/http itself
		// would repeat a GET whose answer never came.
		_, err := cl.ListApps(context.Background())
		elapsed := time.Since(start)
		if !platform.IsTimeout(err) {
			t.Fatalf("want a timeout, got %v", err)
		}
		checkClean(t, err)
		if n := s.requests.Load(); n != 1 {
			t.Fatalf("the server got %d requests, want 1", n)
		}
		// A repetition would cost at least a pause of 1 s and a second
		// timeout.
		if elapsed > 1200*time.Millisecond {
			t.Errorf("failed after %v, want about one timeout of %v", elapsed, testTimeout)
		}
	})
}

func TestUploadLongerThanTheTimeoutThatKeepsFlowingSucceeds(t *testing.T) {
	bothSchemes(t, func(t *testing.T, useTLS bool) {
		// The body is much larger than what the client's socket buffer can
		// hold, and the server reads its first half slowly: the client's
		// writes go out over a time well above the timeout, each waiting
		// only a few milliseconds.
		const size, slowPart, piece = 16 << 20, 8 << 20, 64 << 10
		var got atomic.Int64
		var readFor atomic.Int64
		s := startSlowServer(t, useTLS, func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			buf := make([]byte, piece)
			n := int64(0)
			for {
				m, err := io.ReadFull(r.Body, buf)
				n += int64(m)
				if err != nil {
					break
				}
				if n < slowPart {
					time.Sleep(5 * time.Millisecond)
				}
			}
			got.Store(n)
			readFor.Store(int64(time.Since(start)))
			fmt.Fprintf(w, `{"id": "build-1", "size": %d}`, n)
		})
		cl := slowClient(t, s, testTimeout)
		body := make([]byte, size)
		for i := range body {
			body[i] = byte(i)
		}
		v, err := cl.Call(context.Background(), platform.Request{Method: http.MethodPost, Path: "/projects/p/assemblies", Raw: body})
		if err != nil {
			t.Fatalf("an upload that keeps flowing failed (the server read for %v): %v", time.Duration(readFor.Load()), err)
		}
		if o, _ := v.(*jsonx.Object); o == nil || o.Str("id") != "build-1" {
			t.Fatalf("answer %v", v)
		}
		if got.Load() != size {
			t.Fatalf("the server read %d bytes of %d", got.Load(), size)
		}
		if d := time.Duration(readFor.Load()); d < 2*testTimeout {
			t.Fatalf("the upload took %v, not longer than the timeout: the test proves nothing", d)
		}
	})
}

func TestIdlePooledConnectionOlderThanTheTimeoutServesTheNextRequest(t *testing.T) {
	bothSchemes(t, func(t *testing.T, useTLS bool) {
		s := startSlowServer(t, useTLS, func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `[]`)
		})
		const timeout = 200 * time.Millisecond
		cl := slowClient(t, s, timeout)
		ctx := context.Background()
		if _, err := cl.ListApps(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * timeout)
		if _, err := cl.ListApps(ctx); err != nil {
			t.Fatalf("a request after an idle time of 3 timeouts: %v", err)
		}
		// Back in the pool a connection has no deadline: it is reused, not
		// dropped by a timeout of the transport's background read.
		if n := s.conns.Load(); n != 1 {
			t.Errorf("%d connections for 3 requests, want 1 (the idle one reused)", n)
		}
	})
}

func TestCancellationAbortsPromptly(t *testing.T) {
	for _, c := range []struct {
		name string
		call func(ctx context.Context, cl *platform.Client) error
		// begun: the answer's first card comes before the server hangs
		begun bool
	}{
		{"waiting for the answer", func(ctx context.Context, cl *platform.Client) error {
			_, err := cl.ListApps(ctx)
			return err
		}, false},
		{"while a list is read as it arrives", func(ctx context.Context, cl *platform.Client) error {
			_, err := listReads[1].list(ctx, cl)
			return err
		}, true},
		{"while uploading", func(ctx context.Context, cl *platform.Client) error {
			_, err := cl.Call(ctx, platform.Request{Method: http.MethodPost, Path: "/projects/p/assemblies", Raw: make([]byte, 32<<20)})
			return err
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s *slowServer
			s = startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				if c.begun {
					w.Write([]byte(`[{"id": "a"},`))
					w.(http.Flusher).Flush()
				}
				s.hang(r)
			})
			cl := slowClient(t, s, time.Minute)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			start := time.Now()
			err := c.call(ctx, cl)
			if err == nil || platform.IsTimeout(err) {
				t.Fatalf("want a cancellation, got %v", err)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("the error does not say it was cancelled: %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("cancellation took %v", d)
			}
			if n := s.requests.Load(); n != 1 {
				t.Errorf("the server got %d requests, want 1", n)
			}
		})
	}
}

func TestStalledTLSHandshakeTimesOutWhileConnecting(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	// A TCP server that accepts and reads, but never answers the TLS
	// ClientHello.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	cfg := &platform.Config{BaseURL: "https://" + ln.Addr().String(), ClientID: "client", ClientSecret: testSecret,
		TLSVerify: true, NoProxy: true, Timeout: testTimeout}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	start := time.Now()
	_, err = cl.ListApps(ctx)
	elapsed := time.Since(start)
	if !platform.IsTimeout(err) {
		t.Fatalf("want a timeout, got %v", err)
	}
	if !strings.Contains(err.Error(), "while connecting") || !strings.Contains(err.Error(), "POST https://"+ln.Addr().String()+"/console/sys/token") {
		t.Errorf("message: %v", err)
	}
	checkClean(t, err)
	if elapsed < testTimeout || elapsed > 3*time.Second {
		t.Errorf("failed after %v, want about one timeout of %v", elapsed, testTimeout)
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

// A connection the server drops is still worth one more GET: a reset is
// repeated, while an answer that never comes is not (see
// TestHungServerCostsOneTimeoutForAGET).
func TestGETIsRepeatedAfterTheServerResetsTheConnection(t *testing.T) {
	ctx := context.Background()
	var n atomic.Int32
	s := startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%2 == 1 {
			// Reset the connection without an answer.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0)
				}
				conn.Close()
			}
			return
		}
		fmt.Fprint(w, `[]`)
	})
	// Each request on a connection of its own: net/http repeats nothing
	// on a fresh connection, so what is repeated is repeated by the client.
	s.Config.SetKeepAlivesEnabled(false)
	cfg := &platform.Config{BaseURL: s.URL, ClientID: "client", ClientSecret: testSecret,
		TLSVerify: true, NoProxy: true, Timeout: testTimeout}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-", ReadRetryPauses: []time.Duration{time.Millisecond, time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := cl.ListApps(ctx); err != nil {
		t.Fatalf("a GET after a reset connection: %v", err)
	}
	if got := s.requests.Load(); got != 2 {
		t.Errorf("the server got %d requests, want 2 (reset, then answered)", got)
	}
	// Without the client's pauses the reset is final: the repetition
	// above was the client's, not net/http's.
	_, err = cl.Call(ctx, platform.Request{Method: http.MethodGet, Path: "/applications", ReadRetries: []time.Duration{}})
	if !platform.IsTransport(err) || platform.IsTimeout(err) {
		t.Fatalf("want a network error that is no timeout, got %v", err)
	}
	if got := s.requests.Load(); got != 3 {
		t.Errorf("the server got %d requests, want 3", got)
	}
}
