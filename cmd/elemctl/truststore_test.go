package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A stand reached over HTTPS with no ELEMENT_CA_FILE is checked against
// the system's trust store, as a public cloud is: trusted when its
// certificate is in the store, refused when it is not. (The store loads
// while the connection is made; the verification waits for it.) The store
// is given through SSL_CERT_FILE and SSL_CERT_DIR, which Go reads on Linux
// and the BSDs only.
func TestHTTPSStandIsCheckedAgainstTheSystemTrustStore(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the system's trust store is the platform's verifier here, not files a test can set")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	ca, envFile := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "demo.env")
	info, _ := startStandProcess(t, bin, "--seed", "demo", "--tls-ca", ca, "--write-env", envFile)
	base := info["base-url"].(string)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("the stand with --tls-ca serves %s", base)
	}
	// The .env as a public cloud's: no CA file of its own.
	text, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(line, "ELEMENT_CA_FILE=") {
			kept = append(kept, line)
		}
	}
	publicEnv := filepath.Join(dir, "public.env")
	if err := os.WriteFile(publicEnv, []byte(strings.Join(kept, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	standCA, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	other := unrelatedCA(t)
	otherCA := filepath.Join(dir, "other.pem")
	if err := os.WriteFile(otherCA, other, 0o644); err != nil {
		t.Fatal(err)
	}
	withStand := filepath.Join(dir, "with-stand.pem")
	if err := os.WriteFile(withStand, append(other, standCA...), 0o644); err != nil {
		t.Fatal(err)
	}
	noDirs := t.TempDir()
	run := func(store string) (string, error) {
		cmd := exec.Command(bin, "--env-file", publicEnv, "--lang", "en", "spaces", "list")
		cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+filepath.Join(dir, "data"), "TMPDIR="+dir,
			"SSL_CERT_FILE="+store, "SSL_CERT_DIR="+noDirs)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run(withStand)
	if err != nil || !strings.Contains(out, info["space-id"].(string)) {
		t.Fatalf("with the stand's certificate in the system's store: %v\n%s", err, out)
	}
	out, err = run(otherCA)
	if err == nil {
		t.Fatalf("a stand whose certificate is in no store was trusted:\n%s", out)
	}
	if !strings.Contains(out, "certificate") {
		t.Errorf("the refusal does not say it is the certificate:\n%s", out)
	}
	if secret := info["client-secret"].(string); strings.Contains(out, secret) {
		t.Errorf("the client secret is in the output:\n%s", out)
	}
}

// unrelatedCA is a CA certificate, in PEM, that signed nothing the stand
// serves.
func unrelatedCA(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "unrelated test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
