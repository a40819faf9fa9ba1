package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// roundTrips are the network round trips the HTTPS figure is taken at: a
// stand on the same machine, and a cloud near and far.
var roundTrips = []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond}

// BenchmarkHTTPSCommand: `spaces list` – the start, the configuration,
// the cached token and one small GET – against a stand that speaks HTTPS,
// at network round trips of 0, 20 and 50 ms, beside the same command over
// plain HTTP at the same round trip. The stand's certificate is trusted
// as a public cloud's is, through the system's trust store: the system's
// bundle with the stand's certificate added (SSL_CERT_FILE), the system's
// certificate directories as they are. Every command that verifies a
// server loads that store once; on Linux that is parsing each certificate
// of the bundle and of the directories.
//
// The stands:
//
//	elemctl stand --seed demo --tls-ca ca.pem --latency 20ms
//	elemctl stand --seed demo --latency 20ms
//
// Figures, per round trip:
//
//	ms          the median wall time over HTTPS (before-ms: the earlier
//	            binary's, interleaved)
//	http-ms     the same command over plain HTTP (before-http-ms)
//	https-extra-ms  ms − http-ms: what HTTPS costs the command
//	trust-ms    the median time a Go program takes to load the same
//	            trust store, and nothing else (measured inside it): what
//	            the handshake's verification waits for
//	trust-certs the certificates of the bundle (the directories hold about
//	            as many again on Debian)
//
// The round trip delays the stand's part of the TLS handshake and each
// answer; the TCP handshake is not delayed (the figures err on the fast
// side for both binaries alike).
func BenchmarkHTTPSCommand(b *testing.B) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		b.Skip("the system's trust store is the platform's verifier there, not files SSL_CERT_FILE can extend")
	}
	system := systemBundle()
	if system == "" {
		b.Skip("no system certificate bundle found: the figure is of loading one")
	}
	for _, rtt := range roundTrips {
		b.Run(fmt.Sprintf("rtt=%v", rtt), func(b *testing.B) {
			dir := b.TempDir()
			ca := filepath.Join(dir, "ca.pem")
			latency := []string{"--latency", rtt.String()}
			secure := benchStand(b, append([]string{"--seed", "demo", "--tls-ca", ca}, latency...)...)
			plain := benchStand(b, append([]string{"--seed", "demo"}, latency...)...)
			bundle := filepath.Join(dir, "bundle.pem")
			certs := writeBundle(b, bundle, system, ca)
			trustEnv := append(os.Environ(), "SSL_CERT_FILE="+bundle)
			secureEnv := append(standEnv(b, secure), "SSL_CERT_FILE="+bundle)
			plainEnv := standEnv(b, plain)
			cs := clients(b)
			for _, c := range cs {
				// The token into the cache, the page cache warm.
				runMeasured(b, c.path, secureEnv, "spaces", "list")
				runMeasured(b, c.path, plainEnv, "spaces", "list")
			}
			trust := helperBinary(b, "trust", trustSource)
			secureMS := make([][]float64, len(cs))
			plainMS := make([][]float64, len(cs))
			var trustMS []float64
			// b.Loop runs the benchmark function once: the stands are not
			// set up again for a ramp-up.
			for round := 0; b.Loop(); round++ {
				for _, k := range inTurn(round, len(cs)) {
					c := cs[k]
					secureMS[k] = append(secureMS[k], runMeasured(b, c.path, secureEnv, "spaces", "list").ms())
					plainMS[k] = append(plainMS[k], runMeasured(b, c.path, plainEnv, "spaces", "list").ms())
				}
				load := exec.Command(trust)
				load.Env = trustEnv
				out, err := load.Output()
				if err != nil {
					b.Fatalf("loading the trust store: %v\n%s", err, out)
				}
				var ns int64
				if _, err := fmt.Sscan(string(out), &ns); err != nil {
					b.Fatalf("the trust program printed %q", out)
				}
				trustMS = append(trustMS, float64(ns)/1e6)
			}
			for k, c := range cs {
				ms, httpMS := median(secureMS[k]), median(plainMS[k])
				b.ReportMetric(ms, c.prefix+"ms")
				b.ReportMetric(httpMS, c.prefix+"http-ms")
				b.ReportMetric(ms-httpMS, c.prefix+"https-extra-ms")
			}
			b.ReportMetric(median(trustMS), "trust-ms")
			b.ReportMetric(float64(certs), "trust-certs")
			b.ReportMetric(float64(rtt)/float64(time.Millisecond), "rtt-ms")
		})
	}
}

// trustSource loads the system's trust store as a verification does, and
// prints how long that took, in nanoseconds.
const trustSource = `package main

import (
	"crypto/x509"
	"fmt"
	"time"
)

func main() {
	start := time.Now()
	if _, err := x509.SystemCertPool(); err != nil {
		panic(err)
	}
	fmt.Println(time.Since(start).Nanoseconds())
}
`

// systemBundle is the system's certificate bundle: SSL_CERT_FILE when set,
// else the first of the usual places that exists ("" for none).
func systemBundle() string {
	if f := os.Getenv("SSL_CERT_FILE"); f != "" {
		return f
	}
	for _, f := range []string{
		"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Alpine
		"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL
		"/etc/ssl/ca-bundle.pem",                            // openSUSE
		"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
		"/etc/ssl/cert.pem",                                 // Alpine, BSDs
	} {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return ""
}

// writeBundle writes the system's bundle with the stand's certificate added
// to path, and returns how many certificates it holds.
func writeBundle(b testing.TB, path, system, standCA string) int {
	b.Helper()
	sys, err := os.ReadFile(system)
	if err != nil {
		b.Fatal(err)
	}
	own, err := os.ReadFile(standCA)
	if err != nil {
		b.Fatalf("the stand's certificate: %v", err)
	}
	all := append(append(sys, '\n'), own...)
	if err := os.WriteFile(path, all, 0o644); err != nil {
		b.Fatal(err)
	}
	return strings.Count(string(all), "-----BEGIN CERTIFICATE-----")
}
