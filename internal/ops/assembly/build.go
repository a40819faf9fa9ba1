package assembly

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// BuildOptions are the inputs of a build; they mirror the flags of `build`.
type BuildOptions struct {
	ProjectDir string // --project-dir; "" = the current directory
	OutputDir  string // --output; "" = the current directory (created when missing)
	Version    string // --build-version
	LastBuild  string // --last-build: the build to count on from
	Kind       string // --kind; "" = the descriptor's kind
	// Commit and Branch override git when not nil, even with "".
	Commit, Branch *string
	RequireClean   bool                // --require-clean: refuse uncommitted changes before building
	Getenv         func(string) string // CI variables; nil = os.Getenv
	Now            func() time.Time    // the manifest's Created; nil = time.Now
}

// BuildResult describes a finished build.
type BuildResult struct {
	File          string // absolute path of the archive
	Name, Vendor  string
	Version       string
	VersionSource string // flag, last-build, a CI variable name, or default
	Kind          string
	Branch        string
	Commit        string
	Dirty         *bool    // nil when git cannot tell
	DirtyFiles    []string // never nil
	SkippedFiles  []string // never nil; relative to the root project, library files as vendor/name/path
	// SOAPClientsWithoutDescription lists SOAP client elements that have no
	// .wsdl beside them (named like SkippedFiles); never nil.
	SOAPClientsWithoutDescription []string
	ProjectDir                    string
	RepoRoot                      string
	Descriptor                    *Descriptor
	Libraries                     []string // local libraries packed in, as vendor/name, in discovery order; never nil
	Created                       time.Time
	Size                          int64
	// ReusedFiles is how many files were copied compressed from the pack
	// cache (the project's last pack) instead of compressed again.
	ReusedFiles int
}

// JSON is the answer of the `build` command, keys in their documented order.
func (r *BuildResult) JSON() *jsonx.Object {
	var dirty any
	if r.Dirty != nil {
		dirty = *r.Dirty
	}
	return jsonx.New(
		"file", r.File,
		"name", r.Name,
		"vendor", r.Vendor,
		"version", r.Version,
		"version-source", r.VersionSource,
		"kind", r.Kind,
		"branch", r.Branch,
		"commit", r.Commit,
		"dirty", dirty,
		"skipped-files", nonNil(r.SkippedFiles),
	)
}

