package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// AppArg is the application reference taken positionally or with --app-id.
func AppArg(required bool) command.Argument {
	return command.Argument{Name: "app-id", Help: "cli.arg.app-id", Type: command.String, Positional: true, CLIAlias: "--app-id", Metavar: "APP_ID", Required: required}
}

// ToolAppArg is the MCP app_id parameter.
func ToolAppArg() command.Argument {
	return command.Argument{Name: "app_id", Help: "mcp.arg.app-id", Type: command.String, Required: true}
}

// TargetApp returns the call's client and the application a command
// addresses (see AppID).
func TargetApp(ctx context.Context, cc *command.Context, ref string, envDefault bool) (*platform.Client, string, error) {
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, "", err
	}
	id, err := AppID(ctx, cc, cl, ref, envDefault)
	if err != nil {
		return nil, "", err
	}
	return cl, id, nil
}

// AppID resolves the application a command addresses: the given reference
// (UUID or exact name), else – when envDefault – ELEMENT_APP_ID; missing,
// it is an error naming where it could have come from.
func AppID(ctx context.Context, cc *command.Context, cl *platform.Client, ref string, envDefault bool) (string, error) {
	if ref == "" && envDefault {
		ref = cl.Config().AppID
	}
	if ref == "" {
		key := "cli.app-id-missing"
		if !envDefault {
			key = "cli.app-id-missing-no-env"
		}
		return "", platform.ConfigErrorf(ctx, key)
	}
	return cl.ResolveApp(ctx, ref)
}

// ProjectID is the project a command addresses: the given one, else
// ELEMENT_PROJECT_ID; missing is an error naming flagForm.
func ProjectID(ctx context.Context, cl *platform.Client, given string, positional bool) (string, error) {
	if given != "" {
		return given, nil
	}
	if p := cl.Config().ProjectID; p != "" {
		return p, nil
	}
	if positional {
		return "", platform.ConfigErrorf(ctx, "cli.project-id-missing-positional")
	}
	return "", platform.ConfigErrorf(ctx, "cli.project-id-missing")
}

var commonMessages = []i18n.Message{
	{Key: "cli.app-id-missing",
		RU: "не задано app-id (аргумент APP_ID или ELEMENT_APP_ID)",
		EN: "app-id (APP_ID argument or ELEMENT_APP_ID) is not set",
	},
	{Key: "cli.app-id-missing-no-env",
		RU: "не задано app-id (аргумент APP_ID или --app-id)",
		EN: "app-id (APP_ID argument or --app-id) is not set",
	},
	{Key: "cli.project-id-missing",
		RU: "не задано --project-id (или ELEMENT_PROJECT_ID)",
		EN: "--project-id (or ELEMENT_PROJECT_ID) is not set",
	},
	{Key: "cli.project-id-missing-positional",
		RU: "не задано project-id (аргумент PROJECT_ID или ELEMENT_PROJECT_ID)",
		EN: "project-id (PROJECT_ID argument or ELEMENT_PROJECT_ID) is not set",
	},
	{Key: "cli.arg.app-id",
		RU: "приложение: id (UUID) или точное имя",
		EN: "the application: id (UUID) or exact name",
	},
	{Key: "mcp.arg.app-id",
		RU: "приложение: id (UUID) или точное имя; несколько совпадений – ошибка",
		EN: "the application: id (UUID) or exact name; several matches are an error",
	},
}

// appInput are the arguments of a command that takes one application.
type appInput struct {
	AppID string `arg:"app-id"`
}
