package dist

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestVSIXPackages opens the packages internal/dist/e2e/run.sh made with
// make editors and make editors-platforms (linux-x64, win32-x64): each
// platform package carries its platform's elemctl, executable, and says
// its platform; the universal one carries none. Without the packages (a
// plain go test) it is skipped: packaging needs the npm registry.
func TestVSIXPackages(t *testing.T) {
	dir := os.Getenv("ELEMCTL_VSIX_DIR")
	if dir == "" {
		t.Skip("ELEMCTL_VSIX_DIR is not set: run internal/dist/e2e/run.sh")
	}
	want := os.Getenv("ELEMCTL_VSIX_BINARY_VERSION")
	find := func(suffix string) string {
		matches, _ := filepath.Glob(filepath.Join(dir, "elemctl-vscode-*"+suffix))
		if len(matches) != 1 {
			t.Fatalf("packages *%s: %v", suffix, matches)
		}
		return matches[0]
	}
	platforms := []struct{ vscode, binary string }{{"linux-x64", "elemctl"}, {"win32-x64", "elemctl.exe"}}
	for _, p := range platforms {
		files := openVSIX(t, find("-"+p.vscode+".vsix"))
		if !strings.Contains(string(files["extension.vsixmanifest"].data), `TargetPlatform="`+p.vscode+`"`) {
			t.Errorf("%s: the manifest names no target platform", p.vscode)
		}
		bin, ok := files["extension/bin/"+p.binary]
		if !ok {
			t.Fatalf("%s: no extension/bin/%s", p.vscode, p.binary)
		}
		if p.binary == "elemctl" && bin.mode.Perm()&0o111 == 0 {
			t.Errorf("%s: bin/elemctl is not executable (%v)", p.vscode, bin.mode)
		}
		if p.binary == "elemctl.exe" && !bytes.HasPrefix(bin.data, []byte("MZ")) {
			t.Errorf("%s: bin/elemctl.exe is no Windows program", p.vscode)
		}
		if lic := files["extension/LICENSE.txt"].data; !strings.Contains(string(lic), "MIT License") {
			t.Errorf("%s: no MIT licence in the package", p.vscode)
		}
		if p.vscode == "linux-x64" && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
			exe := filepath.Join(t.TempDir(), "elemctl")
			if err := os.WriteFile(exe, bin.data, 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(exe, "--version").Output()
			if err != nil || string(out) != "elemctl "+want+"\n" {
				t.Errorf("the bundled elemctl --version: %q %v, want %s", out, err, want)
			}
		}
	}
	all, _ := filepath.Glob(filepath.Join(dir, "elemctl-vscode-*.vsix"))
	var universalPath string
	for _, path := range all {
		if !strings.HasSuffix(path, "-linux-x64.vsix") && !strings.HasSuffix(path, "-win32-x64.vsix") {
			universalPath = path
		}
	}
	if universalPath == "" {
		t.Fatalf("no universal package among %v", all)
	}
	universal := openVSIX(t, universalPath)
	for name := range universal {
		if strings.HasPrefix(name, "extension/bin/") {
			t.Errorf("the universal package carries %s", name)
		}
	}
	if strings.Contains(string(universal["extension.vsixmanifest"].data), "TargetPlatform") {
		t.Error("the universal package names a platform")
	}
}

type vsixFile struct {
	mode os.FileMode
	data []byte
}

func openVSIX(t *testing.T, path string) map[string]vsixFile {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]vsixFile{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = vsixFile{mode: f.Mode(), data: data}
	}
	return out
}

// TestPublishRefusesWithoutTokens: make editors-publish needs a token per
// registry and says which are missing before anything is published.
func TestPublishRefusesWithoutTokens(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, c := range []struct {
		publishTo string
		missing   []string
	}{
		{"", []string{"VSCE_PAT", "OVSX_PAT"}},
		{"openvsx", []string{"OVSX_PAT"}},
	} {
		cmd := exec.Command("bash", filepath.Join(moduleDir(t), "scripts", "editors-publish.sh"))
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "VSCE_PAT=") && !strings.HasPrefix(kv, "OVSX_PAT=") && !strings.HasPrefix(kv, "PUBLISH_TO=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		// The other registry's token is there: only the missing one counts.
		cmd.Env = append(cmd.Env, "PUBLISH_TO="+c.publishTo, "VSCE_PAT=token-of-the-marketplace")
		if c.publishTo == "" {
			cmd.Env = cmd.Env[:len(cmd.Env)-1]
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("PUBLISH_TO=%q: %v, want exit 1\n%s", c.publishTo, err, stderr.String())
		}
		msg := stderr.String()
		if !strings.Contains(msg, "refused, nothing was published") {
			t.Errorf("PUBLISH_TO=%q: %s", c.publishTo, msg)
		}
		for _, name := range c.missing {
			if !strings.Contains(msg, name) {
				t.Errorf("PUBLISH_TO=%q: %s is not named: %s", c.publishTo, name, msg)
			}
		}
		if c.publishTo == "openvsx" && strings.Contains(msg, "VSCE_PAT") {
			t.Errorf("a token that is there is reported missing: %s", msg)
		}
	}
}
