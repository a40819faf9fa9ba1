package dist

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/elemctl/elemctl/internal/testio"
)

// linuxHost skips where the Linux packages cannot run.
func linuxHost(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("installs the Linux packages")
	}
}

// userEnv is the environment installed binaries run in: no plugins, a
// self-update feed that cannot be reached (a managed copy must be refused
// before any download), a home of the test's own.
func userEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "USERPROFILE="+home, "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_LANG=en",
		"ELEMCTL_UPDATE_URL=http://127.0.0.1:1/releases", "ELEMCTL_DATA_DIR="+filepath.Join(home, "elemctl"))
	return append(env, extra...)
}

// run runs a command of the user's and returns its standard output.
func run(t *testing.T, env []string, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = env, dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String()
}

// wantVersion runs an installed elemctl (any command line that ends in
// it) with --version.
func wantVersion(t *testing.T, env []string, dir string, cmdline ...string) {
	t.Helper()
	got := run(t, env, dir, cmdline[0], append(cmdline[1:], "--version")...)
	if got != "elemctl "+testVersion+"\n" {
		t.Fatalf("%v --version: %q", cmdline, got)
	}
}

// wantMCPInitialize starts `<cmdline> mcp` and exchanges an MCP initialize
// over its standard input and output, as an agent does.
func wantMCPInitialize(t *testing.T, env []string, dir string, cmdline ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmdline[0], append(cmdline[1:], "mcp")...)
	cmd.Env, cmd.Dir = env, dir
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"packaging-test","version":"1"}}}`+"\n")
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	stdin.Close()
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = werr
	}
	if err != nil {
		t.Fatalf("%v mcp: %v\n%s", cmdline, err, errOut.String())
	}
	var answer struct {
		ID     int
		Result struct {
			ServerInfo struct{ Name, Version string }
		}
	}
	if err := json.Unmarshal(line, &answer); err != nil || answer.ID != 1 ||
		answer.Result.ServerInfo.Name != "elemctl" || answer.Result.ServerInfo.Version != testVersion {
		t.Fatalf("%v mcp answered %s (%v)", cmdline, line, err)
	}
}

// wantSelfUpdateRefused runs self-update on an installed copy: it must be
// refused, name the command, and leave the binary as it was.
func wantSelfUpdateRefused(t *testing.T, env []string, dir, exe, command string, cmdline ...string) {
	t.Helper()
	before := readFile(t, exe)
	cmd := exec.Command(cmdline[0], append(cmdline[1:], "self-update")...)
	cmd.Env, cmd.Dir = env, dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("self-update of %s: %v\n%s", exe, err, out)
	}
	var answer struct{ Error string }
	if json.Unmarshal(out, &answer) != nil || !strings.Contains(answer.Error, "which also updates it: "+command+" – ") {
		t.Fatalf("self-update of %s does not name %q:\n%s", exe, command, out)
	}
	if !bytes.Equal(readFile(t, exe), before) {
		t.Fatalf("self-update changed %s", exe)
	}
}

// TestWheelsAreWellFormed opens every platform's wheel: the binary as the
// script, RECORD's hashes and sizes, the tags of WHEEL against the file
// name, METADATA with the README.
func TestWheelsAreWellFormed(t *testing.T) {
	dir := sharedRelease(t)
	readme := readFile(t, filepath.Join(moduleDir(t), "README.md"))
	for _, target := range Targets {
		name, err := WheelName(target, testVersion)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(target.String(), func(t *testing.T) {
			data := readFile(t, filepath.Join(dir, name))
			zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			var order []string
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(rc)
				rc.Close()
				files[f.Name] = b
				order = append(order, f.Name)
				if strings.Contains(f.Name, ".data/scripts/") && f.Mode().Perm() != 0o755 {
					t.Errorf("%s: mode %v, want 0755", f.Name, f.Mode())
				}
			}
			info := "elemctl-" + testVersion + ".dist-info/"
			script := "elemctl-" + testVersion + ".data/scripts/" + target.BinaryName()
			want := standInBinary(target)
			if target == Host() {
				want = hostBinary(t)
			}
			if !bytes.Equal(files[script], want) {
				t.Errorf("%s is not the release's binary", script)
			}
			if order[len(order)-1] != info+"RECORD" {
				t.Errorf("RECORD is not the last entry: %v", order)
			}
			records := strings.Split(strings.TrimSpace(string(files[info+"RECORD"])), "\n")
			if len(records) != len(files) {
				t.Errorf("RECORD has %d lines for %d files", len(records), len(files))
			}
			for _, line := range records {
				parts := strings.Split(line, ",")
				if len(parts) != 3 {
					t.Fatalf("RECORD line %q", line)
				}
				if parts[0] == info+"RECORD" {
					if parts[1] != "" || parts[2] != "" {
						t.Errorf("RECORD's own line %q", line)
					}
					continue
				}
				b, ok := files[parts[0]]
				sum := sha256.Sum256(b)
				if !ok || parts[1] != "sha256="+base64.RawURLEncoding.EncodeToString(sum[:]) || parts[2] != strconv.Itoa(len(b)) {
					t.Errorf("RECORD line %q does not match the file", line)
				}
			}
			wheel := string(files[info+"WHEEL"])
			tags := strings.TrimSuffix(strings.SplitN(name, "-py3-none-", 2)[1], ".whl")
			for _, tag := range strings.Split(tags, ".") {
				if !strings.Contains(wheel, "Tag: py3-none-"+tag+"\n") {
					t.Errorf("WHEEL has no tag %s:\n%s", tag, wheel)
				}
			}
			if !strings.Contains(wheel, "Root-Is-Purelib: false\n") {
				t.Errorf("WHEEL:\n%s", wheel)
			}
			meta := string(files[info+"METADATA"])
			head, body, _ := strings.Cut(meta, "\n\n")
			for _, field := range []string{"Metadata-Version: 2.1", "Name: elemctl", "Version: " + testVersion, "License: MIT", "Description-Content-Type: text/markdown"} {
				if !strings.Contains(head+"\n", field+"\n") {
					t.Errorf("METADATA lacks %q", field)
				}
			}
			if body != string(readme) {
				t.Errorf("METADATA's description is not the README")
			}
		})
	}
}

// TestWheelInstallsWithPip installs the release as Python users do, from
// files and with no index: pip picks this machine's wheel out of the
// release's, puts elemctl beside python, and it answers --version and an
// MCP initialize; self-update leaves that copy to pip.
func TestWheelInstallsWithPip(t *testing.T) {
	dir := sharedRelease(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	venv := filepath.Join(t.TempDir(), "venv")
	env := userEnv(t, "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_CACHE_DIR=1", "PYTHONDONTWRITEBYTECODE=1")
	if out, err := exec.Command(python, "-m", "venv", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v\n%s", err, out)
	}
	bin := filepath.Join(venv, "bin")
	if runtime.GOOS == "windows" {
		bin = filepath.Join(venv, "Scripts")
	}
	vpython := filepath.Join(bin, "python")
	run(t, env, t.TempDir(), vpython, "-m", "pip", "install", "--no-index", "--find-links", dir, "elemctl=="+testVersion)
	exe := filepath.Join(bin, Host().BinaryName())
	wantVersion(t, env, t.TempDir(), exe)
	wantMCPInitialize(t, env, t.TempDir(), exe)
	wantSelfUpdateRefused(t, env, t.TempDir(), exe, vpython+" -m pip install --upgrade elemctl", exe)

	// pip show knows it, and pip uninstall removes the binary.
	if out := run(t, env, t.TempDir(), vpython, "-m", "pip", "show", "elemctl"); !strings.Contains(out, "Version: "+testVersion) {
		t.Fatalf("pip show: %s", out)
	}
	run(t, env, t.TempDir(), vpython, "-m", "pip", "uninstall", "-y", "elemctl")
	if _, err := os.Stat(exe); !os.IsNotExist(err) {
		t.Fatalf("pip uninstall left %s: %v", exe, err)
	}
}

// TestNPMPackages checks every platform package's os and cpu and the main
// package's optional dependencies, then installs the release's tarballs
// into a project offline as npm does and runs `npx elemctl`.
func TestNPMPackages(t *testing.T) {
	dir := sharedRelease(t)
	main, err := tarGzFiles(releaseFile(t, NPMTarballName("elemctl", testVersion)))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Name, Version        string
		Bin                  map[string]string
		OptionalDependencies map[string]string
	}
	if err := json.Unmarshal(main["package/package.json"].data, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "elemctl" || pkg.Version != testVersion || pkg.Bin["elemctl"] != "bin/elemctl.js" || len(pkg.OptionalDependencies) != len(Targets) {
		t.Fatalf("package.json %+v", pkg)
	}
	if main["package/bin/elemctl.js"].mode != 0o755 {
		t.Errorf("the launcher is not executable")
	}
	for _, target := range Targets {
		name := NPMPlatformPackage(target)
		if pkg.OptionalDependencies[name] != testVersion {
			t.Errorf("optionalDependencies[%s] = %q", name, pkg.OptionalDependencies[name])
		}
		files, err := tarGzFiles(releaseFile(t, NPMTarballName(name, testVersion)))
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Name, Version string
			OS, CPU       []string
			Bin           any
		}
		if err := json.Unmarshal(files["package/package.json"].data, &p); err != nil {
			t.Fatal(err)
		}
		wantOS, wantCPU, _ := strings.Cut(npmPlatform(target), "-")
		if p.Name != name || p.Version != testVersion || !slices.Equal(p.OS, []string{wantOS}) || !slices.Equal(p.CPU, []string{wantCPU}) || p.Bin != nil {
			t.Errorf("%s: package.json %+v", name, p)
		}
		if f := files["package/bin/"+target.BinaryName()]; f.mode != 0o755 || len(f.data) == 0 {
			t.Errorf("%s: no executable bin/%s", name, target.BinaryName())
		}
	}

	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("no npm")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("no npx")
	}
	project := filepath.Join(t.TempDir(), "agent project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name": "agent-project", "version": "1.0.0", "private": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := userEnv(t, "npm_config_cache="+filepath.Join(t.TempDir(), "npm-cache"), "npm_config_update_notifier=false",
		"npm_config_audit=false", "npm_config_fund=false", "npm_config_offline=true")
	run(t, env, project, npm, "install",
		filepath.Join(dir, NPMTarballName("elemctl", testVersion)),
		filepath.Join(dir, NPMTarballName(NPMPlatformPackage(Host()), testVersion)))
	wantVersion(t, env, project, npx, "elemctl")
	wantMCPInitialize(t, env, project, npx, "elemctl")
	exe := filepath.Join(project, "node_modules", "@elemctl", npmPlatform(Host()), "bin", Host().BinaryName())
	wantSelfUpdateRefused(t, env, project, exe, `npm install --prefix "`+project+`" elemctl@latest`, npx, "elemctl")
}

// TestLinuxPackages unpacks every .deb and .rpm as dpkg and rpm would
// (ar, tar and cpio read in Go), checks their fields, and runs this
// machine's binary from them; self-update leaves it to the package
// manager.
func TestLinuxPackages(t *testing.T) {
	dir := sharedRelease(t)
	for _, arch := range []string{"amd64", "arm64"} {
		target := Target{"linux", arch}
		want := standInBinary(target)
		if target == Host() {
			want = hostBinary(t)
		}
		t.Run("deb "+arch, func(t *testing.T) {
			members, err := debMembers(releaseFile(t, DebName(arch)))
			if err != nil {
				t.Fatal(err)
			}
			if string(members["debian-binary"]) != "2.0\n" {
				t.Errorf("debian-binary %q", members["debian-binary"])
			}
			control, err := tarGzFiles(members["control.tar.gz"])
			if err != nil {
				t.Fatal(err)
			}
			for _, field := range []string{"Package: elemctl", "Version: " + testVersion + "-1", "Architecture: " + arch, "Homepage: " + Homepage} {
				if !strings.Contains(string(control["control"].data), field+"\n") {
					t.Errorf("control lacks %q:\n%s", field, control["control"].data)
				}
			}
			files, err := tarGzFiles(members["data.tar.gz"])
			if err != nil {
				t.Fatal(err)
			}
			checkLinuxPackageFiles(t, files, want, "deb", "usr/share/doc/elemctl/copyright")
			if target == Host() {
				runUnpacked(t, files, "deb", "curl -fsSLO "+Homepage+"/releases/latest/download/"+DebName(arch)+" && sudo apt install ./"+DebName(arch))
				if dpkg, err := exec.LookPath("dpkg-deb"); err == nil {
					if got := run(t, os.Environ(), t.TempDir(), dpkg, "-f", filepath.Join(dir, DebName(arch)), "Version"); got != testVersion+"-1\n" {
						t.Errorf("dpkg-deb -f Version: %q", got)
					}
				}
			}
		})
		t.Run("rpm "+arch, func(t *testing.T) {
			pkg, err := readRPM(releaseFile(t, RPMName(arch)))
			if err != nil {
				t.Fatal(err)
			}
			rpmArch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[arch]
			if pkg.tags[1000] != "elemctl" || pkg.tags[1001] != testVersion || pkg.tags[1002] != "1" || pkg.tags[1022] != rpmArch {
				t.Errorf("name %q version %q release %q arch %q", pkg.tags[1000], pkg.tags[1001], pkg.tags[1002], pkg.tags[1022])
			}
			checkLinuxPackageFiles(t, pkg.files, want, "rpm", "usr/share/licenses/elemctl/LICENSE")
			if target == Host() {
				runUnpacked(t, pkg.files, "rpm", "curl -fsSLO "+Homepage+"/releases/latest/download/"+RPMName(arch)+" && sudo rpm -U ./"+RPMName(arch))
			}
		})
	}
}

func checkLinuxPackageFiles(t *testing.T, files map[string]unpackedFile, binary []byte, manager, license string) {
	t.Helper()
	if f := files["usr/bin/elemctl"]; f.mode != 0o755 || !bytes.Equal(f.data, binary) {
		t.Errorf("usr/bin/elemctl: mode %v, the release's binary: %v", f.mode, bytes.Equal(f.data, binary))
	}
	if f := files["usr/share/elemctl/package-manager"]; string(f.data) != manager+"\n" {
		t.Errorf("the package-manager marker says %q", f.data)
	}
	if f := files[license]; !strings.Contains(string(f.data), "MIT License") {
		t.Errorf("no licence at %s", license)
	}
	if _, ok := files["usr/share/doc/elemctl/README.md"]; !ok {
		t.Errorf("no README")
	}
}

// runUnpacked writes a package's files under a root of their own and runs
// its binary there.
func runUnpacked(t *testing.T, files map[string]unpackedFile, manager, command string) {
	t.Helper()
	linuxHost(t)
	root := t.TempDir()
	if err := writeTree(root, files); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(root, "usr", "bin", "elemctl")
	env := userEnv(t)
	wantVersion(t, env, t.TempDir(), exe)
	wantMCPInitialize(t, env, t.TempDir(), exe)
	wantSelfUpdateRefused(t, env, t.TempDir(), exe, command, exe)
}

// TestScoopManifest: the bucket file names each Windows archive of the
// release with its SHA-256, the binary to shim, and how to find the next.
func TestScoopManifest(t *testing.T) {
	var m struct {
		Version, Description, Homepage, License, Bin string
		Architecture                                 map[string]struct{ URL, Hash string }
		Checkver                                     struct{ GitHub string }
		Autoupdate                                   struct {
			Architecture map[string]struct{ URL string }
			Hash         struct{ URL string }
		}
	}
	if err := json.Unmarshal(releaseFile(t, "scoop/elemctl.json"), &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != testVersion || m.License != "MIT" || m.Bin != "elemctl.exe" || m.Homepage != Homepage || m.Checkver.GitHub != Homepage {
		t.Errorf("manifest %+v", m)
	}
	for scoop, goarch := range map[string]string{"64bit": "amd64", "arm64": "arm64"} {
		archive := ArchiveName("windows", goarch)
		a := m.Architecture[scoop]
		if a.URL != Homepage+"/releases/download/v"+testVersion+"/"+archive || a.Hash != sha256Hex(releaseFile(t, archive)) {
			t.Errorf("%s: %+v", scoop, a)
		}
		if !strings.Contains(string(releaseFile(t, SumsName)), a.Hash+"  "+archive+"\n") {
			t.Errorf("%s: the hash is not SHA256SUMS's", scoop)
		}
		if got := m.Autoupdate.Architecture[scoop].URL; got != Homepage+"/releases/download/v$version/"+archive {
			t.Errorf("autoupdate %s: %s", scoop, got)
		}
		if files := listArchive(t, "windows", releaseFile(t, archive)); !slices.ContainsFunc(files, func(e entry) bool { return e.name == m.Bin }) {
			t.Errorf("%s holds no %s", archive, m.Bin)
		}
	}
	if m.Autoupdate.Hash.URL != "$baseurl/SHA256SUMS" {
		t.Errorf("autoupdate hash %s", m.Autoupdate.Hash.URL)
	}
}

// TestWingetManifests: the three files winget-pkgs takes, in their folder,
// with the fields its 1.6.0 schema requires, and each installer's address
// and SHA-256 those of a Windows archive that holds the portable command.
func TestWingetManifests(t *testing.T) {
	folder := "winget/" + WingetDir(testVersion) + "/"
	if WingetDir(testVersion) != "manifests/e/Elemctl/Elemctl/"+testVersion {
		t.Fatalf("folder %s", WingetDir(testVersion))
	}
	load := func(name string) map[string]any {
		var m map[string]any
		if err := yaml.Unmarshal(releaseFile(t, folder+name), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m["PackageIdentifier"] != WingetID || m["PackageVersion"] != testVersion || m["ManifestVersion"] != "1.6.0" {
			t.Errorf("%s: %v", name, m)
		}
		return m
	}
	version := load(WingetID + ".yaml")
	if version["ManifestType"] != "version" || version["DefaultLocale"] != "en-US" {
		t.Errorf("version manifest %v", version)
	}
	locale := load(WingetID + ".locale.en-US.yaml")
	for _, field := range []string{"Publisher", "PackageName", "License", "ShortDescription"} {
		if s, _ := locale[field].(string); s == "" {
			t.Errorf("the locale manifest has no %s", field)
		}
	}
	if locale["ManifestType"] != "defaultLocale" || locale["PackageLocale"] != "en-US" {
		t.Errorf("locale manifest %v", locale)
	}
	inst := load(WingetID + ".installer.yaml")
	if inst["ManifestType"] != "installer" || inst["InstallerType"] != "zip" || inst["NestedInstallerType"] != "portable" || inst["MinimumOSVersion"] != "10.0.10240.0" {
		t.Errorf("installer manifest %v", inst)
	}
	nested := inst["NestedInstallerFiles"].([]any)[0].(map[string]any)
	if nested["RelativeFilePath"] != "elemctl.exe" || nested["PortableCommandAlias"] != "elemctl" {
		t.Errorf("nested installer %v", nested)
	}
	upperHex := regexp.MustCompile(`^[0-9A-F]{64}$`)
	installers := inst["Installers"].([]any)
	if len(installers) != 2 {
		t.Fatalf("installers %v", installers)
	}
	for _, i := range installers {
		m := i.(map[string]any)
		goarch := map[any]string{"x64": "amd64", "arm64": "arm64"}[m["Architecture"]]
		archive := ArchiveName("windows", goarch)
		data := releaseFile(t, archive)
		sum, _ := m["InstallerSha256"].(string)
		if m["InstallerUrl"] != ReleaseURL(testVersion, archive) || !upperHex.MatchString(sum) || !strings.EqualFold(sum, sha256Hex(data)) {
			t.Errorf("installer %v", m)
		}
		if files := listArchive(t, "windows", data); !slices.ContainsFunc(files, func(e entry) bool { return e.name == "elemctl.exe" }) {
			t.Errorf("%s holds no elemctl.exe", archive)
		}
	}
}

// TestHomebrewFormula: each platform's address and SHA-256 are those of
// its archive; the formula is valid Ruby (ruby -c where Ruby exists, else
// its blocks balance), installs the binary and marks it Homebrew's.
func TestHomebrewFormula(t *testing.T) {
	formula := string(releaseFile(t, "homebrew/elemctl.rb"))
	for _, target := range Targets {
		if target.GOOS == "windows" {
			continue
		}
		archive := target.ArchiveName()
		pair := "url \"" + ReleaseURL(testVersion, archive) + "\"\n      sha256 \"" + sha256Hex(releaseFile(t, archive)) + "\""
		if !strings.Contains(formula, pair) {
			t.Errorf("the formula has no url and sha256 of %s", archive)
		}
	}
	for _, want := range []string{"class Elemctl < Formula\n", `version "` + testVersion + `"`, `license "MIT"`, `bin.install "elemctl"`,
		`(share/"elemctl/package-manager").write "homebrew\n"`, "depends_on macos: :monterey", `shell_output("#{bin}/elemctl --version")`} {
		if !strings.Contains(formula, want) {
			t.Errorf("the formula lacks %q", want)
		}
	}
	if !strings.HasSuffix(PackageManagerMarker, "share/elemctl/package-manager") {
		t.Errorf("the formula's marker is not where self-update looks: %s", PackageManagerMarker)
	}
	if ruby, err := exec.LookPath("ruby"); err == nil {
		path := filepath.Join(sharedRelease(t), "homebrew", "elemctl.rb")
		if out := run(t, os.Environ(), t.TempDir(), ruby, "-c", path); !strings.Contains(out, "Syntax OK") {
			t.Errorf("ruby -c: %s", out)
		}
		return
	}
	// No Ruby here: the blocks must balance.
	opens, ends := 0, 0
	for _, line := range strings.Split(formula, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#") || line == "":
		case line == "end":
			ends++
		case strings.HasPrefix(line, "class ") || strings.HasPrefix(line, "def ") || strings.HasSuffix(line, " do"):
			opens++
		}
	}
	if opens != ends || opens < 4 {
		t.Errorf("%d blocks opened, %d ended", opens, ends)
	}
}

// TestContainerDefinition checks the MCP server's image without building
// it (no image builder here): a distroless static base, a numeric non-root
// user, the binary as the entry point and `mcp --http` with the token from
// a secret file as the command, nothing secret in it, and the binary it
// copies present in the build context make dist wrote. Then it runs that
// command line with the context's binary, the secret files elsewhere.
func TestContainerDefinition(t *testing.T) {
	dir := sharedRelease(t)
	text := string(releaseFile(t, "container/Dockerfile"))
	var from, user, copyLine string
	var entrypoint, command []string
	for _, line := range strings.Split(text, "\n") {
		word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch word {
		case "FROM":
			from = rest
		case "USER":
			user = rest
		case "COPY", "ADD":
			copyLine = rest
			if strings.Contains(rest, ".env") || strings.Contains(rest, "token") || strings.Contains(rest, "secret") {
				t.Errorf("the image copies a secret: %s", line)
			}
		case "ENTRYPOINT":
			json.Unmarshal([]byte(rest), &entrypoint)
		case "CMD":
			json.Unmarshal([]byte(rest), &command)
		case "ENV", "ARG", "LABEL":
			if regexp.MustCompile(`(?i)(secret|token|password)\S*=`).MatchString(rest) {
				t.Errorf("a secret is set in the image: %s", line)
			}
		}
	}
	if from != "gcr.io/distroless/static-debian12:nonroot" {
		t.Errorf("FROM %s", from)
	}
	uid, gid, _ := strings.Cut(user, ":")
	if !regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(uid) || !regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(gid) {
		t.Errorf("USER %q is not a numeric non-root user", user)
	}
	src, dst, _ := strings.Cut(copyLine, " ")
	if dst != "/usr/local/bin/elemctl" || !slices.Equal(entrypoint, []string{dst}) {
		t.Errorf("COPY %s, ENTRYPOINT %v", copyLine, entrypoint)
	}
	for _, arch := range []string{"amd64", "arm64"} {
		bin := filepath.Join(dir, "container", filepath.FromSlash(strings.ReplaceAll(src, "${TARGETARCH}", arch)))
		st, err := os.Stat(bin)
		if err != nil || st.Mode().Perm() != 0o755 {
			t.Errorf("the context has no executable %s: %v", bin, err)
		}
	}
	i := slices.Index(command, "mcp")
	if i < 0 || !slices.Contains(command[i:], "--http") || !slices.Contains(command[i:], "--token-file") {
		t.Fatalf("CMD %v", command)
	}

	// The command line, with the secret files in a folder of the test's.
	linuxHost(t)
	secrets := t.TempDir()
	if err := os.WriteFile(filepath.Join(secrets, "elemctl.env"), []byte("ELEMENT_BASE_URL=https://stand.example\nELEMENT_CLIENT_ID=ci\nELEMENT_CLIENT_SECRET=s3cr3t-of-the-stand\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	const token = "container-test-token-0123456789abcdef"
	if err := os.WriteFile(filepath.Join(secrets, "elemctl-mcp-token"), []byte(token+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	args := slices.Clone(command)
	for j, a := range args {
		args[j] = strings.Replace(a, "/run/secrets", secrets, 1)
		if a == "0.0.0.0:7700" {
			args[j] = "127.0.0.1:0"
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "container", "linux-"+runtime.GOARCH, "elemctl"), args...)
	cmd.Env, cmd.Dir = userEnv(t), t.TempDir()
	stdout, _ := cmd.StdoutPipe()
	// Read while the server runs.
	var errOut testio.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// The server's first answer says where it listens and where its token
	// came from.
	var answer map[string]any
	if err := json.NewDecoder(stdout).Decode(&answer); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the image's command did not start: %v\n%s", err, errOut.String())
	}
	printed, _ := json.Marshal(answer)
	if answer["token-source"] != "file" || !strings.HasPrefix(answer["url"].(string), "http://127.0.0.1:") ||
		strings.Contains(string(printed)+errOut.String(), token) {
		t.Fatalf("the server answered %v\n%s", answer, errOut.String())
	}
}
