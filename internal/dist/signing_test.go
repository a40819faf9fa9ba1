package dist

import (
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/releasekey"
)

// TestSigningKeyFromEnvRefuses: make dist signs only with a key elemctl
// trusts, and says what to set when there is none.
func TestSigningKeyFromEnvRefuses(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := SigningKeyFromEnv(env(nil)); err == nil || !strings.Contains(err.Error(), SigningKeyVariable) || !strings.Contains(err.Error(), "make dist-unsigned") {
		t.Fatalf("no key: %v", err)
	}
	secret, _, err := GenerateSigningKey("")
	if err != nil {
		t.Fatal(err)
	}
	key, _ := releasekey.LoadPrivateKey(secret, "")
	_, err = SigningKeyFromEnv(env(map[string]string{SigningKeyVariable: string(secret)}))
	if err == nil || !strings.Contains(err.Error(), "the signing key "+releasekey.KeyID(key.ID())+" is not one elemctl trusts") {
		t.Fatalf("a foreign key: %v", err)
	}
	if _, err := SigningKeyFromEnv(env(map[string]string{SigningKeyVariable: "untrusted comment: x\nnot a key\n"})); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("a damaged key: %v", err)
	}
	if _, err := SigningKeyFromEnv(env(map[string]string{SigningKeyFileVariable: "/nonexistent/elemctl.key"})); err == nil {
		t.Fatal("a missing key file was taken")
	}
}
