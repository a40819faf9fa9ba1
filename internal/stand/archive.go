package stand

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

const manifestName = "Assembly.yaml"

// archiveFile is one entry of a build archive.
type archiveFile struct {
	name string
	data []byte
}

// archive is a build archive as the stand understands it: the manifest,
// the root project's descriptor and the files.
type archive struct {
	files           []archiveFile
	manifest        map[string]string
	descriptorEntry string
	descriptor      descriptor
}

// descriptor holds the top-level keys of Проект.yaml/Project.yaml:
// scalars by value, blocks and lists as present (with their item count).
type descriptor struct {
	scalars map[string]string
	blocks  map[string]int
	lines   map[string]int // 1-based line of each top-level key
}

// get returns the first non-empty scalar among the bilingual key names.
func (d descriptor) get(keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(d.scalars[k]); v != "" {
			return v
		}
	}
	return ""
}

// present tells whether any of the keys has a value: a non-empty scalar, a
// nested block or a non-empty list.
func (d descriptor) present(keys ...string) bool {
	for _, k := range keys {
		if d.get(k) != "" {
			return true
		}
		if n, ok := d.blocks[k]; ok && n > 0 {
			return true
		}
	}
	return false
}

func (d descriptor) line(keys ...string) int {
	for _, k := range keys {
		if n, ok := d.lines[k]; ok {
			return n
		}
	}
	return 1
}

// Descriptor key names, Russian first.
var (
	keyID           = []string{"Ид", "Id"}
	keyVersion      = []string{"Версия", "Version"}
	keyPresentation = []string{"Представление", "Presentation"}
	keyKind         = []string{"ВидПроекта", "ProjectKind"}
	keyDevLanguage  = []string{"ЯзыкРазработки", "DevelopmentLanguage"}
	keyDefLanguage  = []string{"ЯзыкПоУмолчанию", "DefaultLanguage"}
	keyLocLanguages = []string{"ЯзыкиЛокализации", "LocalizationLanguages"}
	keyCompat       = []string{"РежимСовместимости", "CompatibilityMode"}
	keyVendorPres   = []string{"ПредставлениеПоставщика", "VendorPresentation"}
)

var errNotArchive = errors.New("the body is not a build archive (ZIP)")

// readArchive parses a build archive. It needs a ZIP with Assembly.yaml at
// the root; the descriptor may be missing (the caller decides what that
// means). Only the entries the stand reads (the manifest, YAML and .xbsl
// sources) are kept. An upload's archive (whole) is checked against lim
// first by its declared sizes, then entry by entry through limited
// readers, so a damaged archive or a zip bomb costs a refusal, not the
// stand's memory; a stored one was checked so when it came, and only the
// entries the stand reads are unpacked again.
func readArchive(data io.ReaderAt, size int64, lim Limits, whole bool) (*archive, error) {
	zr, err := zip.NewReader(data, size)
	if err != nil {
		return nil, errNotArchive
	}
	if len(zr.File) > lim.Entries {
		return nil, fmt.Errorf("%w: %d entries, the limit is %d", errUnpackLimit, len(zr.File), lim.Entries)
	}
	left := lim.UnpackedSize
	for _, f := range zr.File {
		if f.UncompressedSize64 > uint64(left) {
			return nil, fmt.Errorf("entry %s: %w", f.Name, unpackRefusal("the archive unpacks", lim.UnpackedSize))
		}
		left -= int64(f.UncompressedSize64)
	}
	a := &archive{}
	var manifest []byte
	haveManifest := false
	readLeft := lim.ReadSize
	for _, f := range zr.File {
		keep := keptEntry(f.Name)
		if strings.HasSuffix(f.Name, "/") || !keep && !whole {
			continue
		}
		b, err := unpackEntry(f, lim, readLeft, keep)
		if err != nil {
			return nil, err
		}
		readLeft -= int64(len(b))
		if f.Name == manifestName {
			manifest, haveManifest = b, true
			continue
		}
		if b != nil {
			a.files = append(a.files, archiveFile{name: f.Name, data: b})
		}
	}
	if !haveManifest {
		return nil, errors.New("the archive has no " + manifestName)
	}
	a.manifest = parseFlat(string(manifest))
	a.descriptorEntry = a.findDescriptor()
	if a.descriptorEntry != "" {
		a.descriptor = parseDescriptor(a.fileData(a.descriptorEntry))
	}
	return a, nil
}

