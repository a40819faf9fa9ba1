package command

import (
	"context"
	"net/url"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/platform"
)

func init() {
	core.AddGroup(Group{Name: "tasks", Help: "cli.help.tasks", Description: "cli.help.tasks-description"})
	core.Add(
		&Command{
			Path: []string{"tasks", "list"}, Tool: "list_app_tasks",
			Help: "cli.help.tasks-list", ToolHelp: "mcp.help.list-app-tasks", ReadOnly: true, Idempotent: true,
			Args:     []Argument{{Name: "app-id", Help: "cli.arg.tasks-app-id", Type: String, Metavar: "ID"}},
			ToolArgs: []Argument{{Name: "app_id", Help: "mcp.arg.tasks-app-id", Type: String, Default: ""}},
			Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
				cl, err := cc.Client()
				if err != nil {
					return nil, err
				}
				tasks, err := ListAppTasks(ctx, cl)
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
		},
		&Command{
			Path: []string{"tasks", "get-group"},
			Help: "cli.help.tasks-get-group", ReadOnly: true, Idempotent: true,
			Args: []Argument{{Name: "task-id", Help: "cli.arg.task-id", Type: String, Positional: true, Required: true, Metavar: "TASK_ID"}},
			Run: func(ctx context.Context, cc *Context, in Values) (any, error) {
				cl, err := cc.Client()
				if err != nil {
					return nil, err
				}
				return cl.Get(ctx, "/tasks/group-tasks/"+url.PathEscape(in.Str("task-id")), nil)
			},
		},
	)
}

// taskReadPauses are the pauses between the attempts of reading the task
// list: it covers every application of the stand, grows with it and is
// the answer most likely to break off mid-body.
var taskReadPauses = []time.Duration{5 * time.Second, 5 * time.Second}

// ListAppTasks reads the tasks of all applications in the platform's
// order (oldest first), repeating the read when the connection breaks.
func ListAppTasks(ctx context.Context, cl *platform.Client) ([]*jsonx.Object, error) {
	return cl.List(ctx, platform.Request{Path: "/tasks/application-tasks", ReadRetries: taskReadPauses}, "tasks")
}
