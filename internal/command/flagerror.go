package command

import (
	"context"
	"errors"

	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
)

// FlagError puts a flag set's refusal of command-line words in the user's
// language; a binder's own refusal (a bad value, a key repeated with
// another value) is already in it and passes as it is, without pflag's
// wrapping. The result is a UsageError.
func FlagError(ctx context.Context, err error) error { return FlagErrorAmong(ctx, err, nil) }

// FlagErrorAmong is FlagError for a command whose options are flags: an
// unknown option is told with the one it was likely meant to be.
func FlagErrorAmong(ctx context.Context, err error, flags *pflag.FlagSet) error {
	var (
		own      *UsageError
		notExist *pflag.NotExistError
		needs    *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &own):
		return own
	case errors.As(err, &notExist):
		if in := notExist.GetSpecifiedShortnames(); in != "" {
			return usagef(ctx, "cli.parse.unknown-shorthand", "flag", "-"+notExist.GetSpecifiedName(), "in", "-"+in)
		}
		typed := "--" + notExist.GetSpecifiedName()
		return withSuggestion(ctx, usagef(ctx, "cli.parse.unknown-flag", "flag", typed), typed, flagNames(flags))
	case errors.As(err, &needs):
		return usagef(ctx, "cli.parse.needs-value", "flag", "--"+needs.GetFlag().Name)
	case errors.As(err, &invalid):
		return usagef(ctx, "cli.parse.invalid-value", "value", invalid.GetValue(), "flag", "--"+invalid.GetFlag().Name,
			"expected", i18n.T(ctx, expectedValueKey(invalid.GetFlag().Value.Type())))
	case errors.As(err, &syntax):
		return usagef(ctx, "cli.parse.bad-syntax", "arg", syntax.GetSpecifiedFlag())
	}
	return &UsageError{&BindError{Message: err.Error()}}
}

// expectedValueKey names what a flag of a pflag value type takes.
func expectedValueKey(valueType string) string {
	switch valueType {
	case "int", "int64", "int32", "uint", "uint64":
		return "cli.parse.expected-integer"
	case "float64", "float32":
		return "cli.parse.expected-number"
	case "bool":
		return "cli.parse.expected-bool"
	}
	return "cli.parse.expected-value"
}
