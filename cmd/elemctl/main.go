// Command elemctl manages applications, projects and builds on the
// 1C:Enterprise.Element cloud through its Console API, and serves the same
// operations to AI agents (mcp), editors (lsp) and debuggers (dap).
package main

import (
	"os"

	"github.com/elemctl/elemctl/internal/dap"
	"github.com/elemctl/elemctl/internal/selfupdate"
)

func main() {
	if dap.IsReaperLaunch(os.Args[1:]) {
		// The debug adapter's keeper, started by `elemctl dap` (see
		// dap.RunReaper): nothing else of elemctl runs in it.
		os.Exit(dap.RunReaper(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	// Old binaries an update renamed aside (Windows) go once unused.
	selfupdate.RemoveLeftovers()
	registerMessages()
	os.Exit(newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv).run(os.Args[1:]))
}
