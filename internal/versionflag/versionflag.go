// Package versionflag answers `elemctl --version` while the program is
// still initialising. Scripts, CI jobs and the editor extension call it to
// learn whether elemctl is there and which one it is; answering from one of
// the first packages to initialise (it imports next to nothing, so Go
// initialises it before the protocol libraries, HTTP and the command
// catalog) skips most of a start. The CLI asks the same function, so both
// answers follow one rule.
package versionflag

import (
	"os"
	"strings"
)

// Version is elemctl's version, set at build time with
// -ldflags "-X github.com/elemctl/elemctl/internal/versionflag.Version=...".
var Version = "0.1.0"

// GlobalValueFlags are the global options that take a value; they may
// stand anywhere before a bare "--".
var GlobalValueFlags = []string{"base-url", "client-id", "client-secret", "env-file", "timeout", "lang"}

func init() {
	if Asked(os.Args[1:]) {
		os.Stdout.WriteString(Line())
		os.Exit(0)
	}
}

// Line is what --version prints.
func Line() string { return "elemctl " + Version + "\n" }

// Asked tells whether --version comes before any subcommand (after one, as
// in "self-update --version X", it is that command's own), global options
// and their values aside.
func Asked(args []string) bool {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--version":
			return true
		case arg == "--json" || arg == "--quiet":
		case strings.HasPrefix(arg, "--") && strings.Contains(arg, "=") && IsGlobalValueFlag(strings.SplitN(arg[2:], "=", 2)[0]):
		case strings.HasPrefix(arg, "--") && IsGlobalValueFlag(arg[2:]):
			i++ // its value
		default:
			return false
		}
	}
	return false
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