// keptEntry tells the entries the stand reads: the manifest, YAML and
// .xbsl sources. Others are unpacked only to be checked.
func keptEntry(name string) bool {
	lower := strings.ToLower(name)
	return name == manifestName || strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".xbsl")
}

// unpackEntry unpacks one entry: into memory when keep (at most
// lim.EntrySize bytes, and at most readLeft), else as a stream that is
// only checked. The declared size is checked before anything is unpacked;
// data past it is refused, and reading to the end checks the entry's
// checksum.
func unpackEntry(f *zip.File, lim Limits, readLeft int64, keep bool) ([]byte, error) {
	if keep && f.UncompressedSize64 > uint64(lim.EntrySize) {
		return nil, fmt.Errorf("entry %s: %w", f.Name, unpackRefusal("it unpacks to "+strconv.FormatUint(f.UncompressedSize64, 10)+" bytes,", lim.EntrySize))
	}
	if keep && f.UncompressedSize64 > uint64(max(readLeft, 0)) {
		return nil, fmt.Errorf("entry %s: %w", f.Name, unpackRefusal("the manifest, YAML and sources unpack", lim.ReadSize))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", f.Name, err)
	}
	defer rc.Close()
	var b []byte
	var n int64
	if keep {
		// The declared size is bounded above: one allocation of it.
		b = make([]byte, f.UncompressedSize64)
		var got int
		got, err = io.ReadFull(rc, b)
		n = int64(got)
		if err == nil {
			var extra int64
			extra, err = io.Copy(io.Discard, io.LimitReader(rc, 1))
			n += extra
		}
	} else {
		n, err = io.Copy(io.Discard, io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	}
	if err == nil && n > int64(f.UncompressedSize64) {
		err = zip.ErrFormat
	}
	if err != nil {
		return nil, fmt.Errorf("entry %s: %w", f.Name, err)
	}
	return b, nil
}

func (a *archive) fileData(name string) []byte {
	for _, f := range a.files {
		if f.name == name {
			return f.data
		}
	}
	return nil
}

func isDescriptorName(base string) bool { return base == "Проект.yaml" || base == "Project.yaml" }

// findDescriptor locates the root project's descriptor: under the
// manifest's {Vendor}/{Name}/ first, then the shallowest descriptor.
func (a *archive) findDescriptor() string {
	dir := a.manifest["Vendor"] + "/" + a.manifest["Name"] + "/"
	for _, base := range []string{"Проект.yaml", "Project.yaml"} {
		for _, f := range a.files {
			if strings.EqualFold(f.name, dir+base) {
				return f.name
			}
		}
	}
	best, depth := "", 0
	for _, f := range a.files {
		if !isDescriptorName(path.Base(f.name)) {
			continue
		}
		d := strings.Count(f.name, "/")
		if best == "" || d < depth {
			best, depth = f.name, d
		}
	}
	return best
}

// parseFlat reads flat "key: value" lines (the manifest format).
func parseFlat(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		out[strings.TrimSpace(k)] = unquote(strings.TrimSpace(v))
	}
	return out
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// parseDescriptor reads the top level of a descriptor with a YAML parser,
// keeping scalars as written (1.0 stays "1.0"); text YAML cannot read falls
// back to flat lines.
func parseDescriptor(data []byte) descriptor {
	d := descriptor{scalars: map[string]string{}, blocks: map[string]int{}, lines: map[string]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &doc); err == nil &&
		len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			d.lines[k.Value] = k.Line
			switch v.Kind {
			case yaml.ScalarNode:
				if v.Tag == "!!null" {
					d.blocks[k.Value] = 0
				} else {
					d.scalars[k.Value] = v.Value
				}
			case yaml.SequenceNode, yaml.MappingNode:
				d.blocks[k.Value] = len(v.Content)
			default:
				d.blocks[k.Value] = 1
			}
		}
		return d
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		d.lines[k] = i + 1
		if v = unquote(strings.TrimSpace(v)); v != "" {
			d.scalars[k] = v
		} else {
			d.blocks[k] = 1
		}
	}
	return d
}

