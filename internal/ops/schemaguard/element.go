package schemaguard

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/elemctl/elemctl/internal/ops/assembly"
)

// Bilingual keys: the Russian spelling first.
var (
	keyID           = []string{"Ид", "Id"}
	keyName         = []string{"Имя", "Name"}
	keyType         = []string{"Тип", "Type"}
	keyAttributes   = []string{"Реквизиты", "Attributes"}
	keyDimensions   = []string{"Измерения", "Dimensions"}
	keyResources    = []string{"Ресурсы", "Resources"}
	keyTabularParts = []string{"ТабличныеЧасти", "TabularParts"}
	// lengthPairs are the length keys: each pair is compared first, then
	// the first length of either pair when no pair is on both sides.
	lengthPairs = [][]string{{"Длина", "Length"}, {"МаксимальнаяДлина", "MaxLength"}}
)

// dataKinds are the element kinds that hold data, in both spellings.
var dataKinds = map[string]bool{
	"Справочник": true, "Catalog": true,
	"Документ": true, "Document": true,
	"РегистрСведений": true, "InformationRegister": true,
	"РегистрНакопления": true, "AccumulationRegister": true,
	"НаборКонстант": true, "ConstantsSet": true,
	"ПланОбмена": true, "ExchangePlan": true,
	"ХранилищеНастроек": true, "SettingsStorage": true,
}

// IsDataKind tells whether an element of the kind holds data.
func IsDataKind(kind string) bool { return dataKinds[strings.TrimSpace(kind)] }

// primitiveTypes maps the English names of primitive types to the Russian
// ones, so a translated file compares equal.
var primitiveTypes = map[string]string{
	"String": "Строка", "Number": "Число", "Boolean": "Булево",
	"Date": "Дата", "DateTime": "ДатаВремя", "Time": "Время",
}

// identity is what the top level of a file says about its element. It is
// read flat, the way the build reads descriptors, so a file YAML cannot
// parse still names its element.
type identity struct{ id, kind, name string }

func identify(data []byte) identity {
	d := assembly.ParseDescriptor(data, "")
	kind := d.Fields.Str("ВидЭлемента")
	if kind == "" {
		kind = d.Fields.Str("ElementKind")
	}
	return identity{id: idKey(d.ID), kind: strings.TrimSpace(kind), name: strings.TrimSpace(d.Name)}
}

// idKey is an Ид in the form ids are compared in: the platform's ids are
// UUIDs, whose letters' case carries no meaning.
func idKey(id string) string { return strings.ToLower(strings.TrimSpace(id)) }

// element is a parsed metadata file.
type element struct {
	root *yaml.Node // the top-level mapping
	lang string     // "ru", "en" or "" by the spelling of its top-level keys
}

// parseElement parses a file; nil when it is no YAML mapping.
func parseElement(data []byte) *element {
	var doc yaml.Node
	if err := yaml.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &doc); err != nil {
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	return &element{root: root, lang: keysLanguage(root)}
}

// keysLanguage judges a mapping's spelling by its keys: Cyrillic keys
// mean Russian, Latin ones English; the majority wins.
func keysLanguage(m *yaml.Node) string {
	ru, en := 0, 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		switch {
		case strings.IndexFunc(k, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0:
			ru++
		case k != "":
			en++
		}
	}
	switch {
	case ru > en:
		return "ru"
	case en > ru:
		return "en"
	}
	return ""
}

// get returns the value of the first of keys the mapping has, its own or
// merged in with "<<" (a mapping or a list of them, the first one wins).
func get(m *yaml.Node, keys []string) (*yaml.Node, bool) {
	return getDepth(m, keys, 0)
}

