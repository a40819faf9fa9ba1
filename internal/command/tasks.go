package command

import (
	"context"
	"net/url"
)

func tasksListCommand() *Command {
	return &Command{
		Path: []string{"tasks", "list"}, Tool: "list_app_tasks",
		Help: "cli.help.tasks-list", ToolHelp: "mcp.help.list-app-tasks", ReadOnly: true, Idempotent: true,
		Args:     []Argument{{Name: "app-id", Help: "cli.arg.tasks-app-id", Type: String, Metavar: "ID"}},
		ToolArgs: []Argument{{Name: "app_id", Help: "mcp.arg.tasks-app-id", Type: String, Default: ""}},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			tasks, err := cl.ListAppTasks(ctx, nil)
			if err != nil {
				return nil, err
			}
			app := in.Str("app-id")
			out := []any{}
			for _, t := range tasks {
				if app == "" || t.Str("application-id") == app {
					out = append(out, t)
				}
			}
			return out, nil
		},
	}
}

func tasksGetGroupCommand() *Command {
	return &Command{
		Path: []string{"tasks", "get-group"},
		Help: "cli.help.tasks-get-group", ReadOnly: true, Idempotent: true,
		Args: []Argument{{Name: "task-id", Help: "cli.arg.task-id", Type: String, Positional: true, Required: true, Metavar: "TASK_ID"}},
		Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
			cl, err := cc.Client(ctx)
			if err != nil {
				return nil, err
			}
			return cl.Get(ctx, "/tasks/group-tasks/"+url.PathEscape(in.Str("task-id")), nil)
		},
	}
}
