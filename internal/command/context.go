package command

import (
	"context"
	"os"

	"github.com/elemctl/elemctl/internal/platform"
)

// Context is what a command sees of the call that runs it. Faces build it
// with Call (see call.go).
type Context struct {
	// Surface is the face the call came from; only the plugin host reads
	// it, to tell a plugin.
	Surface Surface
	// Getenv reads the environment of the call; nil means os.Getenv.
	Getenv func(string) string
	// Dir is the directory relative paths resolve from ("" = the process's).
	Dir string
	// EnvFile is the .env file this call names explicitly ("" = default).
	EnvFile string
	// Connection is how the command line reached the stand; hints repeat
	// it (see Hint).
	Connection Connection
	// Version is elemctl's version.
	Version string

	// Command is the command being run and Naming how the caller spells
	// its arguments, for messages that name them (see ArgName).
	Command *Command
	Naming  Naming
	// Catalog is the face's catalog: hints name its commands (see Hint).
	Catalog *Catalog

	// Provided by the face.
	LogFunc    func(line string)
	StatusFunc func(status string)
	// PendingFunc hears what a forced stop would leave behind and how to
	// finish it ("" once nothing would); the CLI tells it on a second
	// Ctrl-C.
	PendingFunc func(text string)
	ClientFunc  func(ctx context.Context) (*platform.Client, error)
	ConfigFunc  func(ctx context.Context) (*platform.Config, error)

	// Set by Call: the call's scrubber, where a panic's stack goes, the
	// .env the call itself names (a tool hint repeats it) and the record
	// of the hints rendered (see Call.SecretNote).
	scrub      func(string) string
	diagnostic func(string)
	ownEnvFile string
	rendered   func(hint string)
}

// Log reports one progress or warning line (CLI: stderr, silenced by
// --quiet; MCP: the log field and progress; LSP: $/progress).
func (c *Context) Log(line string) {
	if c != nil && c.LogFunc != nil {
		c.LogFunc(line)
	}
}

// Status shows a transient status of a long wait (a live line on a
// terminal); faces without one ignore it.
func (c *Context) Status(status string) {
	if c != nil && c.StatusFunc != nil {
		c.StatusFunc(status)
	}
}

// Pending tells what a forced stop now would leave behind and how to
// finish it; "" says nothing would.
func (c *Context) Pending(text string) {
	if c != nil && c.PendingFunc != nil {
		c.PendingFunc(text)
	}
}

// Client is the platform client of this call, built on first use; ctx
// carries the language of a refusal.
func (c *Context) Client(ctx context.Context) (*platform.Client, error) { return c.ClientFunc(ctx) }

// Config is the configuration of this call, read on first use; ctx
// carries the language of a refusal.
func (c *Context) Config(ctx context.Context) (*platform.Config, error) { return c.ConfigFunc(ctx) }

// Env reads an environment variable of the call.
func (c *Context) Env(name string) string {
	if c.Getenv != nil {
		return c.Getenv(name)
	}
	return os.Getenv(name)
}

// ArgName is the argument stored under key as the caller names it:
// "--project-id" or "LIST" on the command line, "project_id" for a tool,
// "projectId" for an LSP command. A key the command does not have is
// returned as it is.
func (c *Context) ArgName(key string) string {
	if c.Command == nil {
		return key
	}
	return c.Naming.ArgName(c.Command, key, false)
}

// ArgToGive spells giving the argument stored under key the way the
// caller would, for a message that tells what to pass: "--allow-data-loss"
// or "--version-id" on the command line, "allow_data_loss=true" or
// "version_id" for a tool, "allowDataLoss=true" for an LSP command; ok is
// false when the caller's face has no such argument.
func (c *Context) ArgToGive(key string) (string, bool) {
	if c.Command == nil {
		return "", false
	}
	return c.Naming.Giving(c.Command, key)
}

// ArgUsage is ArgName with the value's placeholder where the command line
// takes one ("--app APP").
func (c *Context) ArgUsage(key string) string {
	if c.Command == nil {
		return key
	}
	return c.Naming.ArgName(c.Command, key, true)
}