func getDepth(m *yaml.Node, keys []string, depth int) (*yaml.Node, bool) {
	if m == nil || m.Kind != yaml.MappingNode || depth > 8 {
		return nil, false
	}
	for _, key := range keys {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key && m.Content[i].Tag != "!!merge" {
				return resolve(m.Content[i+1]), true
			}
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Tag != "!!merge" {
			continue
		}
		merged := resolve(m.Content[i+1])
		sources := []*yaml.Node{merged}
		if merged != nil && merged.Kind == yaml.SequenceNode {
			sources = merged.Content
		}
		for _, src := range sources {
			if v, ok := getDepth(resolve(src), keys, depth+1); ok {
				return v, true
			}
		}
	}
	return nil, false
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// scalar is a scalar value of a mapping, trimmed; "" when absent or not a
// scalar.
func scalar(m *yaml.Node, keys []string) string {
	v, ok := get(m, keys)
	if !ok || v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// item is one entry of a block: a field or a tabular part.
type item struct {
	node     *yaml.Node
	id, name string
}

// label is how messages name the item.
func (it item) label() string {
	if it.name != "" {
		return it.name
	}
	return it.id
}

// block reads a list block (Реквизиты, Измерения, …). readable is false
// for a form the guard cannot read (an inline list of names, a mapping,
// a scalar): such a block is left out of the comparison. An absent block,
// an empty value and an explicit [] are readable and empty.
func block(m *yaml.Node, keys []string) (items []item, readable bool) {
	v, ok := get(m, keys)
	if !ok || v == nil || (v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "")) {
		return nil, true
	}
	if v.Kind != yaml.SequenceNode {
		return nil, false
	}
	for _, c := range v.Content {
		c = resolve(c)
		if c == nil || c.Kind != yaml.MappingNode {
			return nil, false
		}
		items = append(items, item{node: c, id: idKey(scalar(c, keyID)), name: scalar(c, keyName)})
	}
	return items, true
}

// pair is an old item and the new item it became.
type pair struct{ old, new item }

// match pairs the old items with the new ones: by Ид, else by name. An old
// item with an Ид whose Ид is gone may still be found by name among new
// items without an Ид. Across a translation only items with an Ид count:
// names may be translated too. removed are the old items that are gone.
func match(olds, news []item, translated bool) (pairs []pair, removed []item) {
	byID := map[string]int{}
	byName := map[string]int{}
	byNameNoID := map[string]int{}
	for i, n := range news {
		if n.id != "" {
			if _, ok := byID[n.id]; !ok {
				byID[n.id] = i
			}
		} else if n.name != "" {
			if _, ok := byNameNoID[n.name]; !ok {
				byNameNoID[n.name] = i
			}
		}
		if n.name != "" {
			if _, ok := byName[n.name]; !ok {
				byName[n.name] = i
			}
		}
	}
	for _, o := range olds {
		switch {
		case o.id != "":
			if i, ok := byID[o.id]; ok {
				pairs = append(pairs, pair{o, news[i]})
			} else if i, ok := byNameNoID[o.name]; ok && !translated && o.name != "" {
				pairs = append(pairs, pair{o, news[i]})
			} else {
				removed = append(removed, o)
			}
		case translated || o.name == "":
			// not comparable: neither an Ид nor a name that keeps its meaning
		default:
			if i, ok := byName[o.name]; ok {
				pairs = append(pairs, pair{o, news[i]})
			} else {
				removed = append(removed, o)
			}
		}
	}
	return pairs, removed
}

// typeOf is the field's type in a comparable form: primitive names in
// Russian, the parts of a composite type sorted, references to elements
// by the element's Ид (names tells an element name's Ид). ok is false when
// the field names no type, or names it in a form that cannot be compared
// across a translation.
func typeOf(m *yaml.Node, translated bool, names map[string]string) (string, bool) {
	v, ok := get(m, keyType)
	if !ok || v == nil {
		return "", false
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
			return "", false
		}
		return normalizeType(v.Value, names), true
	case yaml.SequenceNode:
		var parts []string
		for _, c := range v.Content {
			c = resolve(c)
			if c == nil || c.Kind != yaml.ScalarNode {
				return canonical(v, translated, names)
			}
			parts = append(parts, normalizeType(c.Value, names))
		}
		slices.Sort(parts)
		return strings.Join(parts, "|"), len(parts) > 0
	}
	return canonical(v, translated, names)
}

