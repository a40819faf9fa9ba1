// Command elemctl manages applications, projects and builds on the
// 1C:Enterprise.Element cloud through its Console API, and serves the same
// operations to AI agents (mcp), editors (lsp) and debuggers (dap).
package main

import "os"

func main() {
	os.Exit(newApp(os.Stdin, os.Stdout, os.Stderr, os.Getenv).run(os.Args[1:]))
}
