package stand_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// trustingClient is an HTTPS client whose only trusted CA is caPEM (none
// when nil); it opens a connection per request, so each pays a handshake.
func trustingClient(t *testing.T, caPEM []byte) *http.Client {
	t.Helper()
	pool := x509.NewCertPool()
	if caPEM != nil && !pool.AppendCertsFromPEM(caPEM) {
		t.Fatalf("no certificate in the CA PEM:\n%s", caPEM)
	}
	return &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
			DisableKeepAlives: true},
	}
}

// tokenOver asks the stand's token endpoint through hc.
func tokenOver(t *testing.T, hc *http.Client, s *stand.Stand) (string, error) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL()+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(s.ClientID(), s.ClientSecret())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var m map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != 200 || m["id_token"] == "" {
		t.Fatalf("token over HTTPS: HTTP %d %v %v", resp.StatusCode, m, err)
	}
	return m["id_token"], nil
}

// getOver sends an authorised GET of the Console API through hc and
// answers the status.
func getOver(t *testing.T, hc *http.Client, s *stand.Stand, tok, path string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/console/api"+path, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

func TestTLSStandServesWhoTrustsItsCertificate(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{TLS: true})
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") {
		t.Fatalf("a TLS stand serves %s", s.URL())
	}
	caPEM := s.CACertPEM()
	hc := trustingClient(t, caPEM)
	tok, err := tokenOver(t, hc, s)
	if err != nil {
		t.Fatalf("a client trusting the stand's certificate: %v", err)
	}
	if code := getOver(t, hc, s, tok, "/v2/spaces"); code != 200 {
		t.Fatalf("GET /v2/spaces over HTTPS: HTTP %d", code)
	}

	// A client that trusts nothing: the stand's certificate is no known authority.
	_, err = tokenOver(t, trustingClient(t, nil), s)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("a client trusting nothing: %v, want an unknown authority", err)
	}

	// The certificate: ECDSA P-256, its own CA, for serving, on loopback, for ten years.
	block, _ := pem.Decode(caPEM)
	if block == nil || block.Type != "CERTIFICATE" {
		t.Fatalf("CACertPEM is no certificate:\n%s", caPEM)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if key, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok || key.Curve != elliptic.P256() {
		t.Errorf("the key is %T, want ECDSA P-256", cert.PublicKey)
	}
	if !cert.IsCA || !cert.BasicConstraintsValid || cert.KeyUsage != x509.KeyUsageDigitalSignature|x509.KeyUsageCertSign ||
		len(cert.ExtKeyUsage) != 1 || cert.ExtKeyUsage[0] != x509.ExtKeyUsageServerAuth {
		t.Errorf("IsCA %v, constraints %v, key usage %v, ext key usage %v", cert.IsCA, cert.BasicConstraintsValid, cert.KeyUsage, cert.ExtKeyUsage)
	}
	if err := cert.CheckSignatureFrom(cert); err != nil {
		t.Errorf("not self-signed: %v", err)
	}
	for _, host := range []string{"127.0.0.1", "::1", "localhost"} {
		if err := cert.VerifyHostname(host); err != nil {
			t.Errorf("the certificate does not cover %s: %v", host, err)
		}
	}
	now := time.Now()
	if cert.NotBefore.After(now.Add(-59*time.Minute)) || cert.NotAfter.Before(now.AddDate(10, 0, -3)) {
		t.Errorf("valid from %v to %v, want from an hour ago for ten years", cert.NotBefore, cert.NotAfter)
	}

	// Plain HTTP to the HTTPS port is no answer of the platform.
	if resp, err := http.Get(strings.Replace(s.URL(), "https://", "http://", 1) + "/console/ui/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("the HTTPS stand answered plain HTTP")
		}
	}
}

func TestStandWithoutTLSHasNoCertificate(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{})
	if !strings.HasPrefix(s.URL(), "http://") || s.CACertPEM() != nil {
		t.Fatalf("a stand without TLS: %s, CA %q", s.URL(), s.CACertPEM())
	}
}

// A restarted stand keeps its certificate in the state file, so a CA file
// written for the first start trusts the second; the key goes nowhere else.
func TestTLSStandKeepsItsCertificateInTheStateFile(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "stand.json")
	var log bytes.Buffer
	first, err := stand.New(stand.Options{TLS: true, StateFile: state, Speed: standtest.DefaultSpeed, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	caPEM := first.CACertPEM()
	if _, err := tokenOver(t, trustingClient(t, caPEM), first); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second := standtest.Start(t, stand.Options{TLS: true, StateFile: state})
	if !bytes.Equal(second.CACertPEM(), caPEM) {
		t.Fatalf("the restarted stand has another certificate:\n%s\nwas\n%s", second.CACertPEM(), caPEM)
	}
	hc := trustingClient(t, caPEM)
	tok, err := tokenOver(t, hc, second)
	if err != nil {
		t.Fatalf("the first start's CA and the restarted stand: %v", err)
	}
	if code := getOver(t, hc, second, tok, "/v2/applications"); code != 200 {
		t.Fatalf("GET /v2/applications: HTTP %d", code)
	}

	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "PRIVATE KEY") {
		t.Error("the state file does not keep the key")
	}
	if strings.Contains(log.String(), "PRIVATE KEY") || strings.Contains(log.String(), "CERTIFICATE") {
		t.Errorf("the request log carries the certificate or its key:\n%s", log.String())
	}
}

