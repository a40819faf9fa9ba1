package schemaguard

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/elemctl/elemctl/internal/i18n"
)

// Finding codes. The first five destroy data and refuse the apply; the
// rest are removals the platform applies without asking.
const (
	LengthShrunk     = "length-shrunk"
	TypeChanged      = "type-changed"
	DimensionRemoved = "dimension-removed"
	ElementRemoved   = "element-removed"
	ElementReplaced  = "element-replaced"

	AttributeRemoved        = "attribute-removed"
	ResourceRemoved         = "resource-removed"
	TabularPartRemoved      = "tabular-part-removed"
	TabularAttributeRemoved = "tabular-attribute-removed"
)

// Blocks a field finding is about.
const (
	BlockAttribute        = "attribute"
	BlockDimension        = "dimension"
	BlockResource         = "resource"
	BlockTabularAttribute = "tabular-attribute"
)

// Finding is one thing the apply would do to data.
type Finding struct {
	Code string
	// File is the file the finding is about: the element's current path
	// (it may have moved), or its former path when it is gone.
	File string
	// Block and Field name a field (Field is its name, else its Ид); Part
	// is the tabular part of a tabular part's attribute.
	Block, Field, Part string
	// Element and Kind name a removed or replaced element.
	Element, Kind string
	// Old and New are the former and the new type, length or Ид.
	Old, New string
}

// Destructive tells whether the finding refuses the apply.
func (f Finding) Destructive() bool {
	switch f.Code {
	case LengthShrunk, TypeChanged, DimensionRemoved, ElementRemoved, ElementReplaced:
		return true
	}
	return false
}

// Line is the finding's line in the language of ctx.
func (f Finding) Line(ctx context.Context) string {
	what := ""
	if f.Block != "" {
		what = i18n.T(ctx, "schema.block-"+f.Block, "name", f.Field, "part", f.Part)
	}
	return i18n.T(ctx, "schema."+f.Code, "file", f.File, "what", what, "name", f.Field, "part", f.Part,
		"element", f.Element, "kind", f.Kind, "old", f.Old, "new", f.New)
}

// Result is the comparison: Changes destroy data, Removals are applied by
// the platform without asking.
type Result struct {
	Changes, Removals []Finding
}

// Lines renders findings in the language of ctx.
func Lines(ctx context.Context, fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Line(ctx)
	}
	return out
}

func (r *Result) add(f Finding) {
	if f.Destructive() {
		r.Changes = append(r.Changes, f)
	} else {
		r.Removals = append(r.Removals, f)
	}
}

// Compare compares the metadata files of the applied commit (old) with the
// project's current ones (cur). Keys are paths relative to the project
// directory with forward slashes; values are the files' bytes.
//
// An element is followed by its Ид: a file moved or renamed with the same
// Ид is compared at its new place. A data-holding element whose Ид no
// current file carries is removed (its file gone) or replaced (another
// Ид at its path). An element without an Ид is never taken for removed.
func Compare(old, cur map[string][]byte) Result {
	curIDs := make(map[string]string, len(cur)) // Ид → current path
	curIdent := make(map[string]identity, len(cur))
	names := elementNames{old: map[string]string{}, cur: map[string]string{}}
	for _, p := range sortedKeys(cur) {
		id := identify(cur[p])
		curIdent[p] = id
		if id.id != "" {
			if _, ok := curIDs[id.id]; !ok {
				curIDs[id.id] = p
			}
		}
		names.add(names.cur, id)
	}
	for _, p := range sortedKeys(old) {
		names.add(names.old, identify(old[p]))
	}
	// One step per old file in path order: a finding about the element
	// itself, or a comparison of its two versions. The comparisons parse
	// YAML and run in parallel; the results keep the steps' order.
	var steps []step
	for _, p := range sortedKeys(old) {
		data := old[p]
		if now, ok := cur[p]; ok && bytes.Equal(now, data) {
			continue
		}
		oi := identify(data)
		target := ""
		if oi.id != "" {
			ci, here := curIdent[p]
			switch moved, elsewhere := curIDs[oi.id]; {
			case here && ci.id == oi.id:
				target = p
			case elsewhere:
				target = moved
			case here && ci.id != "":
				if IsDataKind(oi.kind) {
					steps = append(steps, step{finding: &Finding{Code: ElementReplaced, File: p, Element: elementName(oi, p),
						Kind: oi.kind, Old: oi.id, New: ci.id}})
				}
				continue
			case here:
				target = p // the Ид line went; the element is taken as the same
			default:
				if IsDataKind(oi.kind) {
					steps = append(steps, step{finding: &Finding{Code: ElementRemoved, File: p, Element: elementName(oi, p),
						Kind: oi.kind, Old: oi.id}})
				}
				continue
			}
		} else {
			if _, here := cur[p]; !here {
				continue
			}
			target = p
		}
		if target != p && bytes.Equal(cur[target], data) {
			continue
		}
		steps = append(steps, step{file: target, old: data, new: cur[target]})
	}
	runSteps(steps, names)
	var r Result
	for _, st := range steps {
		if st.finding != nil {
			r.add(*st.finding)
		}
		r.Changes = append(r.Changes, st.result.Changes...)
		r.Removals = append(r.Removals, st.result.Removals...)
	}
	return r
}

