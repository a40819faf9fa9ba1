package dist

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/releasekey"
)

// moduleDir is the root of this module, seen from the package directory.
func moduleDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

var fixedTime = time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)

// TestReleaseIsReproducible compares the shared release with the second
// one mkdist made beside it, from a binary built a second time: the same
// files, modes and bytes. It checks SHA256SUMS and its signature, the
// archive of this machine, and installs it the way docs/install.md says.
func TestReleaseIsReproducible(t *testing.T) {
	first := sharedRelease(t)
	second := secondRelease(t)
	a, b := releaseTree(t, first), releaseTree(t, second.dir)
	if len(a) != len(b) {
		t.Errorf("the second build wrote %d files, the first %d", len(b), len(a))
	}
	for name, mode := range a {
		other, ok := b[name]
		switch {
		case !ok:
			t.Errorf("%s is missing from the second build", name)
		case mode != other:
			t.Errorf("%s: mode %v in the first build, %v in the second", name, mode, other)
		case !bytes.Equal(readFile(t, filepath.Join(first, filepath.FromSlash(name))), readFile(t, filepath.Join(second.dir, filepath.FromSlash(name)))):
			t.Errorf("%s differs between two builds", name)
		}
	}
	// mkdist's last line counts the files it wrote, and says it signed.
	if want := fmt.Sprintf("%d files in %s, SHA256SUMS signed\n", len(a), second.dir); !strings.HasSuffix(string(second.output), want) {
		t.Errorf("mkdist printed %q, want it to end in %q", second.output, want)
	}

	// SHA256SUMS lists every asset at the top of the release, nothing else.
	sums := string(releaseFile(t, SumsName))
	entries, _ := os.ReadDir(first)
	listed := 0
	for _, e := range entries {
		if e.IsDir() || e.Name() == SumsName || e.Name() == releasekey.SignatureName {
			continue
		}
		sum := sha256.Sum256(releaseFile(t, e.Name()))
		if !strings.Contains(sums, hex.EncodeToString(sum[:])+"  "+e.Name()+"\n") {
			t.Errorf("SHA256SUMS has no right line for %s", e.Name())
		}
		listed++
	}
	// An archive, a wheel and an npm package per platform, the npm package
	// elemctl, a .deb and an .rpm per Linux platform.
	want := 3*len(Targets) + 1 + 2*2
	if lines := strings.Count(sums, "\n"); lines != listed || listed != want {
		t.Errorf("SHA256SUMS has %d lines for %d assets (want %d)", lines, listed, want)
	}
	if err := releasekey.Verify([]minisign.PublicKey{testPub}, []byte(sums), releaseFile(t, releasekey.SignatureName), testVersion); err != nil {
		t.Errorf("SHA256SUMS.minisig: %v", err)
	}

	archive := releaseFile(t, Host().ArchiveName())
	list := listArchive(t, Host().GOOS, archive)
	wantNames := []string{"LICENSE", "README.md", Host().BinaryName()}
	if len(list) != len(wantNames) {
		t.Fatalf("entries %v, want %v", list, wantNames)
	}
	for i, e := range list {
		if e.name != wantNames[i] || !e.mtime.Equal(fixedTime) {
			t.Errorf("entry %d: %s at %s, want %s at %s", i, e.name, e.mtime, wantNames[i], fixedTime)
		}
		wantMode := os.FileMode(0o644)
		if e.name == Host().BinaryName() {
			wantMode = 0o755
		}
		if e.mode != wantMode {
			t.Errorf("%s: mode %v, want %v", e.name, e.mode, wantMode)
		}
	}
	if got, want := string(list[0].data), string(readFile(t, filepath.Join(moduleDir(t), "LICENSE"))); got != want || !strings.Contains(got, "MIT License") {
		t.Errorf("LICENSE in the archive is not the module's MIT licence")
	}
	if !bytes.Equal(list[2].data, hostBinary(t)) {
		t.Errorf("%s in the archive is not the binary mkdist packed", list[2].name)
	}

	t.Run("install lines", func(t *testing.T) { tryInstallLines(t, filepath.Join(first, Host().ArchiveName())) })
}

// TestMkdistRefusesMissingBinaries: mkdist -binaries checks every
// platform's binary is there before it writes anything, and names the
// missing ones.
func TestMkdistRefusesMissingBinaries(t *testing.T) {
	sharedRelease(t)
	binaries := t.TempDir()
	host := Host().BinaryPath(binaries)
	if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(host, standInBinary(Host()), 0o755); err != nil {
		t.Fatal(err)
	}
	other := Target{"windows", "arm64"}
	if Host() == other {
		other = Target{"linux", "amd64"}
	}
	out := filepath.Join(t.TempDir(), "release")
	cmd := exec.Command(shared.mkdist, "-version", testVersion, "-out", out, "-unsigned", "-binaries", binaries,
		"-targets", Host().String()+","+other.String())
	cmd.Dir = moduleDir(t)
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("mkdist with a binary missing: %v\n%s", err, msg)
	}
	if !strings.Contains(string(msg), other.BinaryPath(binaries)) || strings.Contains(string(msg), host) {
		t.Errorf("mkdist does not name just the missing binary: %s", msg)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("mkdist wrote %s before refusing: %v", out, err)
	}
}

