package platform

import (
	"strings"

	"github.com/elemctl/elemctl/internal/textenc"
)

// DotEnv is a parsed .env file: values in the order their keys first
// appeared, later duplicates overwriting earlier values.
type DotEnv struct {
	Keys   []string
	Values map[string]string
	// Encoding is how the file was written: "UTF-8", "UTF-8 with BOM",
	// "UTF-16 LE" or "UTF-16 BE".
	Encoding string
	// Notes are lines that parse but were hardly meant so, in file order.
	Notes []DotEnvNote
}

// DotEnvNote is a line of a .env that parses but was hardly meant so.
type DotEnvNote struct {
	Kind DotEnvNoteKind
	Key  string
	Line int // 1-based
	// Earlier is the line that set Key before, for a duplicate.
	Earlier int
}

// DotEnvNoteKind says what is odd about a line.
type DotEnvNoteKind int

const (
	// InlineComment: an unquoted value holds " #" – a comment after the
	// value, which the grammar does not know: it is part of the value.
	InlineComment DotEnvNoteKind = iota + 1
	// Duplicate: the key was set before; this later value wins.
	Duplicate
)

// Get returns the value of key and whether the file set it to something
// non-empty (an empty value is kept but does not count as set).
func (d *DotEnv) Get(key string) (string, bool) {
	if d == nil {
		return "", false
	}
	v, ok := d.Values[key]
	return v, ok && v != ""
}

// Encodings of .env files as messages name them.
const (
	EncodingUTF8    = textenc.UTF8
	EncodingUTF8BOM = textenc.UTF8BOM
	EncodingUTF16LE = textenc.UTF16LE
	EncodingUTF16BE = textenc.UTF16BE
	EncodingUTF32LE = textenc.UTF32LE
	EncodingUTF32BE = textenc.UTF32BE
	EncodingBinary  = textenc.Binary
)

// DotEnvEncodingError is a .env file in an encoding elemctl does not read:
// UTF-32, damaged UTF-16, or not text at all.
type DotEnvEncodingError = textenc.Error

// DecodeDotEnv turns the bytes of a .env file into text: UTF-8 (with or
// without a BOM) and UTF-16 (either byte order, with or without a mark),
// as Windows editors save it; see textenc.Decode.
func DecodeDotEnv(data []byte) (text, encoding string, err error) { return textenc.Decode(data) }

// ParseDotEnv reads .env bytes (any encoding DecodeDotEnv reads) with the
// rules users' files were written for: each line trimmed; blank lines and
// lines starting with # skipped; a leading "export " dropped; lines without
// "=" skipped; split on the first "="; key and value trimmed; a value of at
// least two characters wrapped in the same quote (' or ") is unwrapped with
// no escape processing; later duplicates win. A value is everything after
// the "=": a "#" there is no comment. Lines that parse but were hardly
// meant so – a comment after a value, a key set twice – are kept in Notes.
func ParseDotEnv(data []byte) (*DotEnv, error) {
	text, encoding, err := DecodeDotEnv(data)
	if err != nil {
		return nil, err
	}
	env := ParseDotEnvText(text)
	env.Encoding = encoding
	return env, nil
}

// ParseDotEnvText applies the line rules of ParseDotEnv to decoded text.
func ParseDotEnvText(text string) *DotEnv {
	env := &DotEnv{Values: map[string]string{}, Encoding: EncodingUTF8}
	lineOf := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			line = strings.TrimSpace(rest)
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if key == "" {
			continue
		}
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		} else if strings.Contains(value, " #") || strings.Contains(value, "\t#") {
			env.Notes = append(env.Notes, DotEnvNote{Kind: InlineComment, Key: key, Line: i + 1})
		}
		if earlier, seen := lineOf[key]; seen {
			env.Notes = append(env.Notes, DotEnvNote{Kind: Duplicate, Key: key, Line: i + 1, Earlier: earlier})
		} else {
			env.Keys = append(env.Keys, key)
		}
		lineOf[key] = i + 1
		env.Values[key] = value
	}
	return env
}