// Project kinds.
const (
	kindApplication = "Application"
	kindLibrary     = "Library"
	kindExtension   = "Extension"
	kindGroup       = "Group"
)

// kind is the project kind of the archive: the manifest's ProjectKind when
// it names one, else the descriptor's ВидПроекта.
func (a *archive) kind() string {
	switch strings.ToLower(a.manifest["ProjectKind"]) {
	case "application":
		return kindApplication
	case "library":
		return kindLibrary
	case "extension":
		return kindExtension
	}
	switch strings.ToLower(a.descriptor.get(keyKind...)) {
	case "библиотека", "library":
		return kindLibrary
	case "расширение", "extension":
		return kindExtension
	}
	return kindApplication
}

// base is the descriptor's base version (1.0 when absent).
func (a *archive) base() string {
	if v := a.descriptor.get(keyVersion...); v != "" {
		return v
	}
	return "1.0"
}

// compileFailure is what the server's compilation says about the archive:
// "" when it compiles, else the task error-message, whose first line
// starts with prefix (e.g. "Ошибка создания приложения").
func (s *Stand) compileFailure(a *archive, prefix string) string {
	if mode := a.descriptor.get(keyCompat...); mode != "" && !s.compat[mode] {
		lines := []string{prefix + ": Неизвестный режим совместимости " + mode}
		lines = append(lines, fmt.Sprintf("%s [%d:1]: <Сервер> Значение свойства \"РежимСовместимости\" не поддерживается сервером",
			a.descriptorEntry, a.descriptor.line(keyCompat...)))
		derived := 0
		for _, f := range a.files {
			if derived == 2 || f.name == a.descriptorEntry || !strings.HasSuffix(strings.ToLower(f.name), ".yaml") {
				continue
			}
			lines = append(lines, f.name+" [1:1]: <Сервер> Элемент не загружен: набор возможностей платформы не определён")
			derived++
		}
		return strings.Join(lines, "\n")
	}
	if a.descriptor.present(keyDefLanguage...) && !a.descriptor.present(keyLocLanguages...) {
		return prefix + ": Contact administrator for details"
	}
	markers := a.errorMarkers()
	if len(markers) == 0 {
		return ""
	}
	return prefix + ": " + strings.Join(markers, "\n")
}

// errorMarkers finds "#error <text>" lines of the .xbsl entries and turns
// each into a compile-error line "<entry> [<line>:<column>]: <Сервер> <text>".
func (a *archive) errorMarkers() []string {
	var out []string
	for _, f := range a.files {
		if !strings.HasSuffix(strings.ToLower(f.name), ".xbsl") {
			continue
		}
		text := strings.TrimPrefix(string(f.data), "\ufeff")
		for i, line := range strings.Split(text, "\n") {
			line = strings.TrimRight(line, "\r")
			body := strings.TrimLeft(line, " \t")
			rest, ok := strings.CutPrefix(body, "#error")
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			col := utf8.RuneCountInString(line[:len(line)-len(body)]) + 1
			out = append(out, fmt.Sprintf("%s [%d:%d]: <Сервер> %s", f.name, i+1, col, strings.TrimSpace(rest)))
		}
	}
	return out
}

