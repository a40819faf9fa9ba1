package protocol

import "encoding/json"

// Manifest is the content of elemctl-plugin.json.
type Manifest struct {
	// Schema is an optional "$schema" reference for editors.
	Schema string `json:"$schema,omitempty"`
	// Name is the plugin's name, the "source" of its commands; it defaults
	// to the directory's name.
	Name        string `json:"name,omitempty"`
	Version     string `json:"version,omitempty"`
	Description string `json:"description,omitempty"`
	// Requires lists the host features the plugin needs; a host lacking
	// one leaves the plugin out.
	Requires []string `json:"requires,omitempty"`
	// Executable runs the commands: a path relative to the plugin
	// directory (or absolute). On Windows ".exe", ".cmd" and ".bat" are
	// tried when the name has no extension.
	Executable string `json:"executable,omitempty"`
	// Interpreter runs Executable as a script: a program name looked up on
	// PATH, or a list of alternatives of which the first found is used
	// (["python3", "python", "py"]).
	Interpreter json.RawMessage `json:"interpreter,omitempty"`
	// Args are extra arguments after the executable.
	Args []string `json:"args,omitempty"`
	// Timeout bounds one command run, seconds (default 600).
	Timeout float64 `json:"timeout,omitempty"`
	// StartupTimeout bounds the start and the "initialize" handshake,
	// seconds (default 5).
	StartupTimeout float64 `json:"startup_timeout,omitempty"`
	// DebugAdapter locates the platform's debug adapter: a directory (a
	// string, or {"path": ...}), {"command": [...]} printing one, or
	// {"index": ...} naming a directory (or its index.json) written by
	// `elemctl debug-adapter extract`.
	DebugAdapter json.RawMessage `json:"debug_adapter,omitempty"`
	Commands     []CommandSpec   `json:"commands,omitempty"`
}

// CommandSpec declares one command.
type CommandSpec struct {
	Name string `json:"name"`
	Help string `json:"help,omitempty"`
	// MCP false keeps the command off MCP (default true).
	MCP *bool `json:"mcp,omitempty"`
	// MCPName is the tool name; default: Name with "-" turned into "_".
	MCPName string `json:"mcp_name,omitempty"`
	// Timeout overrides the plugin's timeout for this command, seconds.
	Timeout   float64        `json:"timeout,omitempty"`
	Arguments []ArgumentSpec `json:"arguments,omitempty"`
}

// ArgumentSpec declares one argument: "--name" is an option, "name" a
// positional.
type ArgumentSpec struct {
	Name string `json:"name"`
	Help string `json:"help,omitempty"`
	// Type is "str" (default), "int", "float" or "bool" (a flag).
	Type    string `json:"type,omitempty"`
	Default any    `json:"default,omitempty"`
	// Required: an option must be given; a positional is required unless
	// Required is false.
	Required *bool `json:"required,omitempty"`
	Choices  []any `json:"choices,omitempty"`
	// CLIAlias is an option that may stand for a positional ("--page").
	CLIAlias string `json:"cli_alias,omitempty"`
	Multiple bool   `json:"multiple,omitempty"`
}
