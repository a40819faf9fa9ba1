package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzExpandAbbreviations runs option-prefix expansion over any command
// line (arguments separated by newlines) against the real command tree.
// It never panics; a refusal names an ambiguous option of the line; an
// expansion keeps every argument in its place, changes only "--" options
// into the full name they are a prefix of, leaves everything after "--"
// alone, and expanding again changes nothing.
func FuzzExpandAbbreviations(f *testing.F) {
	ctx := context.Background()
	for _, seed := range []string{
		"--lan\nen\napps\nlist\n--bri",
		"apps\nlist\n--stat=Running\n--inc",
		"builds\nlist\n--project\n--lim\n3",
		"--json\napps\nget\n-h\n--no-such\nx",
		"apps\nfind\n--\n--inc",
		"apps\nlist\n--c\nx",
		"deploy\n--pro\n--project-dir=src\n--dry",
		"--=x\n--\n---\n-\n",
		"probe\n--cleanup\n--keep\nstand\n--se\ndemo",
	} {
		f.Add(seed)
	}
	cli := newApp(nil, io.Discard, io.Discard, func(string) string { return "" })
	root := cli.buildRoot(ctx)
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\n")
		out, err := cli.expandAbbreviations(ctx, root, args)
		if err != nil {
			msg := err.Error()
			named := false
			for _, a := range args {
				if name, _, _ := strings.Cut(a, "="); strings.HasPrefix(a, "--") && len(name) > 2 && strings.Contains(msg, name) {
					named = true
				}
			}
			if !named {
				t.Fatalf("a refusal that names no option of %q: %v", args, err)
			}
			return
		}
		if len(out) != len(args) {
			t.Fatalf("%q became %q: arguments were added or lost", args, out)
		}
		afterDashes := false
		for i, a := range args {
			if afterDashes || !strings.HasPrefix(a, "--") {
				if out[i] != a {
					t.Fatalf("argument %d %q became %q", i, a, out[i])
				}
				afterDashes = afterDashes || a == "--"
				continue
			}
			if out[i] == a {
				continue // a full name, an unknown option or a value taken as is
			}
			name, value, hasValue := strings.Cut(a[2:], "=")
			full, fullValue, fullHas := strings.Cut(strings.TrimPrefix(out[i], "--"), "=")
			if !strings.HasPrefix(out[i], "--") || name == "" || !strings.HasPrefix(full, name) || hasValue != fullHas || value != fullValue {
				t.Fatalf("%q expanded to %q: not the same option with the same value", a, out[i])
			}
		}
		again, err := cli.expandAbbreviations(ctx, root, out)
		if err != nil || !slices.Equal(again, out) {
			t.Fatalf("expanding %q again gives %q, %v", out, again, err)
		}
	})
}
