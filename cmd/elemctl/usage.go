package main

import (
	"github.com/elemctl/elemctl/internal/command"
	"github.com/spf13/cobra"
)

// localizeFlagError puts the flag parser's refusals of a command line in
// the user's language (command.FlagError); run prints them as usage errors
// (exit 2).
func localizeFlagError(_ *cobra.Command, err error) error { return command.FlagError(err) }
