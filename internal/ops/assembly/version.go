package assembly

import (
	"strconv"
	"strings"
)

// Version sources reported as "version-source".
const (
	SourceFlag      = "flag"
	SourceLastBuild = "last-build"
	SourceDefault   = "default"
)

// ciNumberVariables are the CI build-number variables, in the order they are
// consulted; the first all-digit one numbers the build.
var ciNumberVariables = []string{"CI_PIPELINE_IID", "GITHUB_RUN_NUMBER", "BUILD_NUMBER"}

// Counter is the build number of a version: the integer after the last "-",
// 0 when there is none or it is not a plain number. Versions are ordered by
// it, never as text ("1.0-10" is after "1.0-9").
func Counter(version string) int {
	i := strings.LastIndexByte(version, '-')
	if i < 0 {
		return 0
	}
	tail := version[i+1:]
	if !allDigits(tail) {
		return 0
	}
	n, err := strconv.Atoi(tail)
	if err != nil {
		return 0
	}
	return n
}

// Base is the version without its build number: the text before the last
// "-", or the whole version when it has no "-".
func Base(version string) string {
	if i := strings.LastIndexByte(version, '-'); i >= 0 {
		return version[:i]
	}
	return version
}

// KeepsNumbering tells whether the server keeps version as given when it
// numbers an upload into a project whose descriptor base is base: it must be
// {base}-{digits}. Any other version is renumbered by the server.
func KeepsNumbering(version, base string) bool {
	i := strings.LastIndexByte(version, '-')
	return i >= 0 && version[:i] == base && allDigits(version[i+1:])
}

// ResolveVersion picks the version of a build and says where it came from:
// an explicit version (flag), the next number after the last build
// (last-build), a CI build number (the variable's name) or {base}-1 (default).
// getenv nil means no environment.
func ResolveVersion(base, flagVersion, lastBuild string, getenv func(string) string) (version, source string) {
	if base == "" {
		base = DefaultBaseVersion
	}
	if v := strings.TrimSpace(flagVersion); v != "" {
		return v, SourceFlag
	}
	if last := strings.TrimSpace(lastBuild); last != "" {
		if Base(last) == base {
			return base + "-" + strconv.Itoa(Counter(last)+1), SourceLastBuild
		}
		return base + "-1", SourceLastBuild
	}
	if getenv != nil {
		for _, name := range ciNumberVariables {
			if n := strings.TrimSpace(getenv(name)); allDigits(n) {
				return base + "-" + n, name
			}
		}
	}
	return base + "-1", SourceDefault
}

// allDigits tells whether s is non-empty and made of ASCII digits only.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
