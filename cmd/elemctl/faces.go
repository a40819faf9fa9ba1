package main

import "github.com/spf13/cobra"

// faceBuilders make the commands that are faces of their own (servers such
// as stand, mcp, lsp, dap) rather than catalog operations. Each face's file
// adds its builder from init.
var faceBuilders []func(*app) *cobra.Command

// catalogHooks run before the command tree is built, so they can add
// commands to a.catalog (plugins).
var catalogHooks []func(*app)

func (a *app) faceCommands() []*cobra.Command {
	out := make([]*cobra.Command, 0, len(faceBuilders))
	for _, build := range faceBuilders {
		out = append(out, build(a))
	}
	return out
}

func init() {
	faceBuilders = append(faceBuilders, (*app).standCommand)
}
