package dist

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoInstallAtVersion proves `go install
// github.com/elemctl/elemctl/cmd/elemctl@vX.Y.Z` works without the
// network: this module's files (what `git` would publish under a tag) are
// served as version v1.99.0 (a number VERSION does not hold; a v2 would
// need the module path .../v2) by a module proxy on disk, the dependencies by
// the local module cache (itself in the proxy layout), and the go command
// installs the command from there as any user's would. go install with a
// version refuses a module whose go.mod has replace or exclude
// directives, and the installed binary must report the module version.
func TestGoInstallAtVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds elemctl from a module proxy")
	}
	root := moduleDir(t)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	modCache := goEnv(t, "GOMODCACHE")
	const module, version = "github.com/elemctl/elemctl", "v1.99.0"

	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("list", []byte(version+"\n"))
	write(version+".info", []byte(`{"Version":"`+version+`","Time":"2026-01-01T00:00:00Z"}`))
	write(version+".mod", gomod)
	write(version+".zip", moduleZip(t, root, module+"@"+version))

	gobin := t.TempDir()
	cmd := exec.Command(goCmd, "install", module+"/cmd/elemctl@"+version)
	cmd.Dir = t.TempDir() // outside any module
	cmd.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modCache, "cache", "download")),
		// -modcacherw, so the test can remove the module cache;
		// -trimpath, so the build cache keys the dependencies by module
		// and version rather than by this new module cache's folder: the
		// build reuses what make build compiled instead of compiling every
		// dependency again.
		"GOSUMDB=off", "GOFLAGS=-modcacherw -trimpath",
		"GOTOOLCHAIN=local", "GOWORK=off",
		"GOMODCACHE="+t.TempDir(), "GOBIN="+gobin, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "file://"+filepath.ToSlash(modCache)) {
			// A dependency this machine's module cache never downloaded:
			// the test needs the network it avoids.
			t.Skipf("a dependency is missing from the local module cache:\n%s", out)
		}
		t.Fatalf("go install %s/cmd/elemctl@%s: %v\n%s", module, version, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, BinaryName(Host().GOOS)), "--version").Output()
	if err != nil || string(out) != "elemctl 1.99.0\n" {
		t.Fatalf("the installed elemctl --version: %q %v", out, err)
	}
}

// moduleZip packs the module's files as a module proxy serves them: every
// file git would publish (tracked, or new and not ignored), under
// "<module>@<version>/".
func moduleZip(t *testing.T, root, prefix string) []byte {
	t.Helper()
	ls := exec.Command("git", "ls-files", "-co", "--exclude-standard")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a checkout)", err)
	}
	var buf strings.Builder
	zw := zip.NewWriter(&buf)
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			continue // deleted in the work tree
		}
		w, err := zw.Create(prefix + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return []byte(buf.String())
}

func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
