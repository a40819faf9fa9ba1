// Package dist builds elemctl's release archives: one stripped binary per
// platform, packed with README.md and LICENSE into a .tar.gz (a .zip for
// Windows), and a SHA256SUMS file over the archives. Everything is
// reproducible: the same sources, version and Go toolchain give the same
// bytes, because the binaries are built with -trimpath and an empty build
// id and without cgo, and the archives have sorted entries, one fixed
// modification time, owner 0 and fixed modes. The packer is plain Go, so
// `make dist` needs no particular tar on macOS or Windows.
//
// The archive names carry no version (elemctl-linux-amd64.tar.gz): the
// address of the newest release's archive never changes, which is what
// install lines and `elemctl self-update` look for.
package dist

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/atomicfile"
	"github.com/elemctl/elemctl/internal/releasekey"
)

// Target is one platform of a release.
type Target struct{ GOOS, GOARCH string }

// Targets are the platforms of a release.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Host is the platform this program runs on.
func Host() Target { return Target{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH} }

// ParseTarget reads "linux/amd64".
func ParseTarget(s string) (Target, error) {
	os_, arch, ok := strings.Cut(s, "/")
	if !ok || os_ == "" || arch == "" || strings.Contains(arch, "/") {
		return Target{}, fmt.Errorf("dist: a target is GOOS/GOARCH, such as linux/amd64, not %q", s)
	}
	return Target{GOOS: os_, GOARCH: arch}, nil
}

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// BinaryName is the name of the binary in the archive.
func (t Target) BinaryName() string { return BinaryName(t.GOOS) }

// BinaryName is elemctl's file name on an operating system.
func BinaryName(goos string) string {
	if goos == "windows" {
		return "elemctl.exe"
	}
	return "elemctl"
}

// ArchiveName is the file name of the platform's archive.
func (t Target) ArchiveName() string { return ArchiveName(t.GOOS, t.GOARCH) }

// BinaryPath is where the platform's binary lies in a folder of binaries
// (mkdist -binaries): <dir>/<goos>-<goarch>/elemctl[.exe].
func (t Target) BinaryPath(dir string) string {
	return filepath.Join(dir, t.GOOS+"-"+t.GOARCH, t.BinaryName())
}

// ArchiveName is the file name of a platform's archive: a .zip for Windows,
// where it unpacks without extra tools, a .tar.gz elsewhere, which keeps
// the executable bit.
func ArchiveName(goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return "elemctl-" + goos + "-" + goarch + ext
}

// SumsName is the file of checksums beside the archives.
const SumsName = "SHA256SUMS"

// DefaultTime is the modification time of every archive entry when neither
// SOURCE_DATE_EPOCH nor the commit says one.
var DefaultTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// File is one entry of an archive.
type File struct {
	Name string
	Mode os.FileMode
	Data []byte
}

// BuildOptions describe one binary.
type BuildOptions struct {
	// ModuleDir is the directory of elemctl's go.mod.
	ModuleDir string
	Target    Target
	// Version is stamped into the binary; "" keeps the number of
	// cmd/elemctl/VERSION the binary embeds.
	Version string
	// Go is the go command; "" means "go".
	Go string
	// Stderr receives the compiler's messages; nil discards them.
	Stderr io.Writer
	// ReleaseKeys, when set, replaces the release keys the binary trusts
	// (minisign public keys, space separated): for tests, which sign
	// releases with keys of their own.
	ReleaseKeys string
	// Command is the main package to build, relative to ModuleDir; ""
	// is elemctl's, ./cmd/elemctl.
	Command string
}

