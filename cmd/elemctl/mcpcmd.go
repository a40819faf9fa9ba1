package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/mcp"
)

func init() {
	faceBuilders = append(faceBuilders, (*app).mcpCommand)
}

// mcpCommand serves the catalog to AI agents over stdio. No configuration
// is read at startup: each tool call resolves its stand (the startup one,
// or its env_file) through the server's client cache. Only an explicit
// --env-file is checked first, so a typo fails here instead of on every
// call.
func (a *app) mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: i18n.T("mcp.server.cli-help"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			wd, out, done, err := a.startProtocol()
			if err != nil {
				return err
			}
			defer done()
			tuneServerGC(a.getenv)
			srv := mcp.New(mcp.Options{
				Catalog: a.catalog,
				// Plugins that did not load (or whose tool name is taken)
				// are reported once on stderr, the rest keep working.
				PluginFailures: mcpPluginFailures(a),
				Version:        version,
				Dir:            wd,
				Getenv:         a.getenv,
				EnvFile:        a.envFile,
				Overrides:      a.overrides(),
				Stderr:         a.stderr,
			})
			defer srv.Close()
			if err := srv.Serve(cmd.Context(), a.stdin, out); err != nil {
				return &handlerError{err}
			}
			return nil
		},
	}
}

// tuneServerGC trades some memory for less collector work in the
// long-lived server: a call over thousands of cards allocates tens of
// megabytes that die at once, and the default pace collects them several
// times per call. A soft limit keeps the heap bounded; GOGC and GOMEMLIMIT
// in the environment win.
func tuneServerGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(128 << 20)
	}
}
