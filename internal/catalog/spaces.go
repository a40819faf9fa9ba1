package catalog

import (
	"context"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/platform"
)

func spacesListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"spaces", "list"}, Order: 1, Examples: []string{"elemctl spaces list"}, Tool: "list_spaces",
		Help: "cli.help.spaces-list", ToolHelp: "mcp.help.list-spaces", ReadOnly: true, Idempotent: true,
		ToolArgs: []command.Argument{},
	}, func(ctx context.Context, cc *command.Context, _ struct{}) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		spaces, err := cl.List(ctx, platform.Request{Path: "/spaces"}, "spaces")
		if err != nil {
			return nil, err
		}
		return objectsToAny(spaces), nil
	})
}
