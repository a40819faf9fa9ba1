package mcp

import (
	"context"
	"sort"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
)

// slowTools are the tools the instructions name as taking minutes, in the
// order the reference names them; tools marked Slow in the catalog join
// them.
var slowTools = []string{"build_assembly", "deploy", "probe", "probe_cleanup", "apply_build", "create_app", "ensure_app", "delete_app", "merge_branch"}

// Instructions is the text the server gives an agent at initialization,
// in the current language: the silent rollback and which reports to
// trust, which tools take minutes, how env_file reaches another stand,
// and which tools are local. It speaks of the tools in cmds only.
func Instructions(ctx context.Context, cmds []*command.Command) string {
	have := map[string]*command.Command{}
	for _, c := range cmds {
		if c.Tool != "" {
			have[c.Tool] = c
		}
	}
	var slow []string
	named := map[string]bool{}
	for _, t := range slowTools {
		if have[t] != nil {
			slow = append(slow, t)
			named[t] = true
		}
	}
	var local, extraSlow []string
	for name, c := range have {
		if c.Slow && !named[name] {
			extraSlow = append(extraSlow, name)
		}
		if c.Local {
			local = append(local, name)
		}
	}
	sort.Strings(extraSlow)
	sort.Strings(local)
	slow = append(slow, extraSlow...)

	parts := []string{i18n.T(ctx, "mcp.server.instructions-head"), i18n.T(ctx, "mcp.server.instructions-rollback")}
	if len(slow) > 0 {
		parts = append(parts, i18n.T(ctx, "mcp.server.instructions-slow", "tools", strings.Join(slow, ", ")))
	}
	parts = append(parts, i18n.T(ctx, "mcp.server.instructions-env"))
	if len(local) > 0 {
		parts = append(parts, i18n.T(ctx, "mcp.server.instructions-local", "tools", strings.Join(local, ", ")))
	}
	return strings.Join(parts, " ")
}
