// Package earlystart prepares a start of elemctl before the rest of the
// program initialises. Imported by main, it depends only on what
// versionflag does, so Go initialises it right after versionflag has
// answered --version (or not) and ahead of the crypto stack, HTTP, the
// protocol libraries and the catalog, whose initialisation then runs on
// code already mapped in (see prefault) and on one processor.
package earlystart

import (
	"runtime"
	"syscall"

	"github.com/elemctl/elemctl/internal/prefault"
	"github.com/elemctl/elemctl/internal/versionflag"
)

// LongRunning are the commands that serve until stopped. They are left to
// map their pages as they use them (their start is paid once, and their
// resident memory should be what they use) and keep every processor.
var LongRunning = []string{"mcp", "lsp", "dap", "stand"}

// Packing are the commands that pack project sources, compressing files on
// every processor.
var Packing = []string{"build", "deploy", "probe"}

func init() {
	args, ok := versionflag.EarlyArgs()
	if !ok {
		return
	}
	if ShortLived(args) {
		prefault.Program()
	}
	if _, set := syscall.Getenv("GOMAXPROCS"); !set && OneProcessor(args) {
		runtime.GOMAXPROCS(1)
	}
}

// AdapterMainClass is the debug adapter's main class (dap.AdapterMainClass):
// a command line that names it is the JVM's, given to elemctl standing in
// for java, and serves a debug session like `elemctl dap`.
const AdapterMainClass = "com.e1c.g5rt.debugger.adapter.App"

// ShortLived tells whether a command line runs a command that ends by
// itself (everything but the protocol servers, the stand and a debug
// adapter's launch).
func ShortLived(args []string) bool {
	return !isOneOf(versionflag.FirstWord(args), LongRunning) && !isOneOf(AdapterMainClass, args)
}

// OneProcessor tells whether a command line's work fits one processor: a
// request or two and some JSON, or relaying a plugin's. A second one buys
// such a command nothing but threads the runtime starts to look for work,
// which on a small virtual machine cost it more than they give.
func OneProcessor(args []string) bool {
	word := versionflag.FirstWord(args)
	return ShortLived(args) && !isOneOf(word, Packing)
}

func isOneOf(word string, names []string) bool {
	for _, name := range names {
		if word == name {
			return true
		}
	}
	return false
}