// exportArchive repacks a build the way the console's export does:
// Assembly.yaml first, explicit directory entries, then the files. For a
// build uploaded into a project the manifest carries the server's Version
// and the upload time.
func (s *Stand) exportArchive(b *Build) ([]byte, error) {
	f, err := s.openArchive(b)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := zip.NewReader(f, f.size)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var names []string
	files := map[string]*zip.File{}
	var manifest []byte
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if f.Name == manifestName {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			manifest, err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
			continue
		}
		names = append(names, f.Name)
		files[f.Name] = f
	}
	if b.Route == routeProject {
		manifest = rewriteManifest(manifest, b.Version, b.Created)
	}
	mod := b.Created
	if err := writeZipFile(zw, manifestName, manifest, mod); err != nil {
		return nil, err
	}
	sort.Strings(names)
	dirs := map[string]bool{}
	for _, name := range names {
		parts := strings.Split(name, "/")
		for i := 1; i < len(parts); i++ {
			dir := strings.Join(parts[:i], "/") + "/"
			if dirs[dir] {
				continue
			}
			dirs[dir] = true
			if _, err := zw.CreateHeader(&zip.FileHeader{Name: dir, Method: zip.Store, Modified: mod}); err != nil {
				return nil, err
			}
		}
		// An entry goes from the stored archive into the answer as it is
		// packed, checked when it was uploaded: it may unpack to far more
		// than the archive holds.
		if err := zw.Copy(files[name]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeZipFile(zw *zip.Writer, name string, data []byte, mod time.Time) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// rewriteManifest replaces the Version and Created lines of a manifest.
func rewriteManifest(manifest []byte, version string, created time.Time) []byte {
	lines := strings.Split(string(manifest), "\n")
	for i, line := range lines {
		k, _, ok := strings.Cut(strings.TrimRight(line, "\r"), ":")
		switch {
		case ok && k == "Version":
			lines[i] = "Version: " + version
		case ok && k == "Created":
			lines[i] = "Created: " + manifestTime(created)
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// ArchiveSpec describes a build archive for MakeArchive.
type ArchiveSpec struct {
	// Manifest facts. Kind is Application (default), Library or Extension;
	// ManifestVersion defaults to 1.0 (1.1 for an extension).
	Vendor, Name, Version, Kind, ManifestVersion string
	Created                                      time.Time
	BranchName, CommitID                         string
	// Descriptor facts: Ид, Представление (default Name), Версия (default
	// the text of Version before its first hyphen, else 1.0),
	// РежимСовместимости.
	ID, Presentation, Base, CompatibilityMode string
	// Descriptor, when set, is the whole descriptor text instead of one
	// made from the fields above.
	Descriptor string
	// Files are project files by path relative to {Vendor}/{Name}/.
	Files map[string]string
}

// MakeArchive builds a build archive in the layout of spec/cli.md §5.5. It
// makes fixtures for seeds and tests; it is not a packer of projects.
func MakeArchive(spec ArchiveSpec) []byte {
	kind := spec.Kind
	if kind == "" {
		kind = kindApplication
	}
	mv := spec.ManifestVersion
	if mv == "" {
		mv = "1.0"
		if kind == kindExtension {
			mv = "1.1"
		}
	}
	created := spec.Created
	if created.IsZero() {
		created = time.Now()
	}
	var m strings.Builder
	fmt.Fprintf(&m, "ManifestVersion: %s\nProjectKind: %s\nVendor: %s\nName: %s\nVersion: %s\nCreated: %s\nBranchName: %s\nCommitId: %s\n",
		mv, kind, spec.Vendor, spec.Name, spec.Version, manifestTime(created), spec.BranchName, spec.CommitID)
	if kind == kindLibrary {
		m.WriteString("Release:\n")
	}
	desc := spec.Descriptor
	if desc == "" {
		base := spec.Base
		if base == "" {
			base = "1.0"
			if i := strings.Index(spec.Version, "-"); i > 0 {
				base = spec.Version[:i]
			}
		}
		pres := spec.Presentation
		if pres == "" {
			pres = spec.Name
		}
		ruKind := map[string]string{kindApplication: "Приложение", kindLibrary: "Библиотека", kindExtension: "Расширение"}[kind]
		var d strings.Builder
		if spec.ID != "" {
			fmt.Fprintf(&d, "Ид: %s\n", spec.ID)
		}
		fmt.Fprintf(&d, "Имя: %s\nПоставщик: %s\nВерсия: %s\nПредставление: %s\nВидПроекта: %s\nЯзыкРазработки: Русский\nЯзыкПоУмолчанию: Русский\nЯзыкиЛокализации:\n    - Русский\n",
			spec.Name, spec.Vendor, base, pres, ruKind)
		if spec.CompatibilityMode != "" {
			fmt.Fprintf(&d, "РежимСовместимости: %s\n", spec.CompatibilityMode)
		}
		desc = d.String()
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	root := spec.Vendor + "/" + spec.Name + "/"
	_ = writeZipFile(zw, manifestName, []byte(m.String()), created)
	_ = writeZipFile(zw, root+"Проект.yaml", []byte(desc), created)
	names := make([]string, 0, len(spec.Files))
	for n := range spec.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		_ = writeZipFile(zw, root+n, []byte(spec.Files[n]), created)
	}
	_ = zw.Close()
	return buf.Bytes()
}
