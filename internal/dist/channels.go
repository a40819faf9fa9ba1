package dist

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// ReleaseURL is where a release's file is downloaded from.
func ReleaseURL(version, asset string) string {
	return Homepage + "/releases/download/v" + version + "/" + asset
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// WingetID is elemctl's package identifier in the Windows Package Manager.
const WingetID = "Elemctl.Elemctl"

// ScoopManifest is the Scoop manifest (bucket file elemctl.json) of the
// Windows archives given (name → bytes): their addresses and SHA-256, the
// binary to shim, and how Scoop's autoupdate finds the next release.
func ScoopManifest(version string, archives map[string][]byte) ([]byte, error) {
	arch := jsonx.New()
	auto := jsonx.New()
	for _, a := range []struct{ scoop, goarch string }{{"64bit", "amd64"}, {"arm64", "arm64"}} {
		name := ArchiveName("windows", a.goarch)
		data, ok := archives[name]
		if !ok {
			continue
		}
		arch.Set(a.scoop, jsonx.New("url", ReleaseURL(version, name), "hash", sha256Hex(data)))
		auto.Set(a.scoop, jsonx.New("url", Homepage+"/releases/download/v$version/"+name))
	}
	if arch.Len() == 0 {
		return nil, fmt.Errorf("dist: a Scoop manifest needs a Windows archive")
	}
	m := jsonx.New(
		"version", version,
		"description", Summary,
		"homepage", Homepage,
		"license", "MIT",
		"architecture", arch,
		"bin", "elemctl.exe",
		"checkver", jsonx.New("github", Homepage),
		"autoupdate", jsonx.New("architecture", auto, "hash", jsonx.New("url", "$baseurl/"+SumsName)),
	)
	return jsonx.Marshal(m)
}

// templateFile renders a template of packaging/.
func templateFile(moduleDir, name string, data any) ([]byte, error) {
	text, err := os.ReadFile(filepath.Join(moduleDir, "packaging", filepath.FromSlash(name)))
	if err != nil {
		return nil, fmt.Errorf("dist: the template %s: %w", name, err)
	}
	tmpl, err := template.New(name).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("dist: the template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("dist: the template %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// WingetDir is the folder of a version's manifests in the winget-pkgs
// repository.
func WingetDir(version string) string {
	return "manifests/e/Elemctl/Elemctl/" + version
}

// WingetManifests are the three files winget-pkgs takes for a version
// (version, installer, default locale), named by their path under
// WingetDir: the Windows zip archives as portable installs whose command
// is elemctl.
func WingetManifests(moduleDir, version string, archives map[string][]byte, released time.Time) (map[string][]byte, error) {
	type installer struct{ Arch, URL, SHA256 string }
	var installers []installer
	for _, a := range []struct{ winget, goarch string }{{"x64", "amd64"}, {"arm64", "arm64"}} {
		name := ArchiveName("windows", a.goarch)
		if data, ok := archives[name]; ok {
			installers = append(installers, installer{a.winget, ReleaseURL(version, name), strings.ToUpper(sha256Hex(data))})
		}
	}
	if len(installers) == 0 {
		return nil, fmt.Errorf("dist: winget manifests need a Windows archive")
	}
	data := map[string]any{
		"ID": WingetID, "Version": version, "Homepage": Homepage, "Summary": Summary,
		"ReleaseDate": released.UTC().Format("2006-01-02"), "Installers": installers,
	}
	out := map[string][]byte{}
	for _, kind := range []string{"", ".installer", ".locale.en-US"} {
		name := WingetID + kind + ".yaml"
		text, err := templateFile(moduleDir, "winget/"+name+".tmpl", data)
		if err != nil {
			return nil, err
		}
		out[name] = text
	}
	return out, nil
}

// HomebrewFormula is the formula of the macOS and Linux archives given.
func HomebrewFormula(moduleDir, version string, archives map[string][]byte) ([]byte, error) {
	type asset struct{ URL, SHA256 string }
	assets := map[string]*asset{}
	for _, t := range Targets {
		if t.GOOS == "windows" {
			continue
		}
		if data, ok := archives[t.ArchiveName()]; ok {
			assets[t.GOOS+"-"+t.GOARCH] = &asset{ReleaseURL(version, t.ArchiveName()), sha256Hex(data)}
		} else {
			assets[t.GOOS+"-"+t.GOARCH] = nil
		}
	}
	return templateFile(moduleDir, "homebrew/elemctl.rb.tmpl", map[string]any{
		"Version": version, "Homepage": Homepage, "Assets": assets,
	})
}

// DebName and RPMName are the file names of a Linux target's packages.
// Like the archives' names they carry no version, so the newest release's
// package is always at releases/latest/download/<name>.
func DebName(goarch string) string { return "elemctl-linux-" + goarch + ".deb" }

func RPMName(goarch string) string { return "elemctl-linux-" + goarch + ".rpm" }

// PackageManagerMarker is the file, relative to the binary's folder, by
// which a package (deb, rpm, Homebrew) tells `elemctl self-update` that it
// owns the binary; it holds the package manager's name.
const PackageManagerMarker = "../share/elemctl/package-manager"

// nfpmOptions describe one run of nfpm.
type nfpmOptions struct {
	ModuleDir, Go, Work string
	Target              Target
	Version             string
	Binary              string // the binary's path
	Time                time.Time
}

// linuxPackages makes the .deb and the .rpm of a Linux target with nfpm,
// the Go tool go.mod pins (`go tool nfpm`), from packaging/nfpm.yaml.
func linuxPackages(ctx context.Context, o nfpmOptions) (map[string][]byte, error) {
	dir := filepath.Join(o.Work, "nfpm-"+o.Target.GOARCH)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	env := map[string]string{
		"ELEMCTL_ARCH": o.Target.GOARCH, "ELEMCTL_VERSION": o.Version, "ELEMCTL_BINARY": o.Binary,
		"ELEMCTL_README": filepath.Join(o.ModuleDir, "README.md"), "ELEMCTL_LICENSE": filepath.Join(o.ModuleDir, "LICENSE"),
		"ELEMCTL_MARKER_DEB": filepath.Join(dir, "marker-deb"), "ELEMCTL_MARKER_RPM": filepath.Join(dir, "marker-rpm"),
		"SOURCE_DATE_EPOCH": strconv.FormatInt(o.Time.Unix(), 10),
	}
	for _, pm := range []string{"deb", "rpm"} {
		if err := os.WriteFile(env["ELEMCTL_MARKER_"+strings.ToUpper(pm)], []byte(pm+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	out := map[string][]byte{}
	for pm, name := range map[string]string{"deb": DebName(o.Target.GOARCH), "rpm": RPMName(o.Target.GOARCH)} {
		target := filepath.Join(dir, name)
		cmd := goTool(ctx, o.Go, o.ModuleDir, "nfpm", "package",
			"--config", filepath.Join(o.ModuleDir, "packaging", "nfpm.yaml"), "--packager", pm, "--target", target)
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var msgs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msgs, &msgs
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("dist: nfpm %s for %s: %w\n%s", pm, o.Target, err, strings.TrimSpace(msgs.String()))
		}
		data, err := os.ReadFile(target)
		if err != nil {
			return nil, err
		}
		out[name] = data
	}
	return out, nil
}

// goTool is `go tool <args>` of the module (its tools are go.mod's tool
// lines). The go command builds a tool once and keeps it in the build
// cache; the build is the same whatever GOFLAGS and CGO_ENABLED the caller
// has set, so make dist and make test share that one build.
func goTool(ctx context.Context, goCmd, moduleDir string, args ...string) *exec.Cmd {
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, append([]string{"tool"}, args...)...)
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
	return cmd
}
