package command

import (
	"os"
	"sync"

	"github.com/elemctl/elemctl/internal/platform"
)

// Context is what a command sees of the face that runs it.
type Context struct {
	Surface Surface
	// Getenv reads the environment of the call; nil means os.Getenv.
	Getenv func(string) string
	// Dir is the directory relative paths resolve from ("" = the process's).
	Dir string
	// EnvFile is the .env file this call names explicitly ("" = default).
	EnvFile string
	// Version is elemctl's version.
	Version string

	// Provided by the face.
	LogFunc    func(line string)
	StatusFunc func(status string)
	ClientFunc func() (*platform.Client, error)
	ConfigFunc func() (*platform.Config, error)

	mu      sync.Mutex
	summary []string
	exit    *int
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

// Client is the platform client of this call, built on first use.
func (c *Context) Client() (*platform.Client, error) { return c.ClientFunc() }

// Config is the configuration of this call, read on first use.
func (c *Context) Config() (*platform.Config, error) { return c.ConfigFunc() }

// Env reads an environment variable of the call.
func (c *Context) Env(name string) string {
	if c.Getenv != nil {
		return c.Getenv(name)
	}
	return os.Getenv(name)
}

// Summary adds a line the CLI prints on stderr after the answer.
func (c *Context) Summary(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.summary = append(c.summary, line)
}

// Summaries are the lines added with Summary.
func (c *Context) Summaries() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.summary...)
}

// SetExit fixes the exit code regardless of the answer's shape.
func (c *Context) SetExit(code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exit = &code
}

// Exit is the exit code for answer: the one set with SetExit, else the
// rule of ExitCode.
func (c *Context) Exit(answer any) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.exit != nil {
		return *c.exit
	}
	return ExitCode(answer)
}