// BuildBinary cross-compiles elemctl for one platform into out: stripped
// (-s -w), without paths of this machine (-trimpath) or a build id, and
// without cgo, so two builds of the same sources are the same bytes.
func BuildBinary(ctx context.Context, o BuildOptions, out string) error {
	ldflags := "-s -w -buildid="
	if o.Version != "" {
		ldflags += " -X main.version=" + o.Version
	}
	if o.ReleaseKeys != "" {
		ldflags += " -X github.com/elemctl/elemctl/internal/releasekey.keys=" + strings.Join(strings.Fields(o.ReleaseKeys), ",")
	}
	goCmd := o.Go
	if goCmd == "" {
		goCmd = "go"
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	pkg := o.Command
	if pkg == "" {
		pkg = "./cmd/elemctl"
	}
	cmd := exec.CommandContext(ctx, goCmd, "build", "-trimpath", "-ldflags", ldflags, "-o", abs, pkg)
	cmd.Dir = o.ModuleDir
	cmd.Env = append(os.Environ(), "GOOS="+o.Target.GOOS, "GOARCH="+o.Target.GOARCH, "CGO_ENABLED=0", "GOFLAGS=")
	var msgs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msgs, &msgs
	if o.Stderr != nil {
		cmd.Stdout, cmd.Stderr = io.MultiWriter(&msgs, o.Stderr), io.MultiWriter(&msgs, o.Stderr)
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("dist: building %s for %s: %w\n%s", pkg, o.Target, err, strings.TrimSpace(msgs.String()))
	}
	return nil
}

// Pack writes the archive of a platform: a .zip for Windows, a .tar.gz
// elsewhere. The entries lie at the top of the archive, in name order,
// with the modification time mtime.
func Pack(w io.Writer, goos string, files []File, mtime time.Time) error {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	mtime = mtime.UTC().Truncate(time.Second)
	if goos == "windows" {
		return packZip(w, sorted, mtime)
	}
	return packTarGz(w, sorted, mtime)
}

func packTarGz(w io.Writer, files []File, mtime time.Time) error {
	// The gzip header has no name and no time, so it depends on the
	// contents alone.
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     f.Name,
			Mode:     int64(f.Mode.Perm()),
			Size:     int64(len(f.Data)),
			ModTime:  mtime,
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func packZip(w io.Writer, files []File, mtime time.Time) error { return zipInOrder(w, files, mtime) }

// Sums is the text of a SHA256SUMS file, in the format sha256sum -c reads:
// one "<hex>  <name>" line per file, in name order.
func Sums(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	return b.Bytes()
}

// ReleaseOptions describe a release.
type ReleaseOptions struct {
	ModuleDir string
	// OutDir receives the release (see Release).
	OutDir  string
	Version string
	// Targets default to Targets.
	Targets []Target
	// Time is the modification time of every entry (see EntryTime).
	Time time.Time
	Go   string
	// Binary gives a target's binary; nil builds it with BuildBinary.
	Binary func(ctx context.Context, t Target) ([]byte, error)
	// SigningKey signs SHA256SUMS into SHA256SUMS.minisig; nil leaves the
	// release unsigned, which self-update refuses.
	SigningKey *minisign.PrivateKey
	// Progress receives a line per file; nil discards them.
	Progress func(string)
	Stderr   io.Writer
}

// Release builds every target's binary and, from them, the files of a
// release, and returns the paths it wrote:
//
//   - the archives (elemctl-<os>-<arch>.tar.gz / .zip), the Python wheels
//     (elemctl-<v>-py3-none-<platform>.whl), the npm packages
//     (elemctl-<v>.tgz and elemctl-<platform>-<v>.tgz) and, for Linux, the
//     .deb and .rpm packages: the release's assets, listed in SHA256SUMS;
//   - SHA256SUMS.minisig, when a signing key is given;
//   - beside them, what other places publish: scoop/elemctl.json,
//     winget/manifests/..., homebrew/elemctl.rb (with the archives'
//     addresses and sums), and container/, the build context of the MCP
//     server's image (its Dockerfile and the Linux binaries).
//
// Files of other platforms already in OutDir stay, but SHA256SUMS lists
// only this run's.
func Release(ctx context.Context, o ReleaseOptions) ([]string, error) {
	targets := o.Targets
	if len(targets) == 0 {
		targets = Targets
	}
	pyVersion, err := PythonVersion(o.Version)
	if err != nil {
		return nil, err
	}
	docs, err := releaseDocs(o.ModuleDir)
	if err != nil {
		return nil, err
	}
	license, readme := docs[0].Data, docs[1].Data
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "elemctl-dist-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)

	var written []string
	write := func(rel string, data []byte, mode os.FileMode) error {
		path := filepath.Join(o.OutDir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(path, data, mode); err != nil {
			return err
		}
		written = append(written, path)
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("%s  %d bytes", path, len(data)))
		}
		return nil
	}
	assets := map[string][]byte{}
	asset := func(name string, data []byte) error {
		assets[name] = data
		return write(name, data, 0o644)
	}

	binaries := map[Target][]byte{}
	for _, t := range targets {
		data, err := o.binary(ctx, t, work)
		if err != nil {
			return nil, err
		}
		binaries[t] = data
		files := append(slices.Clone(docs), File{Name: t.BinaryName(), Mode: 0o755, Data: data})
		var buf bytes.Buffer
		if err := Pack(&buf, t.GOOS, files, o.Time); err != nil {
			return nil, fmt.Errorf("dist: packing %s: %w", t.ArchiveName(), err)
		}
		if err := asset(t.ArchiveName(), buf.Bytes()); err != nil {
			return nil, err
		}
		name, wheel, err := Wheel(t, pyVersion, data, readme, license, o.Time)
		if err != nil {
			return nil, err
		}
		if err := asset(name, wheel); err != nil {
			return nil, err
		}
		name, tgz, err := NPMPlatformTarball(t, o.Version, data, license, o.Time)
		if err != nil {
			return nil, err
		}
		if err := asset(name, tgz); err != nil {
			return nil, err
		}
	}
	name, tgz, err := NPMMainTarball(o.ModuleDir, targets, o.Version, readme, license, o.Time)
	if err != nil {
		return nil, err
	}
	if err := asset(name, tgz); err != nil {
		return nil, err
	}
	for _, t := range targets {
		if t.GOOS != "linux" {
			continue
		}
		bin := filepath.Join(work, "container", "linux-"+t.GOARCH, "elemctl")
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(bin, binaries[t], 0o755); err != nil {
			return nil, err
		}
		pkgs, err := linuxPackages(ctx, nfpmOptions{ModuleDir: o.ModuleDir, Go: o.Go, Work: work, Target: t,
			Version: o.Version, Binary: bin, Time: o.Time})
		if err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(pkgs)) {
			if err := asset(name, pkgs[name]); err != nil {
				return nil, err
			}
		}
		if err := write("container/linux-"+t.GOARCH+"/elemctl", binaries[t], 0o755); err != nil {
			return nil, err
		}
	}

	sums := Sums(assets)
	if err := write(SumsName, sums, 0o644); err != nil {
		return nil, err
	}
	if o.SigningKey != nil {
		if err := write(releasekey.SignatureName, releasekey.Sign(*o.SigningKey, sums, o.Version), 0o644); err != nil {
			return nil, err
		}
	}

	if slices.ContainsFunc(targets, func(t Target) bool { return t.GOOS == "windows" }) {
		scoop, err := ScoopManifest(o.Version, assets)
		if err != nil {
			return nil, err
		}
		if err := write("scoop/elemctl.json", scoop, 0o644); err != nil {
			return nil, err
		}
		manifests, err := WingetManifests(o.ModuleDir, o.Version, assets, o.Time)
		if err != nil {
			return nil, err
		}
		for _, name := range slices.Sorted(maps.Keys(manifests)) {
			if err := write("winget/"+WingetDir(o.Version)+"/"+name, manifests[name], 0o644); err != nil {
				return nil, err
			}
		}
	}
	if slices.ContainsFunc(targets, func(t Target) bool { return t.GOOS != "windows" }) {
		formula, err := HomebrewFormula(o.ModuleDir, o.Version, assets)
		if err != nil {
			return nil, err
		}
		if err := write("homebrew/elemctl.rb", formula, 0o644); err != nil {
			return nil, err
		}
	}
	if slices.ContainsFunc(targets, func(t Target) bool { return t.GOOS == "linux" }) {
		dockerfile, err := os.ReadFile(filepath.Join(o.ModuleDir, "packaging", "container", "Dockerfile"))
		if err != nil {
			return nil, err
		}
		if err := write("container/Dockerfile", dockerfile, 0o644); err != nil {
			return nil, err
		}
	}
	return written, nil
}

