package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
)

// localizeFlagError puts the flag parser's refusals of a command line in
// the user's language; run prints them as usage errors (exit 2). A plugin
// option's own refusal (a bad choice, a key repeated with another value)
// is already in it and passes as it is, without pflag's wrapping.
func localizeFlagError(_ *cobra.Command, err error) error {
	var (
		plugin   *pluginUsageError
		notExist *pflag.NotExistError
		needs    *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &plugin):
		return plugin
	case errors.As(err, &notExist):
		if in := notExist.GetSpecifiedShortnames(); in != "" {
			return usageErrorf("cli.parse.unknown-shorthand", "flag", "-"+notExist.GetSpecifiedName(), "in", "-"+in)
		}
		return usageErrorf("cli.parse.unknown-flag", "flag", "--"+notExist.GetSpecifiedName())
	case errors.As(err, &needs):
		return usageErrorf("cli.parse.needs-value", "flag", "--"+needs.GetFlag().Name)
	case errors.As(err, &invalid):
		return usageErrorf("cli.parse.invalid-value", "value", invalid.GetValue(), "flag", "--"+invalid.GetFlag().Name,
			"expected", i18n.T(expectedValueKey(invalid.GetFlag().Value.Type())))
	case errors.As(err, &syntax):
		return usageErrorf("cli.parse.bad-syntax", "arg", syntax.GetSpecifiedFlag())
	}
	return err
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

func usageErrorf(key string, args ...any) error { return fmt.Errorf("%s", i18n.T(key, args...)) }
