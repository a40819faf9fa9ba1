package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

func techGetCommand() *command.Command {
	return &command.Command{
		Path: []string{"tech", "get"}, Order: 1, Examples: []string{"elemctl tech get crm-test"},
		Help: "cli.help.tech-get", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, Metavar: "APP_ID"}},
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			cl, id, err := TargetApp(ctx, cc, in.Str("app-id"), true)
			if err != nil {
				return nil, err
			}
			// The answer names the application as it was given.
			ref := in.Str("app-id")
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
		},
	}
}

func techSetCommand() *command.Command {
	return &command.Command{
		Path: []string{"tech", "set"}, Order: 2, Examples: []string{"elemctl tech set crm-test 8.0.30.1"},
		Help: "cli.help.tech-set",
		Args: []command.Argument{
			{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, Required: true, Metavar: "APP_ID"},
			{Name: "version", Help: "cli.arg.tech-version", Type: command.String, Positional: true, Required: true, Metavar: "VERSION"},
		},
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			cl, id, err := TargetApp(ctx, cc, in.Str("app-id"), false)
			if err != nil {
				return nil, err
			}
			body := jsonx.New("technology-version", in.Str("version"), "applications", []any{id})
			return cl.Post(ctx, "/tasks/group-tasks/update-applications-technology", body)
		},
	}
}
