// Package options declares elemctl's global command-line options once. The
// command line renders them; an editor's extra command-line words and a
// plugin's manifest are checked against them; self-update reads the
// command lines of other elemctl processes by them.
package options

import "strings"

// Kind is what an option takes.
type Kind int

const (
	// Text options take a word.
	Text Kind = iota
	// Number options take a number of seconds.
	Number
	// Switch options take nothing.
	Switch
)

// Option is one global option.
type Option struct {
	// Name is the option without its dashes.
	Name string
	// Help is the message key of its help.
	Help string
	Kind Kind
	// Connection options name or reach the stand; commands that never
	// talk to the platform refuse them.
	Connection bool
	// Secret options carry a secret: it never shows in a process list.
	Secret bool
}

// The global options.
var (
	BaseURL      = Option{Name: "base-url", Help: "cli.flag.base-url", Connection: true}
	ClientID     = Option{Name: "client-id", Help: "cli.flag.client-id", Connection: true}
	ClientSecret = Option{Name: "client-secret", Help: "cli.flag.client-secret", Connection: true, Secret: true}
	EnvFile      = Option{Name: "env-file", Help: "cli.flag.env-file", Connection: true}
	Timeout      = Option{Name: "timeout", Help: "cli.flag.timeout", Kind: Number, Connection: true}
	Lang         = Option{Name: "lang", Help: "cli.flag.lang"}
	JSON         = Option{Name: "json", Help: "cli.flag.json", Kind: Switch}
	Quiet        = Option{Name: "quiet", Help: "cli.flag.quiet", Kind: Switch}
)

// Global are the global options, in the order help lists them.
var Global = []Option{BaseURL, ClientID, ClientSecret, EnvFile, Timeout, Lang, JSON, Quiet}

// Flag is the option as a command line spells it: "--base-url".
func (o Option) Flag() string { return "--" + o.Name }

// Dest is the name the option's value is kept under: "base_url".
func (o Option) Dest() string { return strings.ReplaceAll(o.Name, "-", "_") }

// Named is the global option a command line spells as flag ("--timeout").
func Named(flag string) (Option, bool) {
	for _, o := range Global {
		if o.Flag() == flag {
			return o, true
		}
	}
	return Option{}, false
}
