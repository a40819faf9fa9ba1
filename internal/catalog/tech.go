package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

func techGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"tech", "get"}, Order: 1, Examples: []string{"elemctl tech get crm-test"},
		Help: "cli.help.tech-get", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, Metavar: "APP_ID"}},
	}, func(ctx context.Context, cc *command.Context, in appInput) (any, error) {
		cl, id, err := TargetApp(ctx, cc, in.AppID, true)
		if err != nil {
			return nil, err
		}
		// The answer names the application as it was given.
		ref := in.AppID
		if ref == "" {
			ref = cl.Config().AppID
		}
		card, err := cl.GetApp(ctx, id)
		if err != nil {
			return nil, err
		}
		// The card is the only reliable reading: a dedicated endpoint
		// is missing on some platform versions.
		return jsonx.New("app-id", ref, "technology-version", card.Value("technology-version")), nil
	})
}

// techSetInput are the arguments techSetCommand reads.
type techSetInput struct {
	AppID   string `arg:"app-id"`
	Version string `arg:"version"`
}

func techSetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"tech", "set"}, Order: 2, Examples: []string{"elemctl tech set crm-test 8.0.30.1"},
		Help: "cli.help.tech-set",
		Args: []command.Argument{
			{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, Required: true, Metavar: "APP_ID"},
			{Name: "version", Help: "cli.arg.tech-version", Type: command.String, Positional: true, Required: true, Metavar: "VERSION"},
		},
	}, func(ctx context.Context, cc *command.Context, in techSetInput) (any, error) {
		cl, id, err := TargetApp(ctx, cc, in.AppID, false)
		if err != nil {
			return nil, err
		}
		body := jsonx.New("technology-version", in.Version, "applications", []any{id})
		return cl.Post(ctx, "/tasks/group-tasks/update-applications-technology", body)
	})
}
