package command

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/spelling"
)

// withSuggestion is a usage error with DidYouMean's words after it.
func withSuggestion(ctx context.Context, err error, word string, known []string) error {
	if u, ok := err.(*UsageError); ok {
		u.Message += spelling.DidYouMean(ctx, word, known)
	}
	return err
}

// flagNames are the options of a flag set as the command line spells them,
// hidden ones aside.
func flagNames(flags *pflag.FlagSet) []string {
	var out []string
	if flags == nil {
		return nil
	}
	flags.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			out = append(out, "--"+f.Name)
		}
	})
	return out
}