// A stand told to listen on a host its certificate does not cover makes
// one that does, and keeps covering what the old one did.
func TestTLSStandCoversTheHostItListensOn(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("127.0.0.2 is a loopback address on Linux only")
	}
	state := filepath.Join(t.TempDir(), "stand.json")
	first, err := stand.New(stand.Options{TLS: true, StateFile: state})
	if err != nil {
		t.Fatal(err)
	}
	before := first.CACertPEM()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := stand.New(stand.Options{TLS: true, StateFile: state, Speed: standtest.DefaultSpeed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	base, err := s.Listen("127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "https://127.0.0.2:") {
		t.Fatalf("base %s", base)
	}
	after := s.CACertPEM()
	if bytes.Equal(after, before) {
		t.Fatal("the certificate for loopback names was kept for 127.0.0.2")
	}
	if _, err := tokenOver(t, trustingClient(t, after), s); err != nil {
		t.Fatalf("HTTPS to 127.0.0.2: %v", err)
	}
	block, _ := pem.Decode(after)
	cert, _ := x509.ParseCertificate(block.Bytes)
	for _, host := range []string{"127.0.0.1", "::1", "localhost", "127.0.0.2"} {
		if err := cert.VerifyHostname(host); err != nil {
			t.Errorf("the new certificate does not cover %s: %v", host, err)
		}
	}
}

func TestLatencyHoldsEveryAnswer(t *testing.T) {
	t.Parallel()
	const latency = 150 * time.Millisecond
	s, c := start(t, stand.Options{Latency: latency})
	if _, err := s.SeedDemo(); err != nil {
		t.Fatal(err)
	}
	app := s.Snapshot().Apps[0]
	for _, tc := range []struct {
		name string
		want int
		req  func() *http.Request
	}{
		{"the token", 200, func() *http.Request {
			req, _ := http.NewRequest("POST", c.base+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
			req.SetBasicAuth(s.ClientID(), s.ClientSecret())
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return req
		}},
		{"an API GET", 200, func() *http.Request { return c.request("GET", "/v2/spaces", nil) }},
		{"the console root", 302, func() *http.Request { req, _ := http.NewRequest("GET", c.base+"/console", nil); return req }},
		{"an application's address", 401, func() *http.Request {
			req, _ := http.NewRequest("GET", c.base+"/applications/"+app.PublicationContext, nil)
			return req
		}},
	} {
		req := tc.req()
		sent := time.Now()
		status, _ := c.send(req)
		if took := time.Since(sent); took < latency {
			t.Errorf("%s: answered (HTTP %d) after %v, before the round trip of %v", tc.name, status, took, latency)
		}
		if status != tc.want {
			t.Errorf("%s: HTTP %d, want %d", tc.name, status, tc.want)
		}
	}
}

// Over TLS the handshake waits a round trip too: a request on a new
// connection takes at least two.
func TestLatencyHoldsTheTLSHandshake(t *testing.T) {
	t.Parallel()
	const latency = 150 * time.Millisecond
	s := standtest.Start(t, stand.Options{TLS: true, Latency: latency})
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CACertPEM())
	dialed := time.Now()
	conn, err := tls.Dial("tcp", strings.TrimPrefix(s.URL(), "https://"), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if took := time.Since(dialed); took < latency {
		t.Errorf("the handshake took %v, less than the round trip of %v", took, latency)
	}
	sent := time.Now()
	if _, err := tokenOver(t, trustingClient(t, s.CACertPEM()), s); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(sent); took < 2*latency {
		t.Errorf("a request on a new connection took %v, less than a handshake and an answer (%v)", took, 2*latency)
	}
}

// Close does not wait out the round trip of a request it holds, and the
// request ends.
func TestLatencyDoesNotHoldClose(t *testing.T) {
	t.Parallel()
	s, err := stand.New(stand.Options{Latency: time.Minute, Speed: standtest.DefaultSpeed})
	if err != nil {
		t.Fatal(err)
	}
	base, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() {
		resp, err := http.Get(base + "/console/ui/")
		if err == nil {
			resp.Body.Close()
			err = errors.New("answered: " + resp.Status)
		}
		ended <- err
	}()
	time.Sleep(200 * time.Millisecond) // the request is held by now, mostly
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for the round trip of a held request")
	}
	select {
	case err := <-ended:
		t.Logf("the held request ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the held request goes on after Close")
	}
}

// A request whose client goes away during the round trip never reaches
// the platform.
func TestLatencyEndsWhenTheClientGoesAway(t *testing.T) {
	t.Parallel()
	const latency = 500 * time.Millisecond
	s, c := start(t, stand.Options{Latency: latency})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req := c.request("GET", "/v2/applications", nil).WithContext(ctx)
	if resp, err := c.plain.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("answered within 100 ms at a round trip of %v", latency)
	}
	time.Sleep(2 * latency)
	for _, call := range s.Calls() {
		if call.Path == "/console/api/v2/applications" {
			t.Fatalf("the platform served a request whose client had gone: %+v", call)
		}
	}
}

// The control endpoint is the tester's, not the platform's: no round trip.
func TestLatencyLeavesTheControlEndpoint(t *testing.T) {
	t.Parallel()
	s := standtest.Start(t, stand.Options{Latency: time.Minute})
	req, _ := http.NewRequest("GET", s.URL()+"/stand/faults", nil)
	req.SetBasicAuth(s.ClientID(), s.ClientSecret())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("GET /stand/faults at a round trip of a minute: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /stand/faults: HTTP %d", resp.StatusCode)
	}
}
