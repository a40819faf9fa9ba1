package main

import (
	_ "embed"
	"runtime/debug"
	"strings"
)

// releaseText is the release number of this source tree, written once in
// the file VERSION beside this one: the Makefile reads the same file (a
// git tag vX.Y.Z on the commit wins there, and version_test.go checks the
// two agree). A release build states its version with
// -ldflags "-X main.version=..." (make build, make dist); a binary built
// with `go install github.com/elemctl/elemctl/cmd/elemctl@vX.Y.Z` reports
// the module version it was built from.
//
//go:embed VERSION
var releaseText string

// releaseVersion is the number of VERSION without the line end.
var releaseVersion = strings.TrimSpace(releaseText)

// version is set by the linker; "" means not set.
var version = ""

// versionText is the version this binary reports.
func versionText() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		// A tagged module version, not a pseudo-version of a checkout.
		if v := info.Main.Version; strings.HasPrefix(v, "v") && !strings.ContainsAny(v, "-+") {
			return strings.TrimPrefix(v, "v")
		}
	}
	return releaseVersion
}
