package platform

import (
	"bytes"
	"strings"
)

// DotEnv is a parsed .env file: values in the order their keys first
// appeared, later duplicates overwriting earlier values.
type DotEnv struct {
	Keys   []string
	Values map[string]string
}

// Get returns the value of key and whether the file set it to something
// non-empty (an empty value is kept but does not count as set).
func (d *DotEnv) Get(key string) (string, bool) {
	if d == nil {
		return "", false
	}
	v, ok := d.Values[key]
	return v, ok && v != ""
}

// ParseDotEnv reads .env text with the rules users' files were written for:
// UTF-8 with an optional BOM; each line trimmed; blank lines and lines
// starting with # skipped; a leading "export " dropped; lines without "="
// skipped; split on the first "="; key and value trimmed; a value of at
// least two characters wrapped in the same quote (' or ") is unwrapped with
// no escape processing; later duplicates win.
func ParseDotEnv(data []byte) *DotEnv {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	env := &DotEnv{Values: map[string]string{}}
	for _, line := range strings.Split(string(data), "\n") {
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
		}
		if _, seen := env.Values[key]; !seen {
			env.Keys = append(env.Keys, key)
		}
		env.Values[key] = value
	}
	return env
}