// binary is a target's binary: given by Binary, or built.
func (o ReleaseOptions) binary(ctx context.Context, t Target, work string) ([]byte, error) {
	if o.Binary != nil {
		return o.Binary(ctx, t)
	}
	bin := t.BinaryPath(work)
	if err := BuildBinary(ctx, BuildOptions{ModuleDir: o.ModuleDir, Target: t, Version: o.Version, Go: o.Go, Stderr: o.Stderr}, bin); err != nil {
		return nil, err
	}
	return os.ReadFile(bin)
}

// releaseDocs are the files every archive carries beside the binary.
func releaseDocs(moduleDir string) ([]File, error) {
	var out []File
	for _, name := range []string{"LICENSE", "README.md"} {
		data, err := os.ReadFile(filepath.Join(moduleDir, name))
		if err != nil {
			return nil, fmt.Errorf("dist: every archive carries %s: %w", name, err)
		}
		out = append(out, File{Name: name, Mode: 0o644, Data: data})
	}
	return out, nil
}

// EntryTime is the modification time of archive entries: SOURCE_DATE_EPOCH
// when set (the convention of reproducible builds), else the time of the
// commit, else DefaultTime.
func EntryTime(moduleDir string, getenv func(string) string) (time.Time, error) {
	if s := getenv("SOURCE_DATE_EPOCH"); s != "" {
		return parseEpoch(s)
	}
	cmd := exec.Command("git", "log", "-1", "--format=%ct")
	cmd.Dir = moduleDir
	if out, err := cmd.Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		return parseEpoch(string(out))
	}
	return DefaultTime, nil
}

func parseEpoch(s string) (time.Time, error) {
	sec, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || sec < 315532800 {
		// zip keeps no time before 1980.
		return time.Time{}, fmt.Errorf("dist: SOURCE_DATE_EPOCH=%q is not a number of seconds since 1980", s)
	}
	return time.Unix(sec, 0).UTC(), nil
}
