package command

import (
	"context"
	"strings"

	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// UsageError is a refused command line: the CLI prints it after the
// command's usage and exits with 2.
type UsageError struct{ *BindError }

func usagef(ctx context.Context, key string, args ...any) error {
	return &UsageError{bindErrorf(ctx, key, args...)}
}

// WordBinder binds command-line words to a command's arguments – the one
// binder of core and plugin commands on the CLI, and of the command-line
// words an editor passes (LSP extraArgs). It declares the options on a flag
// set; after the flag set parsed a command line, Bind reads the options
// and shares the remaining words among the positionals the way argparse
// does.
type WordBinder struct {
	// GivenOnly binds only what the words give: no defaults, nothing
	// required (an editor's extra words beside an argument object).
	GivenOnly bool

	c       *Command
	flags   *pflag.FlagSet
	options map[string]*wordValue // typed options, by key
	aliases map[string]*wordValue // the options standing for positionals, by key
}

// NewWordBinder declares c's options on flags: a bool is a switch, other
// types take a value; every value is checked at once against its type (by
// the table of argvalue) and choices, a multiple option may be repeated,
// a single one repeated only with the same value (different values are an
// error of the call, exit 1, not of the command line's shape). A positional's CLIAlias is an option of its own.
func NewWordBinder(ctx context.Context, c *Command, flags *pflag.FlagSet) *WordBinder {
	b := &WordBinder{c: c, flags: flags, options: map[string]*wordValue{}, aliases: map[string]*wordValue{}}
	for _, a := range CLINames.Args(c) {
		help := i18n.T(ctx, a.Help)
		switch {
		case a.Positional && a.CLIAlias == "":
			continue
		case a.Positional:
			name := strings.TrimPrefix(a.CLIAlias, "--")
			v := &wordValue{arg: a, option: a.CLIAlias, ctx: ctx}
			if a.AliasExclusive {
				help = i18n.T(ctx, "args.alias-help", "name", a.Name)
				if a.Multiple {
					help += " " + i18n.T(ctx, "args.help-repeatable")
				}
			}
			flags.Var(v, name, help)
			b.aliases[a.KeyName()] = v
			continue
		default:
			v := &wordValue{arg: a, option: "--" + a.Name, ctx: ctx}
			flags.Var(v, a.Name, help)
			if a.Type == Bool {
				// A switch: given alone it is on; --name=no is read by
				// the same table as every other value.
				flags.Lookup(a.Name).NoOptDefVal = "true"
			}
			b.options[a.KeyName()] = v
		}
		if a.Hidden {
			_ = flags.MarkHidden(a.Name)
		}
	}
	return b
}

// Bind reads the parsed options and the positional words.
func (b *WordBinder) Bind(ctx context.Context, words []string) (Values, error) {
	in := NewValues()
	for _, a := range CLINames.Args(b.c) {
		for _, v := range []*wordValue{b.options[a.KeyName()], b.aliases[a.KeyName()]} {
			if v != nil && v.conflict != "" {
				return in, platform.ConfigErrorf(ctx, "args.repeated-different", "option", v.option, "a", v.raw[0], "b", v.conflict)
			}
		}
	}
	var positionals []Argument
	for _, a := range CLINames.Args(b.c) {
		key := a.KeyName()
		switch {
		case a.Positional:
			positionals = append(positionals, a)
		case b.options[key].given:
			in.Set(key, b.options[key].value())
		case b.GivenOnly:
		case a.Required:
			return in, usagef(ctx, "cli.missing-flag", "name", "--"+a.Name)
		case a.Type == Bool:
			def, _ := a.Default.(bool)
			in.Default(key, def)
		default:
			setDefault(in, a, a.Default)
		}
	}
	share, rest := sharePositionals(positionals, words)
	if len(rest) > 0 {
		return in, usagef(ctx, "cli.too-many-args", "args", strings.Join(rest, " "))
	}
	for i, a := range positionals {
		key := a.KeyName()
		alias := b.aliases[key]
		aliased := alias != nil && alias.given
		var vals []any
		for _, w := range share[i] {
			v, err := convertWord(ctx, a, Metavar(a), w)
			if err != nil {
				return in, err
			}
			vals = append(vals, v)
		}
		switch {
		case len(vals) > 0 && aliased && a.AliasExclusive:
			return in, usagef(ctx, "args.alias-exclusive", "alias", a.CLIAlias, "name", a.Name)
		case len(vals) > 0 && aliased && choiceText(vals[0]) != choiceText(alias.vals[0]):
			return in, platform.ConfigErrorf(ctx, "cli.given-twice", "a", share[i][0], "b", alias.raw[0], "flag", a.CLIAlias)
		case len(vals) > 0 && a.Multiple:
			in.Set(key, listOf(a, vals))
		case len(vals) > 0:
			in.Set(key, vals[0])
		case aliased:
			in.Set(key, alias.value())
		case b.GivenOnly:
		case a.Required:
			name := Metavar(a)
			if a.CLIAlias != "" {
				name += " (" + a.CLIAlias + ")"
			}
			return in, usagef(ctx, "cli.missing-positional", "name", name)
		default:
			setDefault(in, a, a.Default)
		}
	}
	if !b.GivenOnly {
		setFixed(in, b.c, CLINames)
	}
	return in, nil
}

// sharePositionals shares the words among the positionals the way argparse
// does: each takes what it may while leaving enough for the required ones
// after it; a multiple one takes all it may. A positional an option may
// stand for may be left empty.
func sharePositionals(pos []Argument, words []string) ([][]string, []string) {
	least := func(a Argument) int {
		if a.Required && a.CLIAlias == "" {
			return 1
		}
		return 0
	}
	out := make([][]string, len(pos))
	next := 0
	for i, p := range pos {
		need := 0
		for _, later := range pos[i+1:] {
			need += least(later)
		}
		avail := len(words) - next - need
		if avail <= 0 {
			continue
		}
		take := 1
		if p.Multiple {
			take = avail
		}
		out[i] = words[next : next+take]
		next += take
	}
	return out, words[next:]
}

// CheckWord converts a command-line word for an option declared outside a
// command – a global option such as --timeout – by the rules of every
// command's own options: argvalue's table of the type, the bound, the
// choices. name is the option as the command line spells it.
func CheckWord(ctx context.Context, a Argument, name, word string) (any, error) {
	return convertWord(ctx, a, name, word)
}

// convertWord converts one command-line word to the argument's type and
// checks it against the choices; name is the option or positional as the
// command line spells it.
func convertWord(ctx context.Context, a Argument, name, word string) (any, error) {
	v, ok := convert(a.Type, word)
	if !ok || !a.Bound.Holds(v) {
		return nil, usagef(ctx, "cli.parse.invalid-value", "value", word, "flag", name, "expected", i18n.T(ctx, expectedKey(a.Bound, a.Type)))
	}
	if !inChoices(a, v) {
		return nil, withSuggestion(ctx, usagef(ctx, "cli.bad-choice", "name", name, "value", word, "choices", strings.Join(a.Choices, ", ")), word, a.Choices)
	}
	return v, nil
}

// wordValue is a typed option (or a positional's alias) on the flag set.
type wordValue struct {
	arg    Argument
	option string
	given  bool
	raw    []string
	vals   []any
	// conflict is a second, different value of a single option: Bind
	// refuses it as an error of the call, the way two different values of
	// a positional and its option are refused.
	conflict string
	// ctx is the binder's: the flag set calls Set without one, and the
	// refusals speak its language.
	ctx context.Context
}

// String is the default the help shows.
func (v *wordValue) String() string {
	if v.arg.Default == nil || v.arg.Multiple {
		return ""
	}
	return choiceText(v.arg.Default)
}

// Type names the value in help and in the parser's messages.
func (v *wordValue) Type() string {
	switch v.arg.Type {
	case Int:
		return "int"
	case Float:
		return "float64"
	case Bool:
		return "bool"
	}
	return "string"
}

// Given are the words the command line gave the option, as typed (shell
// completion reads the other options of the line it completes).
func (v *wordValue) Given() []string { return v.raw }

// Repeatable tells help that the key may be given more than once.
func (v *wordValue) Repeatable() bool { return v.arg.Multiple }

// IsBoolFlag lets a switch stand alone.
func (v *wordValue) IsBoolFlag() bool { return v.arg.Type == Bool }

func (v *wordValue) Set(s string) error {
	ctx := v.ctx
	tv, err := convertWord(ctx, v.arg, v.option, s)
	if err != nil {
		return err
	}
	if v.arg.Multiple {
		v.vals, v.raw, v.given = append(v.vals, tv), append(v.raw, s), true
		return nil
	}
	if v.given {
		if choiceText(v.vals[0]) != choiceText(tv) && v.conflict == "" {
			v.conflict = s
		}
		return nil
	}
	v.vals, v.raw, v.given = []any{tv}, []string{s}, true
	return nil
}

// value is what the handler gets: the value, or the list of a multiple
// option.
func (v *wordValue) value() any {
	if v.arg.Multiple {
		return listOf(v.arg, append([]any(nil), v.vals...))
	}
	return v.vals[0]
}
