package main

import (
	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/mcp"
)

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
			srv := mcp.New(mcp.Options{
				Catalog: a.catalog,
				// Plugins that did not load (or whose tool name is taken)
				// are reported once on stderr, the rest keep working.
				PluginFailures: mcpPluginFailures(a),
				Version:        versionText(),
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
