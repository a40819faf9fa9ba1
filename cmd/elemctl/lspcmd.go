package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/lsp"
	"github.com/elemctl/elemctl/internal/options"
)

// lspCommand serves the catalog to editors over stdio. No configuration is
// read at startup: each command resolves its stand from its own cwd and
// envFile. Only an explicit --env-file is checked first, so a typo fails
// here instead of on every command. The process ends with 0 after
// shutdown and exit, 1 otherwise (LSP "exit").
func (a *app) lspCommand(ctx context.Context, cmd *cobra.Command) {
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		wd, err := a.startProtocol(ctx)
		if err != nil {
			return err
		}
		srv := lsp.New(ctx, lsp.Options{
			Catalog:           a.catalog,
			Version:           versionText(),
			Dir:               wd,
			Getenv:            a.getenv,
			EnvFile:           a.str(options.EnvFile),
			Overrides:         a.overrides(),
			AdoptClientLocale: a.str(options.Lang) == "" && a.getenv("ELEMCTL_LANG") == "",
			Stderr:            a.stderr,
		})
		err = srv.Serve(cmd.Context(), a.stdin, a.stdout)
		if errors.Is(err, lsp.ErrExitWithoutShutdown) {
			return &exitError{code: exitFailure}
		}
		if err != nil {
			return &handlerError{err}
		}
		return nil
	}
}
