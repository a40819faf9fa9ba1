// Package earlystart prepares a start of elemctl before the rest of the
// program initialises. Imported by main, it depends only on what
// versionflag does, so Go initialises it right after versionflag has
// answered --version (or not) and ahead of the crypto stack, HTTP, the
// protocol libraries and the catalog, whose initialisation then runs on
// code already mapped in (see prefault).
package earlystart

import (
	"github.com/elemctl/elemctl/internal/prefault"
	"github.com/elemctl/elemctl/internal/versionflag"
)

// longRunning are the commands that serve until stopped. They are left to
// map their pages as they use them: their start is paid once, and their
// resident memory should be what they use.
var longRunning = []string{"mcp", "lsp", "dap", "stand"}

func init() {
	if args, ok := versionflag.EarlyArgs(); ok && ShortLived(args) {
		prefault.Program()
	}
}

// ShortLived tells whether a command line runs a command that ends by
// itself (everything but the protocol servers and the stand).
func ShortLived(args []string) bool {
	word := versionflag.FirstWord(args)
	for _, name := range longRunning {
		if word == name {
			return false
		}
	}
	return true
}
