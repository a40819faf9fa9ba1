package command

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/options"
	"github.com/elemctl/elemctl/internal/platform"
)

// Connection is how the command line reached its stand, beyond the .env
// (Context.EnvFile): the options a hint repeats so that it works when
// pasted. The client secret is never repeated; SecretGiven says it came
// as --client-secret, and the hints then say how to give it again.
type Connection struct {
	BaseURL, ClientID string
	// Timeout is --timeout in seconds; 0 = not given.
	Timeout     float64
	SecretGiven bool
}

// hintCommand is the command of the call's catalog at path; nil without
// one (the hint then spells its arguments by their keys).
func (c *Context) hintCommand(path []string) *Command {
	if c.Catalog == nil || len(path) == 0 {
		return nil
	}
	return c.Catalog.Path(path...)
}

// Hint spells a command to run later for the call's face – the one
// rendering of every hint an operation prints (see package hint):
//
//   - on the command line (and for an editor's user), the command with
//     its arguments as the catalog declares them, followed by the
//     connection options the user gave: --env-file, --base-url,
//     --client-id, --timeout – never the secret;
//   - on a tool face, the tool call with its parameters as JSON (and the
//     call's env_file); a command no tool does is spelled as a command
//     line.
func (c *Context) Hint(ctx context.Context, h hint.Command) string {
	if c.Naming == ToolNames {
		if s, ok := c.toolHint(ctx, h); ok {
			return s
		}
	}
	return c.commandLineHint(h)
}

func (c *Context) commandLineHint(h hint.Command) string {
	cmd := c.hintCommand(h.Path)
	words := append([]string{"elemctl"}, h.Path...)
	for _, a := range h.Args {
		name, positional := a.Key, a.Positional
		if cmd != nil {
			if arg, ok := argByKey(cmd.Args, a.Key); ok {
				name, positional = arg.Name, arg.Positional
			}
		}
		words = append(words, hint.PlainArg(name, a.Value, positional)...)
	}
	words = append(words, hint.PlainArg(options.EnvFile.Name, c.EnvFile, false)...)
	words = append(words, hint.PlainArg(options.BaseURL.Name, c.Connection.BaseURL, false)...)
	words = append(words, hint.PlainArg(options.ClientID.Name, c.Connection.ClientID, false)...)
	if c.Connection.Timeout > 0 {
		words = append(words, hint.PlainArg(options.Timeout.Name, strconv.FormatFloat(c.Connection.Timeout, 'f', -1, 64), false)...)
	}
	out := strings.Join(words, " ")
	if c.rendered != nil {
		c.rendered(out)
	}
	return out
}

// toolHint spells h as tool calls; ok is false when no tool does it or a
// tool lacks one of its arguments.
func (c *Context) toolHint(ctx context.Context, h hint.Command) (string, bool) {
	if c.Catalog == nil {
		return "", false
	}
	name := h.Tool
	if name == "" {
		cmd := c.hintCommand(h.Path)
		if cmd == nil || cmd.Tool == "" {
			return "", false
		}
		name = cmd.Tool
	}
	tool := c.Catalog.Tool(name)
	if tool == nil {
		return "", false
	}
	params := jsonx.New()
	for _, a := range h.Args {
		arg, ok := argByKey(tool.MCPArgs(), a.Key)
		if !ok {
			return "", false
		}
		switch v := a.Value.(type) {
		case string:
			if v != "" {
				params.Set(ParamName(arg), v)
			}
		case bool:
			params.Set(ParamName(arg), v)
		case []string:
			list := make([]any, len(v))
			for i, s := range v {
				list[i] = s
			}
			params.Set(ParamName(arg), list)
		case int, int64, float64:
			params.Set(ParamName(arg), v)
		}
	}
	if c.ownEnvFile != "" {
		params.Set("env_file", c.ownEnvFile)
	}
	raw, err := jsonx.Compact(params)
	if err != nil {
		return "", false
	}
	out := name + " " + string(raw)
	if h.Then != nil {
		then, ok := c.toolHint(ctx, *h.Then)
		if !ok {
			return "", false
		}
		out += i18n.T(ctx, "hint.then", "call", then)
	}
	return out, true
}

// repeatHint is the command the call ran, with the arguments its caller
// gave, spelled for the same face: what a change read back and found not
// made is done by running it again.
func (c *Context) repeatHint(in Values) hint.Command {
	h := hint.Command{Path: c.Command.Path}
	if len(h.Path) == 0 || c.Naming == ToolNames {
		h.Tool = c.Command.Tool
	}
	for _, a := range c.Naming.Args(c.Command) {
		key := a.KeyName()
		if !in.Given(key) {
			continue
		}
		raw, _ := in.Raw(key)
		switch v := raw.(type) {
		case string, bool, []string:
			h.Args = append(h.Args, hint.Arg{Key: key, Value: v, Positional: a.Positional})
		case int, int64, float64:
			if c.Naming == ToolNames {
				h.Args = append(h.Args, hint.Arg{Key: key, Value: v})
			} else {
				h.Args = append(h.Args, hint.Arg{Key: key, Value: fmt.Sprint(v), Positional: a.Positional})
			}
		}
	}
	return h
}

// withRepeatHint completes a change found not made with the command that
// makes it.
func (c *Context) withRepeatHint(ctx context.Context, err error, in Values) error {
	var pe *platform.Error
	if !errors.As(err, &pe) || pe.Kind != platform.KindNotDone || pe.Hint != "" || c.Command == nil {
		return err
	}
	h := c.Hint(ctx, c.repeatHint(in))
	return &platform.Error{Kind: pe.Kind, Err: pe.Err, Hint: h,
		Message: i18n.T(ctx, "hint.repeat", "message", pe.Message, "command", h)}
}

// argByKey finds the argument stored under key.
func argByKey(args []Argument, key string) (Argument, bool) {
	for _, a := range args {
		if a.KeyName() == key && !a.Fixed {
			return a, true
		}
	}
	return Argument{}, false
}
