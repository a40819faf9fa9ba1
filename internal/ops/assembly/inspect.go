package assembly

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// subsystemDescriptors name a subsystem's own descriptor file; they are not elements.
var subsystemDescriptors = map[string]bool{"Подсистема.yaml": true, "Subsystem.yaml": true}

// Element is a described element of a project inside an archive.
type Element struct {
	Name      string // Имя/Name, else the file's stem
	Kind      string // ВидЭлемента/ElementKind
	Scope     string // ОбластьВидимости/VisibilityScope, defaulting in the file's own language
	Subsystem string // the first directory below the project root
	Namespace string // vendor::name::subsystem[::package...]
	Qualified string // Namespace::Name
	Entry     string // the archive entry
}

// Global tells whether the element is visible everywhere.
func (e Element) Global() bool { return e.Scope == "Глобально" || e.Scope == "Global" }

// Subsystem is a first-level directory of the project with its packages.
type Subsystem struct {
	Name      string
	Qualified string   // vendor::name::subsystem
	Packages  []string // directories below it as "a::b", sorted
	Global    int      // global elements inside it
}

// Elements lists the described elements of the archive's project, sorted
// by name: .yaml entries at least one directory below the project root,
// other than project and subsystem descriptors, that declare an element
// kind. Subsystems come from the directories of those elements and of
// subsystem descriptors, sorted by name.
func (a *Archive) Elements(ctx context.Context) ([]Element, []Subsystem, error) {
	entry, ok := a.DescriptorEntry()
	if !ok {
		return nil, nil, newError(ctx, "inspect.no-project-file", "file", a.name, "vendor", a.Vendor(), "name", a.ProjectName())
	}
	root := path.Dir(entry) + "/"
	ns := a.Vendor() + "::" + a.ProjectName()

	var elements []Element
	subsystems := map[string]*Subsystem{}
	packages := map[string]map[string]bool{}
	addDirs := func(dirs []string) *Subsystem {
		s := subsystems[dirs[0]]
		if s == nil {
			s = &Subsystem{Name: dirs[0], Qualified: ns + "::" + dirs[0]}
			subsystems[dirs[0]] = s
			packages[dirs[0]] = map[string]bool{}
		}
		for k := 2; k <= len(dirs); k++ {
			packages[dirs[0]][strings.Join(dirs[1:k], "::")] = true
		}
		return s
	}

	for _, name := range a.names {
		rel, ok := strings.CutPrefix(name, root)
		if !ok {
			continue
		}
		parts := strings.Split(rel, "/")
		file := parts[len(parts)-1]
		if len(parts) < 2 || !strings.EqualFold(path.Ext(file), ".yaml") || isDescriptorName(file) {
			continue
		}
		dirs := parts[:len(parts)-1]
		if subsystemDescriptors[file] {
			addDirs(dirs)
			continue
		}
		data, err := a.ReadEntry(ctx, name)
		if err != nil {
			return nil, nil, err
		}
		f := parseFlat(string(data))
		kind, english, present := f.pick("ВидЭлемента", "ElementKind")
		if !present || kind == "" {
			continue
		}
		el := Element{
			Name:      f.get("Имя", "Name"),
			Kind:      kind,
			Scope:     f.get("ОбластьВидимости", "VisibilityScope"),
			Subsystem: dirs[0],
			Namespace: ns + "::" + strings.Join(dirs, "::"),
			Entry:     name,
		}
		if el.Name == "" {
			el.Name = strings.TrimSuffix(file, path.Ext(file))
		}
		if el.Scope == "" {
			el.Scope = "ВПодсистеме"
			if english {
				el.Scope = "InSubsystem"
			}
		}
		el.Qualified = el.Namespace + "::" + el.Name
		s := addDirs(dirs)
		if el.Global() {
			s.Global++
		}
		elements = append(elements, el)
	}

	slices.SortStableFunc(elements, func(x, y Element) int {
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return strings.Compare(x.Qualified, y.Qualified)
	})
	var subs []Subsystem
	for name, s := range subsystems {
		s.Packages = slices.Sorted(func(yield func(string) bool) {
			for p := range packages[name] {
				if !yield(p) {
					return
				}
			}
		})
		subs = append(subs, *s)
	}
	slices.SortFunc(subs, func(x, y Subsystem) int { return strings.Compare(x.Name, y.Name) })
	return elements, subs, nil
}

// Inspect reads the archive at file and describes it: the `inspect`
// answer, keys in their documented order. warn (nil: dropped) gets a line
// for each of the archive's Refusals: what an upload refuses.
func Inspect(ctx context.Context, file string, warn func(string)) (*jsonx.Object, error) {
	a, err := ReadArchiveFile(ctx, file)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	if warn != nil {
		for _, r := range a.Refusals(ctx) {
			warn(i18n.T(ctx, "inspect.warning", "problem", r.Error()))
		}
	}
	return inspectArchive(ctx, a, file)
}

// inspectArchive describes an opened archive; file is how the answer names it.
func inspectArchive(ctx context.Context, a *Archive, file string) (*jsonx.Object, error) {
	d, err := a.Descriptor(ctx)
	if err != nil {
		return nil, err
	}
	elements, subs, err := a.Elements(ctx)
	if err != nil {
		return nil, err
	}
	subsystems := make([]any, 0, len(subs))
	for _, s := range subs {
		subsystems = append(subsystems, jsonx.New(
			"name", s.Name,
			"qualified", s.Qualified,
			"packages", nonNil(s.Packages),
			"global_types", s.Global,
		))
	}
	globals := []any{}
	for _, e := range elements {
		if e.Global() {
			globals = append(globals, jsonx.New(
				"name", e.Name,
				"kind", e.Kind,
				"scope", e.Scope,
				"subsystem", e.Subsystem,
				"namespace", e.Namespace,
				"qualified", e.Qualified,
				"entry", e.Entry,
			))
		}
	}
	return jsonx.New(
		"file", file,
		"manifest", a.Manifest(),
		"kind", a.Kind(),
		"vendor", a.Vendor(),
		"name", a.ProjectName(),
		"version", a.Version(),
		"compatibility", d.Compatibility,
		"representation", d.Presentation,
		"project", d.Fields,
		"subsystems", subsystems,
		"global_types", globals,
	), nil
}
