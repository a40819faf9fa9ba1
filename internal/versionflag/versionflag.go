// Package versionflag answers `elemctl --version` while the program is
// still initialising. Scripts, CI jobs and the editor extension call it to
// learn whether elemctl is there and which one it is; answering from one of
// the first packages to initialise skips setting up everything else (the
// protocol libraries, HTTP, the command catalog), most of a start. The
// package imports next to nothing for that reason – not even strings or,
// on Linux, os (see early_linux.go) – since Go initialises a package only
// after everything it imports. The CLI asks the same function, so both
// answers follow one rule.
package versionflag

// Version is elemctl's version, set at build time with
// -ldflags "-X github.com/elemctl/elemctl/internal/versionflag.Version=...".
var Version = "0.1.0"

// GlobalValueFlags are the global options that take a value; they may
// stand anywhere before a bare "--".
var GlobalValueFlags = []string{"base-url", "client-id", "client-secret", "env-file", "timeout", "lang"}

// Line is what --version prints.
func Line() string { return "elemctl " + Version + "\n" }

// Asked tells whether --version comes before any subcommand (after one, as
// in "self-update --version X", it is that command's own), global options
// and their values aside.
func Asked(args []string) bool {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, isOption := cutPrefix(arg, "--")
		switch {
		case arg == "--version":
			return true
		case arg == "--json" || arg == "--quiet":
		case isOption && hasEqualsAfterGlobalValueFlag(name):
		case isOption && IsGlobalValueFlag(name):
			i++ // its value
		default:
			return false
		}
	}
	return false
}

// FirstWord is the first argument that is neither a global option nor its
// value – the command's name – or "" when there is none or another option
// (or "--") comes first.
func FirstWord(args []string) string {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		name, isOption := cutPrefix(arg, "--")
		switch {
		case arg == "--json" || arg == "--quiet":
		case isOption && hasEqualsAfterGlobalValueFlag(name):
		case isOption && IsGlobalValueFlag(name):
			i++ // its value
		case len(arg) > 0 && arg[0] == '-':
			return ""
		default:
			return arg
		}
	}
	return ""
}

// IsGlobalValueFlag tells whether name (without dashes) is one of
// GlobalValueFlags.
func IsGlobalValueFlag(name string) bool {
	for _, f := range GlobalValueFlags {
		if f == name {
			return true
		}
	}
	return false
}

// hasEqualsAfterGlobalValueFlag tells "env-file=x" from "env-file".
func hasEqualsAfterGlobalValueFlag(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' {
			return IsGlobalValueFlag(s[:i])
		}
	}
	return false
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}