// tryInstallLines installs elemctl from a release archive with the
// commands of docs/install.md and asks the installed binary its version.
func tryInstallLines(t *testing.T, archive string) {
	bin := t.TempDir()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		// docs/install.md, Windows: Expand-Archive into a folder that is
		// then put on PATH.
		cmd = exec.Command("powershell", "-NoProfile", "-NonInteractive", "-Command",
			"Expand-Archive -Force -Path '"+archive+"' -DestinationPath '"+bin+"'")
	} else {
		// docs/install.md, Linux and macOS: only the binary, into a
		// directory on PATH.
		cmd = exec.Command("tar", "-xzf", archive, "-C", bin, "elemctl")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	// The shell finds it on PATH, as it will for the user.
	var run *exec.Cmd
	if runtime.GOOS == "windows" {
		run = exec.Command("powershell", "-NoProfile", "-NonInteractive", "-Command",
			"$env:Path = '"+bin+";' + $env:Path; elemctl --version")
	} else {
		run = exec.Command("sh", "-c", `PATH="$1:$PATH"; elemctl --version`, "sh", bin)
	}
	out, err := run.Output()
	if err != nil {
		t.Fatalf("the installed elemctl --version: %v", err)
	}
	if string(out) != "elemctl 9.8.7\n" {
		t.Fatalf("the installed elemctl says %q", out)
	}
}

func TestPackSortsAndFixesEveryField(t *testing.T) {
	files := []File{
		{Name: "elemctl.exe", Mode: 0o755, Data: bytes.Repeat([]byte("MZ"), 5000)},
		{Name: "README.md", Mode: 0o644, Data: []byte("# elemctl\n")},
		{Name: "LICENSE", Mode: 0o600 | os.ModeSetuid, Data: []byte("MIT\n")},
	}
	for _, goos := range []string{"windows", "linux"} {
		var a, b bytes.Buffer
		if err := Pack(&a, goos, files, fixedTime); err != nil {
			t.Fatal(err)
		}
		// The same moment in another zone: the archive must not change.
		if err := Pack(&b, goos, files, fixedTime.In(time.FixedZone("MSK", 3*3600))); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: two packs of the same files differ", goos)
		}
		entries := listArchive(t, goos, a.Bytes())
		var names []string
		for _, e := range entries {
			names = append(names, e.name)
			if !e.mtime.Equal(fixedTime) {
				t.Errorf("%s %s: mtime %s", goos, e.name, e.mtime)
			}
		}
		if strings.Join(names, ",") != "LICENSE,README.md,elemctl.exe" {
			t.Errorf("%s: entries %v, want name order", goos, names)
		}
		if entries[0].mode != 0o600 {
			t.Errorf("%s: LICENSE mode %v: only permission bits belong in a release", goos, entries[0].mode)
		}
		if !bytes.Equal(entries[2].data, files[0].Data) {
			t.Errorf("%s: the binary changed in the archive", goos)
		}
	}
}

func TestSumsFormat(t *testing.T) {
	got := string(Sums(map[string][]byte{"b.zip": []byte("b"), "a.tar.gz": []byte("a")}))
	want := "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  a.tar.gz\n" +
		"3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.zip\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestEntryTime(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return v
			}
			return ""
		}
	}
	got, err := EntryTime(t.TempDir(), env("1767225600"))
	if err != nil || !got.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("SOURCE_DATE_EPOCH: %v %v", got, err)
	}
	for _, bad := range []string{"12abc", "100"} {
		if _, err := EntryTime(t.TempDir(), env(bad)); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
			t.Errorf("SOURCE_DATE_EPOCH=%s: %v", bad, err)
		}
	}
	// Outside a repository and without the variable: the fixed default.
	if got, err := EntryTime(t.TempDir(), env("")); err != nil || !got.Equal(DefaultTime) {
		t.Fatalf("no repository: %v %v", got, err)
	}
}

func TestNames(t *testing.T) {
	cases := map[Target][2]string{
		{"linux", "amd64"}:   {"elemctl-linux-amd64.tar.gz", "elemctl"},
		{"darwin", "arm64"}:  {"elemctl-darwin-arm64.tar.gz", "elemctl"},
		{"windows", "arm64"}: {"elemctl-windows-arm64.zip", "elemctl.exe"},
	}
	for target, want := range cases {
		if target.ArchiveName() != want[0] || target.BinaryName() != want[1] {
			t.Errorf("%s: %s %s", target, target.ArchiveName(), target.BinaryName())
		}
	}
	if _, err := ParseTarget("linux"); err == nil {
		t.Error("ParseTarget took a target without an architecture")
	}
	if got, err := ParseTarget("windows/arm64"); err != nil || got != (Target{"windows", "arm64"}) {
		t.Errorf("ParseTarget: %v %v", got, err)
	}
}

type entry struct {
	name  string
	mode  os.FileMode
	mtime time.Time
	data  []byte
}

func listArchive(t *testing.T, goos string, archive []byte) []entry {
	t.Helper()
	var out []entry
	if goos == "windows" {
		zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			out = append(out, entry{name: f.Name, mode: f.Mode(), mtime: f.Modified.UTC(), data: data})
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	if !gz.ModTime.IsZero() || gz.Name != "" {
		t.Errorf("gzip header has a time %v or a name %q", gz.ModTime, gz.Name)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || h.Typeflag != tar.TypeReg {
			t.Errorf("%s: owner %d/%d %q/%q type %c", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.Typeflag)
		}
		data, _ := io.ReadAll(tr)
		out = append(out, entry{name: h.Name, mode: os.FileMode(h.Mode), mtime: h.ModTime.UTC(), data: data})
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
