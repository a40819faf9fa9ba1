package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/lsp"
)

// lspCommand serves the catalog to editors over stdio. No configuration is
// read at startup: each command resolves its stand from its own cwd and
// envFile. Only an explicit --env-file is checked first, so a typo fails
// here instead of on every command. The process ends with 0 after
// shutdown and exit, 1 otherwise (LSP "exit").
func (a *app) lspCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: i18n.T("lsp.cli-help"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			wd, out, done, err := a.startProtocol()
			if err != nil {
				return err
			}
			defer done()
			srv := lsp.New(lsp.Options{
				Catalog:           a.catalog,
				Version:           versionText(),
				Dir:               wd,
				Getenv:            a.getenv,
				EnvFile:           a.envFile,
				Overrides:         a.overrides(),
				AdoptClientLocale: a.lang == "" && a.getenv("ELEMCTL_LANG") == "",
				Stderr:            a.stderr,
			})
			err = srv.Serve(cmd.Context(), a.stdin, out)
			if errors.Is(err, lsp.ErrExitWithoutShutdown) {
				return &exitError{code: exitFailure}
			}
			if err != nil {
				return &handlerError{err}
			}
			return nil
		},
	}
}
