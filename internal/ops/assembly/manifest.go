package assembly

import (
	"strconv"
	"strings"
	"time"
)

// ManifestName is the archive's manifest, its first entry.
const ManifestName = "Assembly.yaml"

// CreatedLayout is the manifest's Created format (UTC).
const CreatedLayout = "2006.01.02 15:04:05"

// Manifest is what Assembly.yaml says about a build.
type Manifest struct {
	Kind, Vendor, Name, Version, Branch, Commit string
	Created                                     time.Time
}

// Bytes renders Assembly.yaml: LF line ends, a trailing newline, the keys in
// the platform's order; ManifestVersion 1.1 for extensions (the platform
// refuses them under 1.0), an empty Release line last for libraries.
func (m Manifest) Bytes() []byte {
	manifestVersion := "1.0"
	if m.Kind == KindExtension {
		manifestVersion = "1.1"
	}
	var b strings.Builder
	line := func(key, value string) {
		b.WriteString(key)
		b.WriteByte(':')
		if value != "" {
			b.WriteByte(' ')
			b.WriteString(yamlScalar(value))
		}
		b.WriteByte('\n')
	}
	line("ManifestVersion", manifestVersion)
	line("ProjectKind", m.Kind)
	line("Vendor", m.Vendor)
	line("Name", m.Name)
	line("Version", m.Version)
	line("Created", m.Created.UTC().Format(CreatedLayout))
	line("BranchName", m.Branch)
	line("CommitId", m.Commit)
	if m.Kind == KindLibrary {
		line("Release", "")
	}
	return []byte(b.String())
}

// yamlScalar writes v plain when a YAML reader would read it back as the
// same string, else double-quoted. Names, versions, branches and commits
// are plain in practice; quoting only guards against a value that would
// otherwise break the manifest (a newline, ": ", " #", a leading indicator).
func yamlScalar(v string) string {
	if plainSafe(v) {
		return v
	}
	return strconv.Quote(v)
}

func plainSafe(v string) bool {
	if v == "" || v != strings.TrimSpace(v) {
		return false
	}
	if strings.ContainsAny(v[:1], "-?:,[]{}#&*!|>'\"%@`") {
		// "-" is fine when it cannot start a list item ("-1" is not "- 1").
		if !(v[0] == '-' && len(v) > 1 && v[1] != ' ') {
			return false
		}
	}
	if strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":") {
		return false
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
