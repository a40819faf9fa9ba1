package mcp

import (
	"context"
	"sort"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
)

// Instructions is the text the server gives an agent at initialization,
// in the language of ctx: the silent rollback and which reports to trust,
// which tools take minutes (the slow ones: the core's by name, then the
// plugins'), how env_file reaches another stand, and which tools are
// local. It speaks of the tools in cmds only.
func Instructions(ctx context.Context, cmds []*command.Command) string {
	var slow, pluginSlow, local []string
	seen := map[string]bool{}
	for _, c := range cmds {
		if c.Tool == "" || seen[c.Tool] {
			continue // a plugin's tool named like an earlier one is not served
		}
		seen[c.Tool] = true
		switch {
		case c.Slow && c.Source == "":
			slow = append(slow, c.Tool)
		case c.Slow:
			pluginSlow = append(pluginSlow, c.Tool)
		}
		if c.Local {
			local = append(local, c.Tool)
		}
	}
	sort.Strings(slow)
	sort.Strings(pluginSlow)
	sort.Strings(local)
	slow = append(slow, pluginSlow...)

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
