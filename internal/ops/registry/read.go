package registry

import (
	"bytes"
	"math"
	"os"
	"strings"
	"unicode"
)

// Entries are registry lines as read: one per build id, the last line of
// each id, in the order of those last lines.
type Entries []Entry

// Read returns the registry's entries. A missing or unreadable file is an
// empty registry; broken lines and lines that are not JSON objects are
// skipped; of several lines for one build id the last one wins.
func (r *Registry) Read() Entries {
	if r.path == "" {
		return nil
	}
	data, err := os.ReadFile(r.path)
	if err != nil {
		return nil
	}
	return Parse(data)
}

// Parse reads registry lines from data with the rules of Read.
func Parse(data []byte) Entries {
	text := string(data) // one copy; the entries' strings share it
	all := make(Entries, 0, strings.Count(text, "\n")+1)
	last := make(map[string]int, cap(all)) // build id -> index in all of its last line
	withID := 0
	for start := 0; start < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i
		}
		lo, hi := trimSpace(text, start, end)
		start = end + 1
		e, ok := parseLine(data[lo:hi], text[lo:hi])
		if !ok {
			continue
		}
		if e.AssemblyID != "" {
			last[e.AssemblyID] = len(all)
			withID++
		}
		all = append(all, e)
	}
	if withID == len(last) {
		return all
	}
	out := make(Entries, 0, len(all)-(withID-len(last)))
	for i, e := range all {
		if e.AssemblyID == "" || last[e.AssemblyID] == i {
			out = append(out, e)
		}
	}
	return out
}

// trimSpace is where text[lo:hi] begins and ends without the white space
// around it, as strings.TrimSpace cuts it.
func trimSpace(text string, lo, hi int) (int, int) {
	line := text[lo:hi]
	trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
	lo += len(line) - len(trimmed)
	return lo, lo + len(strings.TrimRightFunc(trimmed, unicode.IsSpace))
}

// ByAssembly indexes the entries by build id; lines without one are left
// out.
func (es Entries) ByAssembly() map[string]Entry {
	m := make(map[string]Entry, len(es))
	for _, e := range es {
		if e.AssemblyID != "" {
			m[e.AssemblyID] = e
		}
	}
	return m
}

// ForProject is the entries of one project, in registry order.
func (es Entries) ForProject(projectID string) Entries {
	var out Entries
	for _, e := range es {
		if projectID != "" && e.ProjectID == projectID {
			out = append(out, e)
		}
	}
	return out
}

// MaxVersion is the highest numbered version of base the registry
// remembers for the project (deploy counts the next number on from it
// when the platform's list has lost the newest builds).
func (es Entries) MaxVersion(projectID, base string) (string, bool) {
	best, bestCounter := "", -1
	for _, e := range es {
		if projectID == "" || e.ProjectID != projectID {
			continue
		}
		b, counter, numbered := SplitVersion(e.Version)
		if !numbered || b != base {
			continue
		}
		if counter > bestCounter {
			best, bestCounter = e.Version, counter
		}
	}
	return best, bestCounter >= 0
}

// ForApp is every upload the registry remembers for an application: the
// probe's build of a probe application, the builds deployed to it.
func (es Entries) ForApp(appID string) Entries {
	var out Entries
	for _, e := range es {
		if appID != "" && e.AppID == appID {
			out = append(out, e)
		}
	}
	return out
}

// ProbeEntries is the probe lines that name the application.
func (es Entries) ProbeEntries(appID string) Entries {
	var out Entries
	for _, e := range es {
		if appID != "" && e.Command == CommandProbe && e.AppID == appID {
			out = append(out, e)
		}
	}
	return out
}

// RecognizesProbe tells whether this machine's probe left the
// application: a probe line names it, or an older probe line without an
// application id uploaded the build the application runs.
func (es Entries) RecognizesProbe(appID, appliedBuildID string) bool {
	for _, e := range es {
		if e.Command != CommandProbe {
			continue
		}
		if appID != "" && e.AppID == appID {
			return true
		}
		if e.AppID == "" && appliedBuildID != "" && e.AssemblyID == appliedBuildID {
			return true
		}
	}
	return false
}

// ProjectOf is the project the registry remembers for a build id; the
// search for a build's owner looks there first.
func (es Entries) ProjectOf(assemblyID string) (string, bool) {
	for i := len(es) - 1; i >= 0; i-- {
		if e := es[i]; assemblyID != "" && e.AssemblyID == assemblyID && e.ProjectID != "" {
			return e.ProjectID, true
		}
	}
	return "", false
}

// ByAssembly reads the registry and indexes it by build id.
func (r *Registry) ByAssembly() map[string]Entry { return r.Read().ByAssembly() }

// ForProject reads the registry's entries of one project.
func (r *Registry) ForProject(projectID string) []Entry { return r.Read().ForProject(projectID) }

// MaxVersion reads the registry for the highest remembered version of a
// project within a base.
func (r *Registry) MaxVersion(projectID, base string) (string, bool) {
	return r.Read().MaxVersion(projectID, base)
}

// SplitVersion splits "{base}-{counter}" at the last hyphen. numbered is
// false when there is no hyphen or the tail is not all ASCII digits (a
// probe build's "1.0-probe-ab12cd34") or too large for an int; counter
// is then 0.
func SplitVersion(v string) (base string, counter int, numbered bool) { return splitVersion(v) }

// SplitVersionBytes is SplitVersion of a version's bytes, without a string
// made: a long build list splits every card's.
func SplitVersionBytes(v []byte) (base []byte, counter int, numbered bool) { return splitVersion(v) }

func splitVersion[T string | []byte](v T) (base T, counter int, numbered bool) {
	i := len(v) - 1
	for i >= 0 && v[i] != '-' {
		i--
	}
	if i < 0 {
		return v, 0, false
	}
	tail := v[i+1:]
	n := 0
	for j := 0; j < len(tail); j++ {
		d := int(tail[j]) - '0'
		if d < 0 || d > 9 {
			return v[:i], 0, false
		}
		if n > (math.MaxInt-d)/10 {
			return v[:i], 0, false // as strconv.Atoi refuses it
		}
		n = n*10 + d
	}
	if len(tail) == 0 {
		return v[:i], 0, false
	}
	return v[:i], n, true
}
