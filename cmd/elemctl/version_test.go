package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMakefileVersionIsTheEmbeddedOne: make build and make dist stamp the
// version the Makefile finds (a git tag vX.Y.Z, else cmd/elemctl/VERSION);
// a binary built without make reports the number embedded from VERSION.
// The two must agree, so a tagged release is the same number either way.
func TestMakefileVersionIsTheEmbeddedOne(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(releaseVersion) {
		t.Fatalf("cmd/elemctl/VERSION holds %q, not a version such as 1.2.3", releaseVersion)
	}
	cmd := exec.Command("make", "-s", "print-version")
	cmd.Dir = "../.."
	// A VERSION of the environment would override the Makefile's own.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VERSION=") && !strings.HasPrefix(kv, "MAKEFLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make print-version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != releaseVersion {
		t.Fatalf("make builds version %q, but cmd/elemctl/VERSION says %q: bump VERSION to the tag's number", got, releaseVersion)
	}
}

func TestVersionWithoutLinkerValueIsTheEmbeddedNumber(t *testing.T) {
	saved := version
	defer func() { version = saved }()
	version = ""
	// A test binary has no module version, so the embedded number shows.
	if got := versionText(); got != releaseVersion {
		t.Fatalf("versionText() = %q, want %q", got, releaseVersion)
	}
	version = "7.7.7"
	if got := versionLine(); got != "elemctl 7.7.7\n" {
		t.Fatalf("versionLine() = %q", got)
	}
}
