package catalog

import (
	"context"
	"net/url"

	"github.com/elemctl/elemctl/internal/command"
)

func tasksListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"tasks", "list"}, Order: 1, Examples: []string{"elemctl tasks list --app-id crm-test"}, Tool: "list_app_tasks",
		Help: "cli.help.tasks-list", ToolHelp: "mcp.help.list-app-tasks", ReadOnly: true, Idempotent: true,
		Args:     []command.Argument{{Name: "app-id", Help: "cli.arg.tasks-app-id", Type: command.String, Metavar: "ID"}},
		ToolArgs: []command.Argument{{Name: "app_id", Help: "mcp.arg.tasks-app-id", Type: command.String, Default: ""}},
	}, func(ctx context.Context, cc *command.Context, in appInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		tasks, err := cl.ListAppTasks(ctx, in.AppID, nil)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(tasks))
		for i, t := range tasks {
			out[i] = t
		}
		return out, nil
	})
}

// tasksGetGroupInput are the arguments tasksGetGroupCommand reads.
type tasksGetGroupInput struct {
	TaskID string `arg:"task-id"`
}

func tasksGetGroupCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"tasks", "get-group"}, Order: 2, Examples: []string{"elemctl tasks get-group TASK_ID"},
		Help: "cli.help.tasks-get-group", ReadOnly: true, Idempotent: true,
		Args: []command.Argument{{Name: "task-id", Help: "cli.arg.task-id", Type: command.String, Positional: true, Required: true, Metavar: "TASK_ID"}},
	}, func(ctx context.Context, cc *command.Context, in tasksGetGroupInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		return cl.Get(ctx, "/tasks/group-tasks/"+url.PathEscape(in.TaskID), nil)
	})
}
