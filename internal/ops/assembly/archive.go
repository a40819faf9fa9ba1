package assembly

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// Limits of archive reading. A build archive holds YAML and source files of
// kilobytes; these bounds only stop damaged archives and zip bombs from
// taking the memory of the process.
const (
	MaxEntryRead  = 16 << 20  // one entry read into memory
	MaxTotalRead  = 256 << 20 // all entries read by one Archive together
	MaxEntryCount = 200_000
)

// The limits in force; variables so tests can reach them with small archives.
var (
	entryReadLimit  int64 = MaxEntryRead
	totalReadLimit  int64 = MaxTotalRead
	entryCountLimit       = MaxEntryCount
)

// Archive is a build archive (.xasm/.xlib) opened for reading. Only entries
// with a safe relative name (no "..", no absolute path, no backslash) can
// be read; others are ignored, so a hostile name can never point outside
// the archive's own tree.
type Archive struct {
	name     string // how messages name the archive
	zr       *zip.Reader
	closer   io.Closer
	entries  map[string]*zip.File // safe names only
	names    []string             // safe names in archive order
	manifest *jsonx.Object
	budget   int64 // bytes left to read

	descriptor    *Descriptor // read once, on first use
	descriptorErr error

	outside []string // names that point outside the archive's folder (Refusals)
}

// ReadArchiveFile opens the archive at path. The errors are the ones of
// `inspect`: not found, not a build archive, no manifest. Close it when done.
func ReadArchiveFile(ctx context.Context, path string) (*Archive, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, wrapError(ctx, err, "inspect.not-found", "file", path)
		}
		return nil, wrapError(ctx, err, "inspect.unreadable", "file", path, "error", err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, newError(ctx, "inspect.not-archive", "file", path)
	}
	a, err := openArchive(ctx, path, f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	a.closer = f
	return a, nil
}

// OpenArchive reads an archive held in memory; name is used in messages.
func OpenArchive(ctx context.Context, name string, data []byte) (*Archive, error) {
	return openArchive(ctx, name, bytes.NewReader(data), int64(len(data)))
}

// OpenArchiveAt reads an archive of size bytes where it lies (a file),
// reading only what is asked of it; name is used in messages. r must stay
// open while the archive is read.
func OpenArchiveAt(ctx context.Context, name string, r io.ReaderAt, size int64) (*Archive, error) {
	return openArchive(ctx, name, r, size)
}

func openArchive(ctx context.Context, name string, r io.ReaderAt, size int64) (*Archive, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, wrapError(ctx, err, "inspect.not-archive", "file", name)
	}
	if len(zr.File) > entryCountLimit {
		return nil, newError(ctx, "inspect.too-many-entries", "file", name, "count", len(zr.File), "limit", entryCountLimit)
	}
	a := &Archive{name: name, zr: zr, entries: map[string]*zip.File{}, budget: totalReadLimit}
	for _, f := range zr.File {
		if !safeEntryName(f.Name) {
			a.outside = append(a.outside, f.Name)
			continue
		}
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		n := composeCyrillic(f.Name)
		if _, dup := a.entries[n]; dup {
			continue // the first of duplicate names wins, as with most readers
		}
		a.entries[n] = f
		a.names = append(a.names, n)
	}
	if _, ok := a.entries[ManifestName]; !ok {
		return nil, newError(ctx, "inspect.no-manifest", "file", name)
	}
	data, err := a.ReadEntry(ctx, ManifestName)
	if err != nil {
		return nil, err
	}
	a.manifest = parseFlat(string(data)).fields
	return a, nil
}

// Refusals are what makes the platform refuse the archive although its
// manifest reads: entries whose names point outside the archive's folder
// ("../", an absolute path, a drive, a backslash). They come from the
// archive's directory of entries, so nothing is unpacked to find them.
// `inspect` warns of each; an upload refuses the archive for them before
// sending anything. How much the platform unpacks of an archive is not
// recorded, so what an archive unpacks to is the platform's to judge.
func (a *Archive) Refusals(ctx context.Context) []error {
	if len(a.outside) == 0 {
		return nil
	}
	return []error{newError(ctx, "archive.outside-entries", "file", a.name, "count", len(a.outside), "entries", listFiles(ctx, a.outside))}
}

// safeEntryName accepts relative slash-separated names without "." or ".."
// segments, empty segments, backslashes, a drive or volume in the first
// segment, or control characters.
func safeEntryName(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") {
		return false
	}
	if first, _, _ := strings.Cut(name, "/"); strings.Contains(first, ":") {
		return false
	}
	for part := range strings.SplitSeq(strings.TrimSuffix(name, "/"), "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
		for _, r := range part {
			if r < 0x20 {
				return false
			}
		}
	}
	return true
}

// Close releases the file of an archive opened with ReadArchiveFile.
func (a *Archive) Close() error {
	if a.closer == nil {
		return nil
	}
	return a.closer.Close()
}

// Name is the archive's name as given.
func (a *Archive) Name() string { return a.name }