// canonical renders a structured type as its data – keys sorted, strings
// normalised as types, without the file's comments, quoting, layout or
// anchors – so that writing it another way is no change. It compares
// only between files of one spelling.
func canonical(v *yaml.Node, translated bool, names map[string]string) (string, bool) {
	if translated {
		return "", false
	}
	var data any
	if err := v.Decode(&data); err != nil {
		return "", false
	}
	out, err := json.Marshal(normalizeData(data, names))
	if err != nil {
		return "", false
	}
	return string(out), true
}

// normalizeData normalises every string of decoded YAML as a type.
func normalizeData(v any, names map[string]string) any {
	switch x := v.(type) {
	case string:
		return normalizeType(x, names)
	case []any:
		for i := range x {
			x[i] = normalizeData(x[i], names)
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeData(x[k], names)
		}
	}
	return v
}

// referenceWords are the English words of reference types and their
// Russian ones.
var referenceWords = map[string]string{"Ref": "Ссылка", "Object": "Объект"}

// normalizeType puts a type expression such as "String|Число?" or
// "Товары.Ссылка" in one form: each part trimmed, primitive names and
// reference words in Russian, an element's name replaced by its Ид (so a
// renamed or translated element is the same type), parts sorted.
func normalizeType(s string, names map[string]string) string {
	parts := strings.Split(s, "|")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		optional := strings.HasSuffix(p, "?")
		base := strings.TrimSpace(strings.TrimSuffix(p, "?"))
		if ru, ok := primitiveTypes[base]; ok {
			base = ru
		} else {
			segments := strings.Split(base, ".")
			for j, seg := range segments {
				if id := names[seg]; id != "" {
					segments[j] = "#" + id
				} else if ru, ok := referenceWords[seg]; ok && j > 0 {
					segments[j] = ru
				}
			}
			base = strings.Join(segments, ".")
		}
		if optional {
			base += "?"
		}
		parts[i] = base
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}

// number reads a length value.
func number(m *yaml.Node, key string) (float64, bool) {
	v, ok := get(m, []string{key})
	if !ok || v == nil || v.Kind != yaml.ScalarNode {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v.Value), 64)
	return f, err == nil
}

// firstLength is the first length a field sets, in key order.
func firstLength(m *yaml.Node, keys []string) (string, float64, bool) {
	for _, k := range keys {
		if f, ok := number(m, k); ok {
			return k, f, true
		}
	}
	return "", 0, false
}

// shrunk tells whether the length of a field became smaller: per pair of
// keys (Длина/Length, МаксимальнаяДлина/MaxLength) when both sides set
// it, else the first length of either side.
func shrunk(o, n *yaml.Node) (from, to float64, yes bool) {
	compared := false
	for _, keys := range lengthPairs {
		_, of, ok1 := firstLength(o, keys)
		_, nf, ok2 := firstLength(n, keys)
		if ok1 && ok2 {
			compared = true
			if nf < of {
				return of, nf, true
			}
		}
	}
	if compared {
		return 0, 0, false
	}
	all := append(append([]string{}, lengthPairs[0]...), lengthPairs[1]...)
	_, of, ok1 := firstLength(o, all)
	_, nf, ok2 := firstLength(n, all)
	if ok1 && ok2 && nf < of {
		return of, nf, true
	}
	return 0, 0, false
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// typeText is the field's type as the file writes it, for messages.
func typeText(m *yaml.Node) string {
	v, ok := get(m, keyType)
	if !ok || v == nil {
		return ""
	}
	if v.Kind == yaml.ScalarNode {
		return strings.TrimSpace(v.Value)
	}
	out, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, f := range strings.Fields(string(out)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}
