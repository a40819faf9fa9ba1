package dist

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// npmPlatform is Node's name of a target: process.platform-process.arch.
func npmPlatform(t Target) string {
	os_ := t.GOOS
	if os_ == "windows" {
		os_ = "win32"
	}
	arch := t.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return os_ + "-" + arch
}

// NPMPlatformPackage is the npm package that carries a target's binary.
func NPMPlatformPackage(t Target) string { return "@elemctl/" + npmPlatform(t) }

// NPMTarballName is the file npm pack names a package's tarball: the
// scope's @ dropped and its / a -, then -<version>.tgz.
func NPMTarballName(pkg, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pkg, "@"), "/", "-") + "-" + version + ".tgz"
}

// npmRepository is the repository field of every package.
func npmRepository() *jsonx.Object {
	return jsonx.New("type", "git", "url", "git+"+Homepage+".git")
}

// NPMPlatformTarball is the package of one target's binary, installed only
// where its "os" and "cpu" match (esbuild's way of shipping binaries
// through npm). It has no "bin" of its own: the elemctl package's launcher
// runs the binary.
func NPMPlatformTarball(t Target, version string, binary, license []byte, mtime time.Time) (name string, data []byte, err error) {
	os_, cpu, _ := strings.Cut(npmPlatform(t), "-")
	pkg := jsonx.New(
		"name", NPMPlatformPackage(t),
		"version", version,
		"description", "The elemctl binary for "+t.String()+"; install the elemctl package, which runs it",
		"license", "MIT",
		"homepage", Homepage,
		"repository", npmRepository(),
		"os", []any{os_},
		"cpu", []any{cpu},
		"preferUnplugged", true,
	)
	manifest, err := jsonx.Marshal(pkg)
	if err != nil {
		return "", nil, err
	}
	readme := "# " + NPMPlatformPackage(t) + "\n\nThe elemctl binary for " + t.String() +
		". Install [`elemctl`](https://www.npmjs.com/package/elemctl) instead: it depends on this package and runs the binary.\n"
	files := []File{
		{Name: "package/package.json", Mode: 0o644, Data: manifest},
		{Name: "package/README.md", Mode: 0o644, Data: []byte(readme)},
		{Name: "package/LICENSE", Mode: 0o644, Data: license},
		{Name: "package/bin/" + t.BinaryName(), Mode: 0o755, Data: binary},
	}
	var buf bytes.Buffer
	if err := Pack(&buf, "linux", files, mtime); err != nil {
		return "", nil, err
	}
	return NPMTarballName(NPMPlatformPackage(t), version), buf.Bytes(), nil
}

// NPMMainTarball is the elemctl package: the launcher packaging/npm/elemctl.js
// as its "bin", and the platform packages of the targets as optional
// dependencies, so npm installs the one of the machine and `npx -y elemctl`
// runs it.
func NPMMainTarball(moduleDir string, targets []Target, version string, readme, license []byte, mtime time.Time) (name string, data []byte, err error) {
	launcher, err := os.ReadFile(filepath.Join(moduleDir, "packaging", "npm", "elemctl.js"))
	if err != nil {
		return "", nil, fmt.Errorf("dist: the npm launcher: %w", err)
	}
	sorted := slices.Clone(targets)
	slices.SortFunc(sorted, func(a, b Target) int { return strings.Compare(npmPlatform(a), npmPlatform(b)) })
	deps := jsonx.New()
	for _, t := range sorted {
		deps.Set(NPMPlatformPackage(t), version)
	}
	pkg := jsonx.New(
		"name", "elemctl",
		"version", version,
		"description", Summary,
		"keywords", []any{"1c", "element", "xbsl", "mcp", "mcp-server", "lsp", "cli"},
		"license", "MIT",
		"homepage", Homepage,
		"repository", npmRepository(),
		"bin", jsonx.New("elemctl", "bin/elemctl.js"),
		"engines", jsonx.New("node", ">=18"),
		"optionalDependencies", deps,
	)
	manifest, err := jsonx.Marshal(pkg)
	if err != nil {
		return "", nil, err
	}
	files := []File{
		{Name: "package/package.json", Mode: 0o644, Data: manifest},
		{Name: "package/README.md", Mode: 0o644, Data: readme},
		{Name: "package/LICENSE", Mode: 0o644, Data: license},
		{Name: "package/bin/elemctl.js", Mode: 0o755, Data: launcher},
	}
	var buf bytes.Buffer
	if err := Pack(&buf, "linux", files, mtime); err != nil {
		return "", nil, err
	}
	return NPMTarballName("elemctl", version), buf.Bytes(), nil
}
