package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/dap"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/debugsession"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin"
)

// dapCommand serves DAP on stdio: stdout belongs to the protocol.
func (a *app) dapCommand(ctx context.Context, cmd *cobra.Command) {
	var adapterDir, java string
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		_, err := a.startProtocol(ctx)
		if err != nil {
			return err
		}
		code, err := dap.Run(cmd.Context(), dap.Options{
			Stdin:         a.stdin,
			Stdout:        a.stdout,
			Stderr:        a.stderr,
			AdapterDir:    adapterDir,
			Java:          java,
			Getenv:        a.getenv,
			LocateAdapter: func() (string, error) { return plugin.LocateAdapter(ctx, a.getenv) },
			Session:       a.debugSession,
			// As the LSP face: the editor's language, unless the
			// user chose one.
			AdoptClientLocale: a.str(options.Lang) == "" && a.getenv("ELEMCTL_LANG") == "",
			Reaper:            reaperPath(),
		})
		if err != nil && cmd.Context().Err() == nil {
			return &handlerError{err}
		}
		if code != 0 {
			return &exitError{code: code}
		}
		return nil
	}
	cmd.Flags().StringVar(&adapterDir, "adapter", "", i18n.T(ctx, "cli.flag.dap-adapter"))
	cmd.Flags().StringVar(&java, "java", "", i18n.T(ctx, "cli.flag.dap-java"))
}

// debugSession looks the attach's application up with the same client
// rules as every other command; an attach without envFile uses --env-file.
func (a *app) debugSession(ctx context.Context, req dap.SessionRequest) (*dap.SessionInfo, error) {
	envFile := req.EnvFile
	if envFile == "" {
		envFile = a.str(options.EnvFile)
	}
	s, err := debugsession.Lookup(ctx, debugsession.Options{
		Getenv:    a.getenv,
		Overrides: a.overrides(),
		Client:    platform.ClientOptions{UserAgent: "elemctl/" + versionText(), Warn: a.warn},
	}, req.AppRef, envFile, req.Cwd)
	if err != nil {
		return nil, err
	}
	return &dap.SessionInfo{
		AppID: s.AppID, Card: s.Card, BaseURL: s.BaseURL,
		DebugToken: s.DebugToken, DebugAddress: s.DebugAddress, ClientDebugAddress: s.ClientDebugAddress,
	}, nil
}

var dapMessages = []i18n.Message{
	{Key: "cli.help.dap",
		RU: "DAP-прокси перед отладчиком платформы: запускает его и дополняет attach данными сеанса",
		EN: "DAP proxy in front of the platform's debug adapter: starts it and completes attach with the session",
	},
	{Key: "cli.flag.dap-adapter",
		RU: "каталог отладчика (с repo/com.e1c.g5rt.debugger.adapter*.jar)",
		EN: "the debug adapter directory (holding repo/com.e1c.g5rt.debugger.adapter*.jar)",
	},
	{Key: "cli.flag.dap-java", RU: "путь к java (по умолчанию JAVA_HOME, затем PATH)", EN: "the java executable (default: JAVA_HOME, then PATH)"},
}

// reaperPath is this elemctl, which keeps the debug adapter's process
// tree (dap.RunReaper); "" when it cannot be told.
func reaperPath() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
