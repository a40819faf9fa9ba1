package assembly

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// Descriptor file names, Russian first: when a directory holds both, the
// Russian one is the project's descriptor.
const (
	DescriptorRU = "Проект.yaml"
	DescriptorEN = "Project.yaml"
)

// Project kinds as the platform and the manifest spell them.
const (
	KindApplication = "Application"
	KindLibrary     = "Library"
	KindExtension   = "Extension"
)

// DefaultBaseVersion is the base version of a descriptor without Версия/Version.
const DefaultBaseVersion = "1.0"

// Descriptor is a project descriptor (Проект.yaml / Project.yaml) read flat:
// top-level keys only, each known key in Russian or English spelling with
// the Russian one winning when both are present.
type Descriptor struct {
	Path string // the descriptor file (an archive entry name for descriptors read from an archive)
	Dir  string // the project directory

	ID                  string // Ид/Id
	Name                string // Имя/Name
	Vendor              string // Поставщик/Vendor
	Version             string // Версия/Version, the base version; DefaultBaseVersion when absent
	Kind                string // ВидПроекта/ProjectKind normalised: KindApplication, KindLibrary or KindExtension
	Compatibility       string // РежимСовместимости/CompatibilityMode
	Presentation        string // Представление/Presentation
	DevelopmentLanguage string // ЯзыкРазработки/DevelopmentLanguage
	DefaultLanguage     string // ЯзыкПоУмолчанию/DefaultLanguage

	// HasLocalizationLanguages tells whether ЯзыкиЛокализации/LocalizationLanguages
	// names at least one language: an inline value other than [] or a nested block.
	HasLocalizationLanguages bool

	// English is true when the descriptor names the project with Name and
	// has no Имя: messages that suggest lines to add use its spelling.
	English bool

	// Libraries are the entries of Библиотеки/Libraries that name both a
	// vendor and a project, in file order.
	Libraries []ProjectRef

	// Fields holds every top-level key with its scalar value, in file order
	// (keys with a nested block have the value "").
	Fields *jsonx.Object
}

// ProjectRef names a project by vendor and name.
type ProjectRef struct{ Vendor, Name string }

func (r ProjectRef) String() string { return r.Vendor + "/" + r.Name }

// IDKey is how the descriptor spells its Ид/Id key: the key it carries,
// else Id in a descriptor that names the project with Name.
func (d *Descriptor) IDKey() string {
	switch {
	case d.Fields.Has("Ид"):
		return "Ид"
	case d.Fields.Has("Id"), d.English:
		return "Id"
	}
	return "Ид"
}

// ParseDescriptor reads descriptor text without judging it: a descriptor
// taken from an archive or from git history may lack fields that a build
// needs. path is recorded as is.
func ParseDescriptor(data []byte, path string) *Descriptor {
	f := parseFlat(string(data))
	d := &Descriptor{
		Path:                path,
		ID:                  f.get("Ид", "Id"),
		Vendor:              f.get("Поставщик", "Vendor"),
		Version:             f.get("Версия", "Version"),
		Kind:                descriptorKind(f.get("ВидПроекта", "ProjectKind")),
		Compatibility:       f.get("РежимСовместимости", "CompatibilityMode"),
		Presentation:        f.get("Представление", "Presentation"),
		DevelopmentLanguage: f.get("ЯзыкРазработки", "DevelopmentLanguage"),
		DefaultLanguage:     f.get("ЯзыкПоУмолчанию", "DefaultLanguage"),
		Fields:              f.fields,
	}
	d.Name, d.English, _ = f.pick("Имя", "Name")
	if d.Version == "" {
		d.Version = DefaultBaseVersion
	}
	if langs, _, present := f.pick("ЯзыкиЛокализации", "LocalizationLanguages"); present {
		inline := strings.Join(strings.Fields(langs), "")
		d.HasLocalizationLanguages = inline != "[]" && (inline != "" || strings.TrimSpace(f.blockOf("ЯзыкиЛокализации", "LocalizationLanguages")) != "")
	}
	if libs, _, present := f.pick("Библиотеки", "Libraries"); present && libs == "" {
		d.Libraries = parseProjectRefs(f.blockOf("Библиотеки", "Libraries"))
	}
	return d
}

// ReadDescriptor reads the descriptor of the project in dir (Проект.yaml
// first, then Project.yaml). Name and vendor are required.
func ReadDescriptor(ctx context.Context, dir string) (*Descriptor, error) {
	path := descriptorIn(dir)
	if path == "" {
		return nil, newError(ctx, "build.project-not-found", "dir", dir)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, wrapError(ctx, err, "build.descriptor-unreadable", "file", path, "error", err)
	}
	d := ParseDescriptor(data, path)
	d.Dir = dir
	if d.Name == "" {
		return nil, newError(ctx, "build.descriptor-no-field", "file", path, "field", "Имя/Name")
	}
	if d.Vendor == "" {
		return nil, newError(ctx, "build.descriptor-no-field", "file", path, "field", "Поставщик/Vendor")
	}
	return d, nil
}

