package assembly

import (
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// flatYAML is the top level of a 1C:Element YAML file read the way the
// platform's own tools read descriptors and manifests: only unindented
// `key: value` lines count; nested blocks are kept as raw text for the few
// keys (such as the library list) that need a closer look.
type flatYAML struct {
	fields *jsonx.Object     // key → scalar value, in file order
	blocks map[string]string // key → the indented lines under it ("" when none)
}

// parseFlat reads the top-level keys of text. Blank lines, comments,
// indented lines and list items are skipped; surrounding quotes are removed.
// When a key repeats, the later value wins (YAML tools differ here; the last
// one is what a reader of the file sees last).
func parseFlat(text string) flatYAML {
	text = strings.TrimPrefix(text, "\ufeff")
	f := flatYAML{fields: &jsonx.Object{}, blocks: map[string]string{}}
	current := ""
	var block strings.Builder
	flush := func() {
		if current != "" {
			f.blocks[current] = block.String()
		}
		block.Reset()
	}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' || line[0] == '-' {
			if current != "" {
				block.WriteString(line)
				block.WriteByte('\n')
			}
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			flush()
			current = ""
			continue
		}
		flush()
		key = unquote(strings.TrimSpace(key))
		current = key
		f.fields.Set(key, scalar(value))
	}
	flush()
	return f
}

// scalar turns the text after "key:" into its value: quotes removed, an
// unquoted trailing " # comment" dropped.
func scalar(raw string) string {
	v := strings.TrimSpace(raw)
	if v == "" {
		return ""
	}
	if v[0] == '"' || v[0] == '\'' {
		if end := strings.LastIndexByte(v, v[0]); end > 0 {
			return unquote(v[:end+1])
		}
		return v
	}
	if v[0] == '#' {
		return ""
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// unquote removes one pair of matching surrounding quotes. In single quotes
// a doubled quote stands for one; in double quotes the common backslash
// escapes are honoured.
func unquote(v string) string {
	if len(v) < 2 || v[0] != v[len(v)-1] {
		return v
	}
	switch v[0] {
	case '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	case '"':
		inner := v[1 : len(v)-1]
		if !strings.Contains(inner, `\`) {
			return inner
		}
		var b strings.Builder
		for i := 0; i < len(inner); i++ {
			c := inner[i]
			if c != '\\' || i+1 == len(inner) {
				b.WriteByte(c)
				continue
			}
			i++
			switch inner[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '/':
				b.WriteByte(inner[i])
			default:
				b.WriteByte('\\')
				b.WriteByte(inner[i])
			}
		}
		return b.String()
	}
	return v
}

// pick returns the value of the Russian key when present, else of the
// English one; english tells whether the English key was the one used.
func (f flatYAML) pick(ru, en string) (value string, english, present bool) {
	if f.fields.Has(ru) {
		return f.fields.Str(ru), false, true
	}
	if f.fields.Has(en) {
		return f.fields.Str(en), true, true
	}
	return "", false, false
}

func (f flatYAML) get(ru, en string) string {
	v, _, _ := f.pick(ru, en)
	return v
}

// blockOf returns the nested lines under the key that pick would choose.
func (f flatYAML) blockOf(ru, en string) string {
	if f.fields.Has(ru) {
		return f.blocks[ru]
	}
	return f.blocks[en]
}
