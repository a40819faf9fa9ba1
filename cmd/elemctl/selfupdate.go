package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/selfupdate"
)

// selfUpdateCommand replaces this binary with a release of the feed
// (ELEMCTL_UPDATE_URL, else elemctl's GitHub releases). Its downloads go
// through the transport of the Console API client, so ELEMENT_CA_FILE,
// ELEMENT_TLS_VERIFY, the proxy settings and --timeout apply to them.
func (a *app) selfUpdateCommand(ctx context.Context, cmd *cobra.Command) {
	var want, stop string
	var check bool
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		mode, ok := selfupdate.ParseStopMode(stop)
		if !ok {
			return fmt.Errorf("%s", i18n.T(ctx, "cli.bad-choice", "name", "--stop-holders", "value", stop, "choices", "servers, all"))
		}
		// The stand's network settings; its credentials are not needed.
		cfg, _, err, _ := a.stands().Resolve(ctx, "", "")
		if err != nil {
			return &handlerError{err}
		}
		fetcher, err := platform.NewFetcher(ctx, cfg, platform.ClientOptions{
			UserAgent: "elemctl/" + versionText(),
			Warn:      a.warn,
			MaxBody:   selfupdate.MaxDownload,
		})
		if err != nil {
			return &handlerError{err}
		}
		defer fetcher.Close()
		res, err := selfupdate.Run(cmd.Context(), selfupdate.Options{
			Current: versionText(),
			Want:    want,
			Check:   check,
			Stop:    mode,
			Feed:    a.getenv(selfupdate.FeedVariable),
			Get:     fetcher,
			Log:     a.progress,
		})
		if err != nil {
			return &handlerError{err}
		}
		if err := a.printAnswer(res.Answer()); err != nil {
			return &handlerError{err}
		}
		return nil
	}
	f := cmd.Flags()
	f.StringVar(&want, "version", "", i18n.T(ctx, "selfupdate.flag.version"))
	f.BoolVar(&check, "check", false, i18n.T(ctx, "selfupdate.flag.check"))
	f.StringVar(&stop, "stop-holders", "", i18n.T(ctx, "selfupdate.flag.stop-holders"))
	f.Lookup("stop-holders").NoOptDefVal = string(selfupdate.StopServers)
	completeFlagValues(cmd, "stop-holders", []string{string(selfupdate.StopServers), string(selfupdate.StopAll)})
}