// step is a finding, or a comparison of two versions of a file.
type step struct {
	finding  *Finding
	file     string
	old, new []byte
	result   Result
}

// elementNames tell the Ид of an element by its name, in the applied
// commit and now: types refer to elements by name.
type elementNames struct{ old, cur map[string]string }

// add records an element's name; a name two elements share names neither.
func (n elementNames) add(m map[string]string, id identity) {
	if id.id == "" || id.name == "" {
		return
	}
	if have, ok := m[id.name]; ok && have != id.id {
		m[id.name] = ""
		return
	}
	m[id.name] = id.id
}

// runSteps runs the comparisons of steps on all processors.
func runSteps(steps []step, names elementNames) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(steps), 1)) {
		wg.Go(func() {
			for i := range next {
				st := &steps[i]
				compareElements(&st.result, st.file, st.old, st.new, names)
			}
		})
	}
	for i := range steps {
		if steps[i].finding == nil {
			next <- i
		}
	}
	close(next)
	wg.Wait()
}

func elementName(id identity, path string) string {
	if id.name != "" {
		return id.name
	}
	return path
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// compareElements compares the blocks of one element in two versions of
// its file; file is its current path. A file YAML cannot read is left out.
func compareElements(r *Result, file string, oldData, newData []byte, names elementNames) {
	o, n := parseElement(oldData), parseElement(newData)
	if o == nil || n == nil {
		return
	}
	translated := o.lang != "" && n.lang != "" && o.lang != n.lang
	fields := []struct {
		keys    []string
		block   string
		removed string
	}{
		{keyAttributes, BlockAttribute, AttributeRemoved},
		{keyDimensions, BlockDimension, DimensionRemoved},
		{keyResources, BlockResource, ResourceRemoved},
	}
	for _, f := range fields {
		compareFields(r, file, o.root, n.root, f.keys, f.block, f.removed, "", translated, names)
	}

	oldParts, ok1 := block(o.root, keyTabularParts)
	newParts, ok2 := block(n.root, keyTabularParts)
	if !ok1 || !ok2 {
		return
	}
	pairs, removed := match(oldParts, newParts, translated)
	for _, p := range removed {
		r.add(Finding{Code: TabularPartRemoved, File: file, Field: p.label()})
	}
	for _, p := range pairs {
		compareFields(r, file, p.old.node, p.new.node, keyAttributes, BlockTabularAttribute, TabularAttributeRemoved,
			p.new.label(), translated, names)
	}
}

// compareFields compares one block of fields of two mappings.
func compareFields(r *Result, file string, o, n *yaml.Node, keys []string, blockName, removedCode, part string, translated bool, names elementNames) {
	olds, ok1 := block(o, keys)
	news, ok2 := block(n, keys)
	if !ok1 || !ok2 {
		return
	}
	pairs, removed := match(olds, news, translated)
	for _, it := range removed {
		r.add(Finding{Code: removedCode, File: file, Field: it.label(), Part: part})
	}
	for _, p := range pairs {
		f := Finding{File: file, Block: blockName, Field: p.new.label(), Part: part}
		ot, ok1 := typeOf(p.old.node, translated, names.old)
		nt, ok2 := typeOf(p.new.node, translated, names.cur)
		if ok1 && ok2 && ot != nt {
			f.Code, f.Old, f.New = TypeChanged, typeText(p.old.node), typeText(p.new.node)
			r.add(f)
			continue
		}
		if from, to, yes := shrunk(p.old.node, p.new.node); yes {
			f.Code, f.Old, f.New = LengthShrunk, formatNumber(from), formatNumber(to)
			r.add(f)
		}
	}
}
