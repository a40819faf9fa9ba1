package main

import (
	"runtime/debug"
	"strings"
)

// releaseVersion is the version of this source tree. A release build
// states its own with -ldflags "-X main.version=..." (make build, make
// dist take it from the git tag); a binary built with
// `go install github.com/elemctl/elemctl/cmd/elemctl@vX.Y.Z` reports the
// module version it was built from.
const releaseVersion = "1.0.0"

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