// Build finds the project, checks it, and packs it (with its local
// libraries for applications and extensions) into an archive in the output
// directory. The archive is written under a temporary name and renamed when
// complete, so an interrupted build leaves no half-written archive.
func Build(ctx context.Context, opts BuildOptions) (*BuildResult, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}

	dir, err := FindProjectDir(ctx, opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	if opts.RequireClean {
		if err := RequireClean(ctx, dir); err != nil {
			return nil, err
		}
	}
	d, err := ReadDescriptor(ctx, dir)
	if err != nil {
		return nil, err
	}
	repo, err := CheckLayout(ctx, d)
	if err != nil {
		return nil, err
	}
	kind := d.Kind
	if opts.Kind != "" {
		if kind, err = ParseKind(ctx, opts.Kind); err != nil {
			return nil, err
		}
	}
	version, source := ResolveVersion(d.Version, opts.Version, opts.LastBuild, getenv)

	git := ReadGit(ctx, dir, getenv)
	if opts.Commit != nil {
		git.Commit = *opts.Commit
	}
	if opts.Branch != nil {
		git.Branch = *opts.Branch
	}

	res := &BuildResult{
		Name: d.Name, Vendor: d.Vendor, Version: version, VersionSource: source, Kind: kind,
		Branch: git.Branch, Commit: git.Commit, Dirty: git.Dirty, DirtyFiles: nonNil(git.DirtyFiles),
		ProjectDir: dir, RepoRoot: repo, Descriptor: d, Created: now().UTC(),
		Libraries: []string{}, SkippedFiles: []string{}, SOAPClientsWithoutDescription: []string{},
	}

	files, skipped, err := collectProject(dir, d.Vendor+"/"+d.Name+"/", "")
	if err != nil {
		return nil, wrapError(ctx, err, "build.read-dir", "dir", dir, "error", err)
	}
	res.SkippedFiles = append(res.SkippedFiles, skipped...)
	if kind != KindLibrary {
		for _, lib := range localLibraries(repo, d) {
			prefix := lib.Vendor + "/" + lib.Name + "/"
			libDir := filepath.Join(repo, lib.Vendor, lib.Name)
			libFiles, libSkipped, err := collectProject(libDir, prefix, prefix)
			if err != nil {
				return nil, wrapError(ctx, err, "build.read-dir", "dir", libDir, "error", err)
			}
			files = append(files, libFiles...)
			res.SkippedFiles = append(res.SkippedFiles, libSkipped...)
			res.Libraries = append(res.Libraries, lib.String())
		}
	}
	slices.SortFunc(files, func(a, b projectFile) int { return strings.Compare(a.entry, b.entry) })
	files = slices.CompactFunc(files, func(a, b projectFile) bool { return a.entry == b.entry })

	manifest := Manifest{Kind: kind, Vendor: d.Vendor, Name: d.Name, Version: version,
		Branch: git.Branch, Commit: git.Commit, Created: res.Created}
	entries := make([]zipEntry, 0, len(files)+1)
	entries = append(entries, zipEntry{name: ManifestName, data: manifest.Bytes()})
	for _, f := range files {
		entries = append(entries, zipEntry{name: f.entry, src: f.src, size: f.size, head: f.soapCandidate})
	}

	outDir := opts.OutputDir
	if outDir == "" {
		outDir = "."
	}
	if outDir, err = filepath.Abs(outDir); err != nil {
		return nil, wrapError(ctx, err, "build.output-dir", "dir", opts.OutputDir, "error", err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, wrapError(ctx, err, "build.output-dir", "dir", outDir, "error", err)
	}
	res.File = filepath.Join(outDir, ArchiveFileName(d.Name, version, kind))
	cache := openPackCache(getenv, d.Vendor, d.Name, dir)
	found, size, err := writeArchiveFile(ctx, res.File, entries, cache)
	if err != nil {
		cache.discard()
		return nil, err
	}
	cache.commit()
	res.Size = size
	res.ReusedFiles = cache.reusedFiles()
	for i, f := range files {
		if f.soapCandidate && isSOAPClient(found[i+1].head) {
			res.SOAPClientsWithoutDescription = append(res.SOAPClientsWithoutDescription, f.report)
		}
	}
	return res, nil
}

// writeArchiveFile writes the archive next to its final name and renames it
// into place once complete.
func writeArchiveFile(ctx context.Context, file string, entries []zipEntry, cache *packCache) ([]entryResult, int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return nil, 0, wrapError(ctx, err, "build.write", "file", file, "error", err)
	}
	fail := func(err error) ([]entryResult, int64, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		var own *Error
		if errors.As(err, &own) || ctx.Err() != nil {
			return nil, 0, err
		}
		return nil, 0, wrapError(ctx, err, "build.write", "file", file, "error", err)
	}
	found, err := writeZip(ctx, tmp, entries, cache)
	if err != nil {
		return fail(err)
	}
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil { // a temporary file starts private
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return nil, 0, wrapError(ctx, err, "build.write", "file", file, "error", err)
	}
	return found, size, nil
}

// localLibraries follows Библиотеки/Libraries from the root descriptor,
// breadth first: a library is local when {repo}/{vendor}/{name} holds a
// descriptor; its own libraries are followed too. Libraries without a local
// directory stay external dependencies.
func localLibraries(repo string, root *Descriptor) []ProjectRef {
	seen := map[ProjectRef]bool{{Vendor: root.Vendor, Name: root.Name}: true}
	var local []ProjectRef
	queue := slices.Clone(root.Libraries)
	for len(queue) > 0 {
		ref := queue[0]
		queue = queue[1:]
		if seen[ref] || !safePathElement(ref.Vendor) || !safePathElement(ref.Name) {
			continue
		}
		seen[ref] = true
		path := descriptorIn(filepath.Join(repo, ref.Vendor, ref.Name))
		if path == "" {
			continue
		}
		local = append(local, ref)
		if data, err := os.ReadFile(path); err == nil {
			queue = append(queue, ParseDescriptor(data, path).Libraries...)
		}
	}
	return local
}

// safePathElement tells whether a vendor or project name can be used as one
// directory name without leaving the repository.
func safePathElement(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\:`) && filepath.IsLocal(s)
}

// ArchiveFileName is the archive's file name: "{Name} {Version}.xlib" for a
// library, "{Name} {Version}.xasm" otherwise, made safe for any file system.
func ArchiveFileName(name, version, kind string) string {
	ext := ".xasm"
	if kind == KindLibrary {
		ext = ".xlib"
	}
	return SafeFileName(name + " " + version + ext)
}

// SafeFileName replaces the characters Windows forbids in file names
// (<>:"/\|?*) and control characters with "_".
func SafeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"/\|?*`, r) {
			return '_'
		}
		return r
	}, s)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
