package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
)

// standCommand runs the emulated stand on loopback until interrupted.
func (a *app) standCommand(ctx context.Context) *cobra.Command {
	var addr, writeEnv, seed, state string
	var speed float64
	cmd := &cobra.Command{
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if seed != "" && seed != "demo" {
				return fmt.Errorf("%s", i18n.T(ctx, "cli.bad-choice", "name", "--seed", "value", seed, "choices", "demo"))
			}
			s, err := stand.New(stand.Options{Speed: speed, StateFile: state})
			if err != nil {
				return &handlerError{err}
			}
			defer s.Close()
			// The demo: seeded once (a restored stand already has it), and
			// named again on every start, so --write-env writes the same ids.
			var demo *stand.DemoInfo
			if seed == "demo" {
				info, err := s.SeedDemo()
				if err != nil {
					return &handlerError{err}
				}
				demo = &info
			} else if info, ok := s.Demo(); ok {
				demo = &info
			}
			base, err := listenStand(ctx, s, addr, cmd.Flags().Changed("addr"), a.progress)
			if err != nil {
				return &handlerError{err}
			}
			answer := jsonx.New("base-url", base, "client-id", s.ClientID(), "client-secret", s.ClientSecret())
			if demo != nil {
				answer.Set("space-id", demo.SpaceID).Set("project-id", demo.ProjectID).Set("app-id", demo.AppID).Set("app-name", demo.AppName)
			}
			if writeEnv != "" {
				if err := writeStandEnv(writeEnv, base, s.ClientID(), s.ClientSecret(), demo); err != nil {
					return &handlerError{err}
				}
				abs, _ := filepath.Abs(writeEnv)
				answer.Set("env-file", abs)
			}
			if err := a.printAnswer(answer); err != nil {
				return &handlerError{err}
			}
			a.progress(i18n.T(ctx, "cli.stand-serving", "url", base))
			<-cmd.Context().Done()
			a.progress(i18n.T(ctx, "cli.stand-stopped"))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", i18n.T(ctx, "cli.flag.stand-addr"))
	f.StringVar(&writeEnv, "write-env", "", i18n.T(ctx, "cli.flag.stand-write-env"))
	f.StringVar(&seed, "seed", "", i18n.T(ctx, "cli.flag.stand-seed"))
	f.StringVar(&state, "state", "", i18n.T(ctx, "cli.flag.stand-state"))
	f.Float64Var(&speed, "speed", 1, i18n.T(ctx, "cli.flag.stand-speed"))
	_ = f.MarkHidden("no-proxy")
	return cmd
}

// listenStand serves the stand at addr. Without an explicit --addr a
// restored stand takes the address it served on before, so the base URL of
// an existing .env stays right; when that one is taken, a free port is
// taken and the user is told.
func listenStand(ctx context.Context, s *stand.Stand, addr string, explicit bool, progress func(string)) (string, error) {
	if last := s.LastAddress(); !explicit && last != "" && last != addr {
		base, err := s.Listen(last)
		if err == nil {
			return base, nil
		}
		progress(i18n.T(ctx, "cli.stand-address-taken", "address", last))
	}
	return s.Listen(addr)
}

// writeStandEnv writes a ready .env for the stand; the file holds the
// client secret, so it is private to the user.
func writeStandEnv(path, base, id, secret string, demo *stand.DemoInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=%s\n", base, id, secret)
	// A local stand is never reached through the environment's proxy.
	b.WriteString("ELEMCTL_NO_PROXY=1\n")
	if demo != nil {
		fmt.Fprintf(&b, "ELEMENT_APP_ID=%s\nELEMENT_PROJECT_ID=%s\nELEMENT_SPACE_ID=%s\n", demo.AppID, demo.ProjectID, demo.SpaceID)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return &platform.Error{Kind: platform.KindGeneral, Message: err.Error(), Err: err}
	}
	return nil
}
