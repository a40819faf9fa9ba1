package lsp

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/options"
)

// Keys of the argument object every command takes: what the deploy button
// of an editor knows. appId and projectDir go to the command's app-id and
// project-dir when it has them and are ignored otherwise, so an editor may
// send one object to every command.
const (
	argCwd        = "cwd"
	argEnvFile    = "envFile"
	argAppID      = "appId"
	argProjectDir = "projectDir"
	argExtraArgs  = "extraArgs"
)

// argError is a refused argument object: InvalidParams on the wire.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(ctx context.Context, key string, args ...any) error {
	return &argError{msg: i18n.T(ctx, key, args...)}
}

// oneArgument is the single argument object of executeCommand (nil when
// none is given).
func oneArgument(ctx context.Context, args []json.RawMessage) ([]byte, error) {
	switch len(args) {
	case 0:
		return nil, nil
	case 1:
		return args[0], nil
	}
	return nil, argErrorf(ctx, "lsp.args-count", "count", len(args))
}

// callFace is how an LSP call gives its arguments to the catalog's JSON
// binder: camelCase keys; cwd and envFile read into run (a relative cwd
// from base, the call's directory when none is given); appId and
// projectDir ignored where the command has no such argument, so an editor
// may send one object to every command; extraArgs, an editor's
// command-line words, added after the object is bound.
func callFace(c *command.Command, called, base string, run *command.Call) command.JSONFace {
	run.Dir = base
	return command.JSONFace{Naming: command.CamelNames, Called: called,
		Own: []string{argCwd, argEnvFile, argExtraArgs}, Ignored: []string{argAppID, argProjectDir},
		ReadOwn: func(ctx context.Context, obj *jsonx.Object) error {
			cwd, err := command.OwnString(ctx, obj, argCwd, called)
			if err != nil {
				return err
			}
			if cwd != "" {
				p, err := PathFromURI(cwd)
				if err != nil {
					return argErrorf(ctx, "lsp.bad-cwd", "value", cwd, "error", err)
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(base, p)
				}
				run.Dir = p
			}
			if run.EnvFile, err = command.OwnString(ctx, obj, argEnvFile, called); err != nil {
				return err
			}
			if p, err := PathFromURI(run.EnvFile); err == nil && strings.HasPrefix(strings.ToLower(run.EnvFile), "file:") {
				run.EnvFile = p
			}
			return nil
		},
		Amend: func(ctx context.Context, obj *jsonx.Object, in command.Values) error {
			if extra := obj.Value(argExtraArgs); extra != nil {
				return applyExtraArgs(ctx, c, extra, run, in)
			}
			return nil
		},
	}
}

// applyExtraArgs reads command-line words the way an editor setting holds
// them (XBSL's xbsl.deploy.extraArgs: one string split on whitespace, or a
// list) with the catalog's word binder. The global option naming the .env
// is taken, the global switches mean nothing here, the other global
// options are refused (options.Global). Keys of the object win over the
// same option here; a repeatable one gets both.
func applyExtraArgs(ctx context.Context, c *command.Command, extra any, run *command.Call, in command.Values) error {
	var tokens []string
	switch x := extra.(type) {
	case string:
		tokens = strings.Fields(x)
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return argErrorf(ctx, "lsp.arg-type", "name", argExtraArgs, "type", "string or list of strings")
			}
			tokens = append(tokens, s)
		}
	default:
		return argErrorf(ctx, "lsp.arg-type", "name", argExtraArgs, "type", "string or list of strings")
	}
	flags := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	binder := command.NewWordBinder(ctx, c, flags)
	binder.GivenOnly = true
	for _, o := range options.Global {
		if o.Kind == options.Switch {
			flags.Bool(o.Name, false, "")
		} else {
			flags.String(o.Name, "", "")
		}
	}
	if err := flags.Parse(tokens); err != nil {
		return extraError(command.FlagError(ctx, err))
	}
	for _, o := range options.Global {
		if flags.Changed(o.Name) && o != options.EnvFile && o.Kind != options.Switch {
			return argErrorf(ctx, "lsp.extra-global", "flag", o.Flag())
		}
	}
	words, err := binder.Bind(ctx, flags.Args())
	if err != nil {
		return extraError(err)
	}
	if run.EnvFile == "" {
		run.EnvFile, _ = flags.GetString(options.EnvFile.Name)
	}
	for _, key := range words.Keys() {
		v, _ := words.Raw(key)
		if !in.Given(key) {
			in.Set(key, v)
			continue
		}
		have, _ := in.Raw(key)
		if merged, ok := appendLists(have, v); ok {
			in.Set(key, merged)
		}
	}
	return nil
}

// appendLists joins two lists of one kind; ok is false for anything else.
func appendLists(a, b any) (any, bool) {
	switch x := a.(type) {
	case []string:
		if y, ok := b.([]string); ok {
			return append(append([]string{}, x...), y...), true
		}
	case []any:
		if y, ok := b.([]any); ok {
			return append(append([]any{}, x...), y...), true
		}
	}
	return nil, false
}

// extraError tells where a refusal comes from.
func extraError(err error) error {
	return &argError{msg: argExtraArgs + ": " + err.Error()}
}

// isNull tells a JSON null (or nothing) from a value.
func isNull(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null"
}
