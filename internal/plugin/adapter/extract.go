package adapter

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/atomicfile"

	"github.com/elemctl/elemctl/internal/platform"
)

// DebuggerPrefix is where a distribution's .car keeps the debug adapter.
const DebuggerPrefix = "data/ide/theia/plugins/@1c-appengine-plugin/bin/debugger/"

var reVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+\.\d+\.\d+\+\d+`) })

// Extracted is the outcome of Extract.
type Extracted struct {
	// Car is the archive read.
	Car     string `json:"car"`
	Version string `json:"version"`
	// Path is <output>/<version>, the ready value for xbsl.debug.adapterPath.
	Path  string `json:"path"`
	Files int    `json:"files"`
	// IndexFile is <output>/index.json after the update.
	IndexFile string   `json:"index"`
	Default   string   `json:"default"`
	Available []string `json:"available"`
}

func extractError(ctx context.Context, key string, args ...any) error {
	return platform.NewError(ctx, platform.KindGeneral, key, args...)
}

// FindCar picks the archive of a distribution: distro itself when it is a
// file; in a directory the first *element-server-with-ide-*.car by name,
// else the first *.car.
func FindCar(ctx context.Context, distro string) (string, error) {
	st, err := os.Stat(distro)
	if err != nil {
		return "", extractError(ctx, "plugins.extract-no-distro", "path", distro, "error", err)
	}
	if !st.IsDir() {
		return distro, nil
	}
	for _, pattern := range []string{"*element-server-with-ide-*.car", "*.car"} {
		matches, _ := filepath.Glob(filepath.Join(globEscape(distro), pattern))
		sort.Strings(matches)
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && !st.IsDir() {
				return m, nil
			}
		}
	}
	return "", extractError(ctx, "plugins.extract-no-car", "dir", distro)
}

// globEscape keeps a directory name with glob characters literal.
func globEscape(s string) string {
	if !strings.ContainsAny(s, `*?[\`) || filepath.Separator == '\\' {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Extract copies the debug adapter out of distro (a .car or a directory
// holding one) into <output>/<version>/{bin,repo} and records the version
// in <output>/index.json as the default. An existing version is refused.
// Nothing is written outside <output>: entries that would land elsewhere
// fail the whole extraction before anything is written, and the version
// directory appears only complete.
func Extract(ctx context.Context, distro, output string) (*Extracted, error) {
	car, err := FindCar(ctx, distro)
	if err != nil {
		return nil, err
	}
	version := reVersion().FindString(filepath.Base(car))
	if version == "" {
		return nil, extractError(ctx, "plugins.extract-no-version", "file", filepath.Base(car))
	}
	if abs, err := filepath.Abs(output); err == nil {
		output = abs
	}
	target := filepath.Join(output, version)
	if _, err := os.Lstat(target); err == nil {
		return nil, extractError(ctx, "plugins.extract-exists", "dir", target)
	}
	zr, err := zip.OpenReader(car)
	if err != nil {
		return nil, extractError(ctx, "plugins.extract-not-zip", "file", car, "error", err)
	}
	defer zr.Close()

	type entry struct {
		f   *zip.File
		rel string
	}
	var entries []entry
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, DebuggerPrefix) || strings.HasSuffix(f.Name, "/") || f.FileInfo().IsDir() {
			continue
		}
		rel := strings.TrimPrefix(f.Name, DebuggerPrefix)
		if !safeRel(rel) || f.Mode()&fs.ModeSymlink != 0 {
			return nil, extractError(ctx, "plugins.extract-unsafe", "name", f.Name)
		}
		entries = append(entries, entry{f, rel})
	}
	if len(entries) == 0 {
		return nil, extractError(ctx, "plugins.extract-no-debugger", "file", car, "prefix", DebuggerPrefix)
	}
	if err := os.MkdirAll(output, 0o755); err != nil {
		return nil, extractError(ctx, "plugins.extract-write", "path", output, "error", err)
	}
	staging, err := os.MkdirTemp(output, "."+version+".partial-")
	if err != nil {
		return nil, extractError(ctx, "plugins.extract-write", "path", output, "error", err)
	}
	// MkdirTemp makes a private directory; the adapter is for the user's
	// other programs (the editor) too.
	_ = os.Chmod(staging, 0o755)
	done := false
	defer func() {
		if !done {
			os.RemoveAll(staging)
		}
	}()
	for _, e := range entries {
		if err := writeEntry(staging, e.rel, e.f); err != nil {
			return nil, extractError(ctx, "plugins.extract-write", "path", filepath.Join(target, filepath.FromSlash(e.rel)), "error", err)
		}
	}
	if err := os.Rename(staging, target); err != nil {
		if _, statErr := os.Lstat(target); statErr == nil {
			return nil, extractError(ctx, "plugins.extract-exists", "dir", target)
		}
		return nil, extractError(ctx, "plugins.extract-write", "path", target, "error", err)
	}
	done = true
	idx, err := updateIndex(output, version)
	if err != nil {
		return nil, extractError(ctx, "plugins.extract-write", "path", filepath.Join(output, IndexFile), "error", err)
	}
	return &Extracted{
		Car: car, Version: version, Path: target, Files: len(entries),
		IndexFile: filepath.Join(output, IndexFile), Default: idx.Default, Available: idx.Available,
	}, nil
}

// safeRel accepts a slash-separated relative name that stays inside the
// directory it is extracted into on every operating system.
func safeRel(rel string) bool {
	if rel == "" || strings.ContainsAny(rel, "\\:\x00") || path.IsAbs(rel) {
		return false
	}
	if path.Clean(rel) != rel {
		return false
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return false
		}
	}
	return filepath.IsLocal(filepath.FromSlash(rel))
}

func writeEntry(root, rel string, f *zip.File) error {
	dst := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	perm := f.Mode().Perm()
	if perm == 0 {
		perm = 0o644
	}
	// Launcher scripts keep their executable bit; nothing gets group or
	// world write.
	perm &^= 0o022
	src, err := f.Open()
	if err != nil {
		return err
	}
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// updateIndex appends version once to index.json of output and makes it
// the default.
func updateIndex(output, version string) (*Index, error) {
	file := filepath.Join(output, IndexFile)
	idx := &Index{}
	if data, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(data, idx); err != nil {
			// A broken index is rebuilt from the version directories.
			idx = &Index{Available: versionDirs(output)}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	found := false
	for _, v := range idx.Available {
		if v == version {
			found = true
		}
	}
	if !found {
		idx.Available = append(idx.Available, version)
	}
	sortVersions(idx.Available)
	idx.Default = version
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return nil, err
	}
	return idx, atomicfile.Write(file, append(data, '\n'), 0o644)
}

func versionDirs(output string) []string {
	var out []string
	entries, _ := os.ReadDir(output)
	for _, e := range entries {
		if e.IsDir() && reVersion().MatchString(e.Name()) && reVersion().FindString(e.Name()) == e.Name() {
			out = append(out, e.Name())
		}
	}
	return out
}

// sortVersions orders versions by their numbers (9.2.8+11 before
// 9.10.0+1); anything unparsable sorts by text after them.
func sortVersions(vs []string) {
	key := func(v string) []int {
		if reVersion().FindString(v) != v {
			return nil
		}
		var out []int
		for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '+' }) {
			n, _ := strconv.Atoi(part)
			out = append(out, n)
		}
		return out
	}
	sort.SliceStable(vs, func(i, j int) bool {
		a, b := key(vs[i]), key(vs[j])
		if a == nil || b == nil {
			if (a == nil) != (b == nil) {
				return a != nil
			}
			return vs[i] < vs[j]
		}
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
}
