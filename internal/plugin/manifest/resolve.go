package manifest

import (
	"context"
)

// Features are what this elemctl supports for plugins. The host announces
// them in "initialize", in "run" and in `elemctl plugins`; a manifest
// requiring anything else is left out, named as written for a newer core.
var Features = []string{
	"multiple",              // repeatable options, list values
	"positional-multiple",   // a positional taking several values
	"cli-alias",             // an option standing for a positional
	"choices",               // allowed values, checked by the CLI
	"mcp-name",              // an explicit tool name
	"surface",               // "cli", "mcp" or "lsp" in run
	"log",                   // progress lines
	"status",                // a transient status line
	"host-calls",            // core operations by their tool names
	"console-call",          // raw Console API calls
	"exit-code",             // the exit-code rule of answers
	"timeout",               // per-plugin and per-command time limits
	"interpreter",           // scripts run by a named interpreter
	"debug-adapter",         // a declared adapter directory
	"debug-adapter-command", // a program printing the adapter directory
	"debug-adapter-index",   // an index written by debug-adapter extract
}

// MissingFeatures lists the required features this host lacks.
func MissingFeatures(required []string) []string {
	var out []string
	for _, r := range required {
		if !contains(Features, r) {
			out = append(out, r)
		}
	}
	return out
}

// Taken are the names the core already uses; a core name always wins.
type Taken struct {
	// Commands are top-level CLI names (commands and groups).
	Commands map[string]bool
	Tools    map[string]bool
	LSP      map[string]bool
}

// Resolved is a command that is registered: on the CLI always, on MCP when
// Tool is set, on LSP when LSP is set.
type Resolved struct {
	*Command
	Tool string
	LSP  string
}

// Resolution is the outcome of placing plugin commands beside the core.
type Resolution struct {
	Plugins  []*Plugin
	Commands []Resolved
	Failures []Failure
}

// Resolve places the set's commands beside the core: a command named like
// a core command (or like a command of an earlier plugin) is left out; a
// tool name already taken costs the command its tool only.
func (s *Set) Resolve(ctx context.Context, taken Taken) Resolution {
	r := Resolution{Plugins: s.Plugins, Failures: append([]Failure(nil), s.Failures...)}
	cli := map[string]string{}
	tools := map[string]string{}
	lsp := map[string]bool{}
	for _, p := range s.Plugins {
		for _, c := range p.Commands {
			if taken.Commands[c.Name] {
				r.Failures = append(r.Failures, Failure{Source: p.Name, Error: commandErr(ctx, p.Name, c.Name, "plugins.command-name-taken").Error()})
				continue
			}
			if other, ok := cli[c.Name]; ok {
				r.Failures = append(r.Failures, Failure{Source: p.Name, Error: commandErr(ctx, p.Name, c.Name, "plugins.command-name-taken-plugin", "other", other).Error()})
				continue
			}
			cli[c.Name] = p.Name
			res := Resolved{Command: c}
			if tool := c.ToolName(); tool != "" {
				if _, byPlugin := tools[tool]; taken.Tools[tool] || byPlugin {
					r.Failures = append(r.Failures, Failure{Source: p.Name, MCPOnly: true, Error: commandErr(ctx, p.Name, c.Name, "plugins.tool-name-taken", "tool", tool).Error()})
				} else {
					tools[tool] = p.Name
					res.Tool = tool
				}
			}
			if !taken.LSP[c.Name] && !lsp[c.Name] {
				lsp[c.Name] = true
				res.LSP = c.Name
			}
			r.Commands = append(r.Commands, res)
		}
	}
	return r
}

// CLIFailures are the failures the CLI reports (those that cost a command,
// not only a tool).
func (r Resolution) CLIFailures() []Failure {
	var out []Failure
	for _, f := range r.Failures {
		if !f.MCPOnly {
			out = append(out, f)
		}
	}
	return out
}
