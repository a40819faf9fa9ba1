package catalog

import (
	"context"
	"net/url"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// dumpsCreateInput are the arguments dumpsCreateCommand reads.
type dumpsCreateInput struct {
	AppID       string `arg:"app-id"`
	Description string `arg:"description"`
}

func dumpsCreateCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"dumps", "create"}, Order: 1, Examples: []string{"elemctl dumps create crm-test --description \"before the upgrade\""},
		Help: "cli.help.dumps-create",
		Args: []command.Argument{
			AppArg(false),
			{Name: "description", Help: "cli.arg.dump-description", Type: command.String, Metavar: "D"},
		},
	}, func(ctx context.Context, cc *command.Context, in dumpsCreateInput) (any, error) {
		cl, id, err := TargetApp(ctx, cc, in.AppID, true)
		if err != nil {
			return nil, err
		}
		body := jsonx.New("include-users", true, "include-binary-data", true, "description", in.Description)
		return cl.Post(ctx, "/applications/"+url.PathEscape(id)+"/dumps", body)
	})
}

// dumpsGetInput are the arguments dumpsGetCommand reads.
type dumpsGetInput struct {
	AppID  string `arg:"app-id"`
	DumpID string `arg:"dump-id"`
}

func dumpsGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"dumps", "get"}, Order: 2, Examples: []string{"elemctl dumps get crm-test DUMP_ID"},
		Help: "cli.help.dumps-get", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{
			{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, Required: true, Metavar: "APP_ID"},
			{Name: "dump-id", Help: "cli.arg.dump-id", Type: command.String, Positional: true, Required: true, Metavar: "DUMP_ID"},
		},
	}, func(ctx context.Context, cc *command.Context, in dumpsGetInput) (any, error) {
		cl, id, err := TargetApp(ctx, cc, in.AppID, false)
		if err != nil {
			return nil, err
		}
		return cl.Get(ctx, "/applications/"+url.PathEscape(id)+"/dumps/"+url.PathEscape(in.DumpID), nil)
	})
}
