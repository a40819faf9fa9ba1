package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/lsp"
	"github.com/elemctl/elemctl/platform"
)

func init() {
	faceBuilders = append(faceBuilders, (*app).lspCommand)
}

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
			wd, _ := os.Getwd()
			if a.envFile != "" {
				if _, err := platform.EnvFilePath(a.envFile, wd); err != nil {
					return &handlerError{err}
				}
			}
			out := a.stdout
			// stdout belongs to the protocol: anything in the process that
			// prints to os.Stdout by mistake lands on stderr instead.
			if f, ok := out.(*os.File); ok && f == os.Stdout {
				os.Stdout = os.Stderr
				defer func() { os.Stdout = f }()
			}
			srv := lsp.New(lsp.Options{
				Catalog: a.catalog,
				Version: version,
				Dir:     wd,
				Getenv:  a.getenv,
				EnvFile: a.envFile,
				Overrides: platform.Overrides{
					BaseURL: a.baseURL, ClientID: a.clientID, ClientSecret: a.clientSecret, Timeout: a.timeout,
				},
				AdoptClientLocale: a.lang == "" && a.getenv("ELEMCTL_LANG") == "",
				Stderr:            a.stderr,
			})
			err := srv.Serve(cmd.Context(), a.stdin, out)
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
