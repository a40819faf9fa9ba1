package selfupdate

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/elemctl/elemctl/internal/dist"
)

// Manager is an installer that owns the binary and updates it itself:
// self-update leaves such a copy alone and names the command instead.
type Manager struct {
	// Name is pip, pipx, uv, npm, scoop, winget, homebrew, deb or rpm.
	Name string
	// Update is the command that updates the copy, ready to paste.
	Update string
}

// ManagedBy tells which installer owns the binary exe (its real path), or
// nil when none does (an archive unpacked by hand, go install): a package
// manager would not know of a file self-update changed, and would put its
// own version back or fail to remove it.
func ManagedBy(exe, goos, goarch string) *Manager {
	dir := filepath.Dir(exe)
	slashed := strings.ToLower(slashPath(exe))
	switch {
	case strings.Contains(slashed, "/scoop/apps/elemctl/"):
		return &Manager{"scoop", "scoop update elemctl"}
	case strings.Contains(slashed, "/microsoft/winget/packages/"+strings.ToLower(dist.WingetID)+"_"):
		return &Manager{"winget", "winget upgrade --id " + dist.WingetID}
	}
	if m := packageMarker(dir, goarch); m != nil {
		return m
	}
	if m := npmPackage(exe); m != nil {
		return m
	}
	return pythonPackage(exe, goos)
}

// packageMarker reads the file by which the .deb, the .rpm and the
// Homebrew formula name their package manager.
func packageMarker(dir, goarch string) *Manager {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(dist.PackageManagerMarker)))
	if err != nil {
		return nil
	}
	latest := dist.Homepage + "/releases/latest/download/"
	switch name := strings.TrimSpace(string(data)); name {
	case "deb":
		pkg := dist.DebName(goarch)
		return &Manager{name, "curl -fsSLO " + latest + pkg + " && sudo apt install ./" + pkg}
	case "rpm":
		pkg := dist.RPMName(goarch)
		return &Manager{name, "curl -fsSLO " + latest + pkg + " && sudo rpm -U ./" + pkg}
	case "homebrew":
		return &Manager{name, "brew upgrade elemctl"}
	}
	return nil
}

// npmPackage recognises the binary of an @elemctl/<platform> package:
// node_modules/@elemctl/<platform>/bin/elemctl, its package.json beside
// bin.
func npmPackage(exe string) *Manager {
	pkgDir := filepath.Dir(filepath.Dir(exe))
	data, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return nil
	}
	var pkg struct{ Name string }
	if json.Unmarshal(data, &pkg) != nil || !strings.HasPrefix(pkg.Name, "@elemctl/") {
		return nil
	}
	slashed := slashPath(pkgDir)
	switch {
	case strings.Contains(slashed, "/_npx/"):
		// npx's cache: naming the version makes npx fetch the newest.
		return &Manager{"npm", "npx -y elemctl@latest --version"}
	case strings.Contains(strings.ToLower(slashed), "/lib/node_modules/elemctl/") ||
		strings.Contains(strings.ToLower(slashed), "/npm/node_modules/elemctl/"):
		return &Manager{"npm", "npm install -g elemctl@latest"}
	}
	// A project's node_modules: the folder that holds it.
	project := slashed
	if i := strings.LastIndex(project, "/node_modules/"); i >= 0 {
		project = project[:i]
	}
	return &Manager{"npm", "npm install --prefix " + quoteArg(filepath.FromSlash(project)) + " elemctl@latest"}
}

// pythonPackage recognises a binary a Python installer (pip, pipx, uv)
// put in an environment's bin (Scripts) folder: an elemctl-*.dist-info
// in the environment's site-packages lists it in its RECORD.
func pythonPackage(exe, goos string) *Manager {
	dir := filepath.Dir(exe)
	var sites []string
	for _, pattern := range []string{
		"../lib/python*/site-packages", "../lib/python*/dist-packages", "../lib64/python*/site-packages",
		"../Lib/site-packages", "../site-packages",
	} {
		found, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
		sites = append(sites, found...)
	}
	for _, site := range sites {
		infos, _ := filepath.Glob(filepath.Join(site, "elemctl-*.dist-info"))
		for _, info := range infos {
			if !recordLists(filepath.Join(info, "RECORD"), site, exe, goos) {
				continue
			}
			installer, _ := os.ReadFile(filepath.Join(info, "INSTALLER"))
			return pythonManager(exe, dir, strings.TrimSpace(string(installer)), goos)
		}
	}
	return nil
}

// recordLists tells whether a wheel's RECORD names the file exe.
func recordLists(record, site, exe, goos string) bool {
	f, err := os.Open(record)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), ",")
		if !strings.HasPrefix(filepath.Base(filepath.FromSlash(name)), "elemctl") {
			continue
		}
		path := filepath.Join(site, filepath.FromSlash(name))
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		if path == exe || (goos == "windows" && strings.EqualFold(path, exe)) {
			return true
		}
	}
	return false
}

func pythonManager(exe, binDir, installer, goos string) *Manager {
	slashed := strings.ToLower(slashPath(exe))
	switch {
	case strings.Contains(slashed, "/pipx/venvs/elemctl/"):
		return &Manager{"pipx", "pipx upgrade elemctl"}
	case strings.Contains(slashed, "/uv/tools/elemctl/"):
		return &Manager{"uv", "uv tool upgrade elemctl"}
	}
	python := filepath.Join(binDir, "python")
	if goos == "windows" {
		python += ".exe"
	}
	if _, err := os.Stat(python); err != nil {
		python = ""
	}
	switch {
	case installer == "uv" && python != "":
		return &Manager{"uv", "uv pip install --upgrade elemctl --python " + quoteArg(python)}
	case installer == "uv":
		return &Manager{"uv", "uv pip install --upgrade elemctl"}
	case python != "":
		return &Manager{"pip", quoteArg(python) + " -m pip install --upgrade elemctl"}
	}
	return &Manager{"pip", "pip install --upgrade elemctl"}
}

// slashPath writes a path of either system with forward slashes.
func slashPath(p string) string { return strings.ReplaceAll(filepath.ToSlash(p), `\`, "/") }

// quoteArg quotes a path for a shell when it needs it.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"$&;|<>()*?[]#~`") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
