//go:build !linux

package versionflag

import "os"

func init() {
	if Asked(os.Args[1:]) {
		os.Stdout.WriteString(Line())
		os.Exit(0)
	}
}

// EarlyArgs is the program's arguments after its name, for other packages
// that act during initialisation.
func EarlyArgs() ([]string, bool) { return os.Args[1:], true }
