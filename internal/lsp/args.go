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

// callArgs are a command's decoded inputs.
type callArgs struct {
	// cwd is the absolute directory of the call.
	cwd string
	// envFile is the call's .env as given ("" = none given).
	envFile string
	values  command.Values
}

// argError is a refused argument object: InvalidParams on the wire.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErrorf(ctx context.Context, key string, args ...any) error {
	return &argError{msg: i18n.T(ctx, key, args...)}
}

// decodeArguments reads the single argument object of executeCommand with
// the catalog's JSON binder (camelCase keys); called is the command id as
// the editor sent it. base is the directory of a call without cwd.
func decodeArguments(ctx context.Context, c *command.Command, called string, args []json.RawMessage, base string) (callArgs, error) {
	out := callArgs{cwd: base, values: command.NewValues()}
	if len(args) > 1 {
		return out, argErrorf(ctx, "lsp.args-count", "count", len(args))
	}
	var raw []byte
	if len(args) == 1 {
		raw = args[0]
	}
	obj, err := command.DecodeArguments(ctx, raw, called)
	if err != nil {
		return out, err
	}
	cwd, err := command.OwnString(ctx, obj, argCwd, called)
	if err != nil {
		return out, err
	}
	if cwd != "" {
		p, err := PathFromURI(cwd)
		if err != nil {
			return out, argErrorf(ctx, "lsp.bad-cwd", "value", cwd, "error", err)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		out.cwd = p
	}
	if out.envFile, err = command.OwnString(ctx, obj, argEnvFile, called); err != nil {
		return out, err
	}
	if p, err := PathFromURI(out.envFile); err == nil && strings.HasPrefix(strings.ToLower(out.envFile), "file:") {
		out.envFile = p
	}
	face := command.JSONFace{Naming: command.CamelNames, Called: called,
		Own: []string{argCwd, argEnvFile, argExtraArgs}, Ignored: []string{argAppID, argProjectDir}}
	if out.values, err = command.BindJSON(ctx, c, face, obj); err != nil {
		return out, err
	}
	if extra := obj.Value(argExtraArgs); extra != nil {
		return out, applyExtraArgs(ctx, c, extra, &out)
	}
	return out, nil
}

// applyExtraArgs reads command-line words the way an editor setting holds
// them (XBSL's xbsl.deploy.extraArgs: one string split on whitespace, or a
// list) with the catalog's word binder. --env-file is taken; --json and
// --quiet mean nothing here; other global options are refused. Keys of the
// object win over the same option here; a repeatable one gets both.
func applyExtraArgs(ctx context.Context, c *command.Command, extra any, out *callArgs) error {
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
	envFile := flags.String("env-file", "", "")
	flags.Bool("json", false, "")
	flags.Bool("quiet", false, "")
	globals := []string{"base-url", "client-id", "client-secret", "timeout", "lang"}
	for _, g := range globals {
		flags.String(g, "", "")
	}
	if err := flags.Parse(tokens); err != nil {
		return extraError(command.FlagError(ctx, err))
	}
	for _, g := range globals {
		if flags.Changed(g) {
			return argErrorf(ctx, "lsp.extra-global", "flag", "--"+g)
		}
	}
	words, err := binder.Bind(ctx, flags.Args())
	if err != nil {
		return extraError(err)
	}
	if out.envFile == "" {
		out.envFile = *envFile
	}
	for _, key := range words.Keys() {
		v, _ := words.Raw(key)
		if !out.values.Given(key) {
			out.values.Set(key, v)
			continue
		}
		have, _ := out.values.Raw(key)
		if merged, ok := appendLists(have, v); ok {
			out.values.Set(key, merged)
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
