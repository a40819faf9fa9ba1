package versionflag

import (
	"os"
	"slices"
	"testing"
)

// The arguments read from /proc are the ones package os has.
func TestCommandLineIsOsArgs(t *testing.T) {
	args, ok := commandLine()
	if !ok || !slices.Equal(args, os.Args[1:]) {
		t.Fatalf("commandLine() = %q, %v; os.Args[1:] = %q", args, ok, os.Args[1:])
	}
}
