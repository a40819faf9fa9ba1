package lsp

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

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

func argErrorf(key string, args ...any) error { return &argError{msg: i18n.T(key, args...)} }

// camel turns "server-start-timeout" (or "dry_run") into
// "serverStartTimeout".
func camel(key string) string {
	parts := strings.FieldsFunc(key, func(r rune) bool { return r == '-' || r == '_' })
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// argumentIndex maps every accepted name of a command's arguments (the
// camelCase of its key, and the key itself) to the argument.
func argumentIndex(c *command.Command) map[string]command.Argument {
	idx := map[string]command.Argument{}
	for _, a := range c.Args {
		for _, name := range []string{camel(a.KeyName()), a.KeyName(), camel(a.Name)} {
			if name != "" {
				if _, taken := idx[name]; !taken {
					idx[name] = a
				}
			}
		}
	}
	return idx
}

// decodeArguments reads the single argument object of executeCommand.
// base is the directory of a call without cwd.
func decodeArguments(c *command.Command, args []json.RawMessage, base string) (callArgs, error) {
	out := callArgs{cwd: base, values: command.NewValues()}
	if len(args) > 1 {
		return out, argErrorf("lsp.args-count", "count", len(args))
	}
	obj := map[string]json.RawMessage{}
	if len(args) == 1 && !isNull(args[0]) {
		dec := json.NewDecoder(bytes.NewReader(args[0]))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil {
			return out, argErrorf("lsp.args-not-object", "error", err)
		}
	}
	str := func(key string) (string, error) {
		raw, ok := obj[key]
		if !ok || isNull(raw) {
			return "", nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", argErrorf("lsp.arg-type", "name", key, "type", "string")
		}
		return s, nil
	}
	cwd, err := str(argCwd)
	if err != nil {
		return out, err
	}
	if cwd != "" {
		p, err := PathFromURI(cwd)
		if err != nil {
			return out, argErrorf("lsp.bad-cwd", "value", cwd, "error", err)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		out.cwd = p
	}
	if out.envFile, err = str(argEnvFile); err != nil {
		return out, err
	}
	if p, err := PathFromURI(out.envFile); err == nil && strings.HasPrefix(strings.ToLower(out.envFile), "file:") {
		out.envFile = p
	}

	idx := argumentIndex(c)
	given := map[string]bool{} // by key
	var unknown []string
	for name, raw := range obj {
		switch name {
		case argCwd, argEnvFile, argExtraArgs:
			continue
		}
		a, ok := idx[name]
		if !ok {
			if name == argAppID || name == argProjectDir {
				continue
			}
			unknown = append(unknown, name)
			continue
		}
		if isNull(raw) {
			continue
		}
		v, err := argValue(a, name, raw)
		if err != nil {
			return out, err
		}
		out.values.Set(a.KeyName(), v)
		given[a.KeyName()] = true
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return out, argErrorf("lsp.unknown-args", "names", strings.Join(unknown, ", "), "command", c.Name(), "known", strings.Join(knownNames(c), ", "))
	}
	if raw, ok := obj[argExtraArgs]; ok && !isNull(raw) {
		if err := applyExtraArgs(c, raw, &out, given); err != nil {
			return out, err
		}
	}
	for _, a := range c.Args {
		key := a.KeyName()
		if given[key] {
			continue
		}
		if a.Required {
			return out, argErrorf("lsp.arg-missing", "name", camel(key), "command", c.Name())
		}
		if a.Default != nil {
			out.values.Default(key, a.Default)
		}
	}
	return out, nil
}

// knownNames lists what a command accepts, for the unknown-argument error.
func knownNames(c *command.Command) []string {
	names := []string{argCwd, argEnvFile, argExtraArgs}
	for _, a := range c.Args {
		names = append(names, camel(a.KeyName()))
	}
	return names
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// argValue converts one JSON value to the Go type the handler reads.
func argValue(a command.Argument, name string, raw json.RawMessage) (any, error) {
	typeName := map[command.Type]string{command.String: "string", command.Int: "integer", command.Float: "number", command.Bool: "boolean"}[a.Type]
	if typeName == "" {
		typeName = "string"
	}
	bad := func() error { return argErrorf("lsp.arg-type", "name", name, "type", typeName) }
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, bad()
	}
	if a.Multiple {
		var items []any
		switch x := v.(type) {
		case []any:
			items = x
		default:
			items = []any{x}
		}
		list := make([]string, 0, len(items))
		for _, it := range items {
			s, ok := scalarString(it)
			if !ok {
				return nil, argErrorf("lsp.arg-type", "name", name, "type", "list of "+typeName)
			}
			list = append(list, s)
		}
		if err := checkChoices(a, name, list...); err != nil {
			return nil, err
		}
		return list, nil
	}
	switch a.Type {
	case command.Bool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
				return b, nil
			}
		}
		return nil, bad()
	case command.Int:
		n, ok := number(v)
		if !ok || n != math.Trunc(n) || math.Abs(n) > math.MaxInt32 {
			return nil, bad()
		}
		return int(n), nil
	case command.Float:
		n, ok := number(v)
		if !ok {
			return nil, bad()
		}
		return n, nil
	}
	s, ok := scalarString(v)
	if !ok {
		return nil, bad()
	}
	if err := checkChoices(a, name, s); err != nil {
		return nil, err
	}
	return s, nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// scalarString accepts strings, and numbers where a string is expected
// (an application or build number typed as a number).
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

func checkChoices(a command.Argument, name string, vals ...string) error {
	if len(a.Choices) == 0 {
		return nil
	}
	for _, v := range vals {
		ok := false
		for _, c := range a.Choices {
			if v == c {
				ok = true
			}
		}
		if !ok {
			return argErrorf("lsp.arg-choice", "name", name, "value", v, "choices", strings.Join(a.Choices, ", "))
		}
	}
	return nil
}

// applyExtraArgs reads command-line flags the way an editor setting holds
// them (XBSL's xbsl.deploy.extraArgs: one string split on whitespace, or a
// list): "--flag value", "--flag=value", "--switch", positionals in order.
// --env-file is taken; --json and --quiet mean nothing here; other global
// flags are refused. Keys of the object win over the same flag here.
func applyExtraArgs(c *command.Command, raw json.RawMessage, out *callArgs, given map[string]bool) error {
	var tokens []string
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		tokens = strings.Fields(one)
	} else if err := json.Unmarshal(raw, &tokens); err != nil {
		return argErrorf("lsp.arg-type", "name", argExtraArgs, "type", "string or list of strings")
	}
	flags := map[string]command.Argument{}
	var positionals []command.Argument
	for _, a := range c.Args {
		if a.Positional {
			positionals = append(positionals, a)
			if a.CLIAlias != "" {
				flags[strings.TrimPrefix(a.CLIAlias, "--")] = a
			}
			continue
		}
		flags[a.Name] = a
	}
	set := func(a command.Argument, flag, value string) error {
		key := a.KeyName()
		if given[key] && !a.Multiple {
			return nil
		}
		v, err := argValue(a, flag, wordJSON(value))
		if err != nil {
			return err
		}
		if a.Multiple {
			prev, _ := out.values.Raw(key)
			list, _ := prev.([]string)
			if !given[key] {
				list = nil
			}
			v = append(list, v.([]string)...)
		}
		out.values.Set(key, v)
		given[key] = true
		return nil
	}
	pos := 0
	for i := 0; i < len(tokens); i++ {
		tok := tokens[i]
		if !strings.HasPrefix(tok, "--") || tok == "--" {
			if pos >= len(positionals) {
				return argErrorf("lsp.extra-positional", "value", tok, "command", c.Name())
			}
			if err := set(positionals[pos], positionals[pos].KeyName(), tok); err != nil {
				return err
			}
			if !positionals[pos].Multiple {
				pos++
			}
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(tok, "--"), "=")
		switch name {
		case "json", "quiet":
			continue
		case "env-file":
			if !hasValue {
				if i+1 >= len(tokens) {
					return argErrorf("lsp.extra-needs-value", "flag", tok)
				}
				i++
				value = tokens[i]
			}
			if out.envFile == "" {
				out.envFile = value
			}
			continue
		case "base-url", "client-id", "client-secret", "timeout", "lang":
			return argErrorf("lsp.extra-global", "flag", "--"+name)
		}
		a, ok := flags[name]
		if !ok {
			return argErrorf("lsp.extra-unknown", "flag", "--"+name, "command", c.Name())
		}
		if a.Type == command.Bool && !hasValue {
			value = "true"
		} else if !hasValue {
			if i+1 >= len(tokens) {
				return argErrorf("lsp.extra-needs-value", "flag", tok)
			}
			i++
			value = tokens[i]
		}
		if err := set(a, tok, value); err != nil {
			return err
		}
	}
	return nil
}

// wordJSON encodes a command-line word as a JSON string; argValue reads
// numbers and booleans from strings too.
func wordJSON(word string) json.RawMessage {
	b, _ := json.Marshal(word)
	return b
}