// Manifest is Assembly.yaml read flat (every value a string).
func (a *Archive) Manifest() *jsonx.Object { return a.manifest }

// Kind, Vendor, ProjectName and Version are the manifest's values.
func (a *Archive) Kind() string        { return a.manifest.Str("ProjectKind") }
func (a *Archive) Vendor() string      { return a.manifest.Str("Vendor") }
func (a *Archive) ProjectName() string { return a.manifest.Str("Name") }
func (a *Archive) Version() string     { return a.manifest.Str("Version") }

// Entries lists the readable (safe) entry names in archive order.
func (a *Archive) Entries() []string { return append([]string(nil), a.names...) }

// ReadEntry reads one entry. Entries that declare more than MaxEntryRead
// bytes, that turn out larger than they declare, or that would take the
// archive past MaxTotalRead, are refused.
func (a *Archive) ReadEntry(ctx context.Context, name string) ([]byte, error) {
	f, ok := a.entries[name]
	if !ok {
		return nil, wrapError(ctx, fs.ErrNotExist, "inspect.no-entry", "file", a.name, "entry", name)
	}
	limit := min(entryReadLimit, a.budget)
	if f.UncompressedSize64 > uint64(limit) {
		return nil, a.tooLarge(ctx, name, f.UncompressedSize64, limit)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, wrapError(ctx, err, "inspect.bad-entry", "file", a.name, "entry", name, "error", err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	a.budget -= int64(len(data))
	if err != nil {
		return nil, wrapError(ctx, err, "inspect.bad-entry", "file", a.name, "entry", name, "error", err)
	}
	if uint64(len(data)) > f.UncompressedSize64 {
		return nil, newError(ctx, "inspect.size-mismatch", "file", a.name, "entry", name, "size", fmt.Sprint(f.UncompressedSize64))
	}
	return data, nil
}

func (a *Archive) tooLarge(ctx context.Context, entry string, size uint64, limit int64) error {
	if limit < entryReadLimit {
		return newError(ctx, "inspect.too-much-data", "file", a.name, "limit", totalReadLimit)
	}
	return newError(ctx, "inspect.entry-too-large", "file", a.name, "entry", entry,
		"size", fmt.Sprint(size), "limit", limit)
}

// projectRoot is where the project's files live inside the archive.
func (a *Archive) projectRoot() string { return a.Vendor() + "/" + a.ProjectName() + "/" }

// DescriptorEntry finds the project descriptor, {Vendor}/{Name}/Проект.yaml
// or Project.yaml after the manifest; the names are matched exactly first,
// then ignoring case (archives repacked by the server may lower-case them).
func (a *Archive) DescriptorEntry() (string, bool) {
	root := a.projectRoot()
	for _, file := range []string{DescriptorRU, DescriptorEN} {
		if _, ok := a.entries[root+file]; ok {
			return root + file, true
		}
	}
	for _, file := range []string{DescriptorRU, DescriptorEN} {
		for _, n := range a.names {
			if strings.EqualFold(n, root+file) {
				return n, true
			}
		}
	}
	return "", false
}

// Descriptor reads the project descriptor inside the archive. Its Dir is the
// project's directory inside the archive ({vendor}/{name}).
func (a *Archive) Descriptor(ctx context.Context) (*Descriptor, error) {
	if a.descriptor == nil && a.descriptorErr == nil {
		a.descriptor, a.descriptorErr = a.readDescriptor(ctx)
	}
	return a.descriptor, a.descriptorErr
}

func (a *Archive) readDescriptor(ctx context.Context) (*Descriptor, error) {
	entry, ok := a.DescriptorEntry()
	if !ok {
		return nil, newError(ctx, "inspect.no-project-file", "file", a.name, "vendor", a.Vendor(), "name", a.ProjectName())
	}
	data, err := a.ReadEntry(ctx, entry)
	if err != nil {
		return nil, err
	}
	d := ParseDescriptor(data, entry)
	d.Dir = path.Dir(entry)
	return d, nil
}

// Presentation is the descriptor's Представление/Presentation, or the
// manifest's Name when the descriptor has none or cannot be read: the name
// the console will show for the project.
func (a *Archive) Presentation(ctx context.Context) string {
	if d, err := a.Descriptor(ctx); err == nil && d.Presentation != "" {
		return d.Presentation
	}
	return a.ProjectName()
}

// DescriptorSpelling is how the archive's descriptor names its file and
// its Ид/Id key (Проект.yaml and Ид, or Project.yaml and Id); "", "" when
// the descriptor cannot be read.
func (a *Archive) DescriptorSpelling(ctx context.Context) (file, idKey string) {
	entry, ok := a.DescriptorEntry()
	d, err := a.Descriptor(ctx)
	if !ok || err != nil {
		return "", ""
	}
	return path.Base(entry), d.IDKey()
}

// ID is the descriptor's Ид/Id, "" when the descriptor has none or cannot
// be read.
func (a *Archive) ID(ctx context.Context) string {
	if d, err := a.Descriptor(ctx); err == nil {
		return d.ID
	}
	return ""
}