// descriptorIn returns the descriptor file of dir, or "" when it has none.
func descriptorIn(dir string) string {
	for _, name := range []string{DescriptorRU, DescriptorEN} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// isDescriptorName tells whether a file name is a project descriptor's.
func isDescriptorName(name string) bool {
	return name == DescriptorRU || name == DescriptorEN
}

// FindProjectDir finds the project directory the way build does: base itself
// when it holds a descriptor, else the first directory below it that holds
// one (directories in name order, depth first, parents before children,
// excluded and hidden directories skipped). base "" means the current
// directory. The result is absolute.
func FindProjectDir(ctx context.Context, base string) (string, error) {
	if base == "" {
		base = "."
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return "", newError(ctx, "build.project-not-found", "dir", base)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", newError(ctx, "build.project-not-found", "dir", abs)
	}
	if found := findDescriptorDir(abs); found != "" {
		return found, nil
	}
	return "", newError(ctx, "build.project-not-found", "dir", abs)
}

func findDescriptorDir(dir string) string {
	if descriptorIn(dir) != "" {
		return dir
	}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if e.IsDir() && !ExcludedDir(e.Name()) {
			if found := findDescriptorDir(filepath.Join(dir, e.Name())); found != "" {
				return found
			}
		}
	}
	return ""
}

// CheckLayout checks the {repo}/{Vendor}/{Name}/<descriptor> rule and returns
// the repository root, the parent of the vendor directory.
func CheckLayout(ctx context.Context, d *Descriptor) (repoRoot string, err error) {
	dir := filepath.Clean(d.Dir)
	parent := filepath.Dir(dir)
	dirName, parentName := filepath.Base(dir), filepath.Base(parent)
	if !sameName(dirName, d.Name) || !sameName(parentName, d.Vendor) {
		return "", newError(ctx, "build.layout",
			"file", filepath.Base(d.Path), "vendor", d.Vendor, "name", d.Name,
			"parent", parentName, "dir", dirName)
	}
	return filepath.Dir(parent), nil
}

// sameName compares a directory name with a descriptor value. macOS may hand
// out Cyrillic names decomposed (и + breve for й), so both sides are composed
// first.
func sameName(dirName, value string) bool {
	return composeCyrillic(dirName) == composeCyrillic(value)
}

// composeCyrillic composes the only Cyrillic letters that have decomposed
// forms in everyday Russian text: й, Й, ё, Ё.
func composeCyrillic(s string) string {
	if !strings.ContainsAny(s, "\u0306\u0308") {
		return s
	}
	return cyrillicComposer.Replace(s)
}

var cyrillicComposer = strings.NewReplacer(
	"и\u0306", "й", "И\u0306", "Й", "е\u0308", "ё", "Е\u0308", "Ё",
)

// ParseKind reads a --kind value: application, library or extension, in
// English or Russian, any case.
func ParseKind(ctx context.Context, s string) (string, error) {
	if k, ok := knownKind(s); ok {
		return k, nil
	}
	return "", newError(ctx, "build.unknown-kind", "kind", s)
}

func knownKind(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "application", "приложение":
		return KindApplication, true
	case "library", "библиотека":
		return KindLibrary, true
	case "extension", "расширение":
		return KindExtension, true
	}
	return "", false
}

// descriptorKind reads ВидПроекта/ProjectKind; anything unknown is an
// application (no refusal is made for it: it would only be thrown away).
func descriptorKind(s string) string {
	if k, ok := knownKind(s); ok {
		return k
	}
	return KindApplication
}

// parseProjectRefs reads a nested list of {Имя/Name, Поставщик/Vendor}
// items. Items naming no vendor or no name, and text that is not a list of
// mappings, give nothing.
func parseProjectRefs(block string) []ProjectRef {
	if strings.TrimSpace(block) == "" {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("list:\n"+block), &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || len(top.Content) < 2 || top.Content[1].Kind != yaml.SequenceNode {
		return nil
	}
	var refs []ProjectRef
	for _, item := range top.Content[1].Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		values := map[string]string{}
		for i := 0; i+1 < len(item.Content); i += 2 {
			if k, v := item.Content[i], item.Content[i+1]; v.Kind == yaml.ScalarNode {
				values[k.Value] = strings.TrimSpace(v.Value)
			}
		}
		ref := ProjectRef{Vendor: firstOf(values, "Поставщик", "Vendor"), Name: firstOf(values, "Имя", "Name")}
		if ref.Vendor != "" && ref.Name != "" && !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	return refs
}

func firstOf(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return ""
}
