//go:build tools

// Package deps pins the modules the project uses before their first import lands.
package deps

import (
	_ "github.com/google/go-dap"
	_ "github.com/mark3labs/mcp-go/server"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "go.lsp.dev/jsonrpc2"
	_ "go.lsp.dev/protocol"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/term"
)
