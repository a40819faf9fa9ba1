// Command elemctl manages applications, projects and builds on the
// 1C:Enterprise.Element cloud through its Console API, and serves the same
// operations to AI agents (mcp), editors (lsp) and debuggers (dap).
package main

import (
	"os"

	"github.com/elemctl/elemctl/internal/selfupdate"
)

func main() {
	// Old binaries an update renamed aside (Windows) go once unused.
	selfupdate.RemoveLeftovers()
	registerMessages()
	os.Exit(newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv).run(os.Args[1:]))
}
