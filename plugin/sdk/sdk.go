// Package sdk writes elemctl plugins in Go. A plugin is a program that
// declares its commands and calls Serve:
//
//	func main() {
//		sdk.Serve(sdk.Command{
//			Name: "hello", Help: "say hello",
//			Arguments: []sdk.Argument{{Name: "who", Optional: true, Default: "world"}},
//			Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
//				cc.Log("greeting " + in.Str("who"))
//				return sdk.NewObject("greeting", "hello, "+in.Str("who")), nil
//			},
//		})
//	}
//
// Built into a plugin directory, `prog manifest > elemctl-plugin.json`
// writes its manifest; elemctl then offers the commands on the CLI
// (`elemctl hello`), as MCP tools and as LSP commands, and starts the
// program for each run. The program talks JSON-RPC 2.0 over stdin and
// stdout (package plugin/protocol); Serve does that, so anything the
// program prints with fmt.Print goes to stderr instead of corrupting it.
//
// A command reaches the platform only through the host: cc.Client() calls
// elemctl's core operations by their MCP tool names and the raw Console
// API with elemctl's own client and credentials.
package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/elemctl/elemctl/plugin/protocol"
)

// Type is an argument's type.
type Type string

const (
	String Type = "str"
	Int    Type = "int"
	Float  Type = "float"
	// Bool is a flag: an option given without a value.
	Bool Type = "bool"
)

// Surfaces a command may run on.
const (
	SurfaceCLI = protocol.SurfaceCLI
	SurfaceMCP = protocol.SurfaceMCP
	SurfaceLSP = protocol.SurfaceLSP
)

// ExitCodeField is the answer field whose integer 0–255 becomes the CLI
// exit code; without it an answer with "ok": false exits 1.
const ExitCodeField = protocol.ExitCodeField

// Argument declares one input. A Name starting with "--" is an option
// ("--times"), any other a positional ("app"). The value arrives under the
// argument's dest: the name without dashes, inner "-" turned into "_".
type Argument struct {
	Name string
	Help string
	// Type defaults to String.
	Type    Type
	Default any
	// Required makes an option mandatory.
	Required bool
	// Optional lets a positional be left out.
	Optional bool
	// Choices are the allowed values (checked by the CLI).
	Choices []any
	// CLIAlias is an option that may stand for a positional ("--app-id").
	CLIAlias string
	// Multiple makes the value a list: a repeatable option, or a
	// positional taking several values.
	Multiple bool
}

// Dest is the name the value arrives under.
func (a Argument) Dest() string {
	return strings.ReplaceAll(strings.TrimLeft(a.Name, "-"), "-", "_")
}

// Handler runs a command; the answer must marshal to JSON.
type Handler func(ctx context.Context, cc *Context, in Args) (any, error)

// Command declares one command.
type Command struct {
	Name string
	Help string
	// NoMCP keeps the command off MCP.
	NoMCP bool
	// MCPName is the tool name; default: Name with "-" turned into "_".
	MCPName   string
	Timeout   time.Duration
	Arguments []Argument
	Run       Handler
}

// Plugin is a whole plugin.
type Plugin struct {
	// Name defaults to the program's file name.
	Name        string
	Version     string
	Description string
	// Requires lists host features beyond those the declarations imply.
	Requires []string
	// Timeout bounds each run (elemctl's default: 10 minutes).
	Timeout time.Duration
	// DebugAdapter is the adapter directory the plugin ships, relative to
	// the plugin directory.
	DebugAdapter string
	Commands     []Command
}

// Serve runs a plugin made of commands; see Main.
func Serve(commands ...Command) { Main(Plugin{Commands: commands}) }

// Main is the plugin program: `prog manifest` prints the manifest; with no
// arguments it serves elemctl over stdin and stdout and exits when elemctl
// closes stdin.
func Main(p Plugin) {
	args := os.Args[1:]
	switch {
	case len(args) == 1 && args[0] == "manifest":
		data, err := json.MarshalIndent(p.Manifest(), "", "  ")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write(append(data, '\n'))
		return
	case len(args) == 0:
		// The protocol owns stdout; stray prints go to stderr.
		out := os.Stdout
		os.Stdout = os.Stderr
		if err := serve(p, os.Stdin, out); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	fmt.Fprintf(os.Stderr, "usage: %s [manifest]\n  manifest  print elemctl-plugin.json\n  (no arguments: serve elemctl over stdin and stdout)\n", programName())
	os.Exit(2)
}

func programName() string {
	exe := filepath.Base(os.Args[0])
	return strings.TrimSuffix(exe, filepath.Ext(exe))
}

// Manifest is the plugin's elemctl-plugin.json; the executable is the
// running program, expected beside the manifest.
func (p Plugin) Manifest() protocol.Manifest {
	m := protocol.Manifest{
		Name: p.Name, Version: p.Version, Description: p.Description,
		Executable: programName(), Timeout: p.Timeout.Seconds(),
	}
	if m.Name == "" {
		m.Name = programName()
	}
	if p.DebugAdapter != "" {
		m.DebugAdapter, _ = json.Marshal(filepath.ToSlash(p.DebugAdapter))
	}
	features := append([]string(nil), p.Requires...)
	need := func(f string) {
		for _, have := range features {
			if have == f {
				return
			}
		}
		features = append(features, f)
	}
	for _, c := range p.Commands {
		spec := protocol.CommandSpec{Name: c.Name, Help: c.Help, MCPName: c.MCPName, Timeout: c.Timeout.Seconds()}
		if c.NoMCP {
			f := false
			spec.MCP = &f
		}
		if c.MCPName != "" {
			need("mcp-name")
		}
		for _, a := range c.Arguments {
			as := protocol.ArgumentSpec{Name: a.Name, Help: a.Help, Type: string(a.Type), Default: a.Default,
				Choices: a.Choices, CLIAlias: a.CLIAlias, Multiple: a.Multiple}
			option := strings.HasPrefix(a.Name, "-")
			if option && a.Required {
				t := true
				as.Required = &t
			}
			if !option && a.Optional {
				f := false
				as.Required = &f
			}
			switch {
			case a.Multiple && !option:
				need("positional-multiple")
			case a.Multiple:
				need("multiple")
			}
			if a.CLIAlias != "" {
				need("cli-alias")
			}
			if len(a.Choices) > 0 {
				need("choices")
			}
			spec.Arguments = append(spec.Arguments, as)
		}
		m.Commands = append(m.Commands, spec)
	}
	m.Requires = features
	return m
}

// Args are a run's argument values by dest. Every declared argument is
// present: what nobody gave carries its default.
type Args map[string]any

func dest(name string) string { return strings.ReplaceAll(strings.TrimLeft(name, "-"), "-", "_") }

// Value is the raw value of an argument (by dest or declared name).
func (a Args) Value(name string) any { return a[dest(name)] }

// Has tells whether the argument has a value other than null.
func (a Args) Has(name string) bool { return a.Value(name) != nil }

// Str reads a string argument ("" when null).
func (a Args) Str(name string) string { s, _ := a.Value(name).(string); return s }

// Bool reads a flag.
func (a Args) Bool(name string) bool { b, _ := a.Value(name).(bool); return b }

// Int reads an int argument (0 when null).
func (a Args) Int(name string) int { return toInt(a.Value(name)) }

// Float reads a float argument (0 when null).
func (a Args) Float(name string) float64 { return toFloat(a.Value(name)) }

// Strings reads a multiple str argument.
func (a Args) Strings(name string) []string {
	list, _ := a.Value(name).([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// Ints reads a multiple int argument.
func (a Args) Ints(name string) []int {
	list, _ := a.Value(name).([]any)
	out := make([]int, 0, len(list))
	for _, e := range list {
		out = append(out, toInt(e))
	}
	return out
}

// Floats reads a multiple float argument.
func (a Args) Floats(name string) []float64 {
	list, _ := a.Value(name).([]any)
	out := make([]float64, 0, len(list))
	for _, e := range list {
		out = append(out, toFloat(e))
	}
	return out
}

func toInt(v any) int {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n)
		}
		f, _ := x.Float64()
		return int(f)
	case float64:
		return int(x)
	case int:
		return x
	}
	return 0
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case float64:
		return x
	case int:
		return float64(x)
	}
	return 0
}

// Error is a failure with an elemctl error object: what a host call
// answered ({"error", "status", "method", "url", "body", "hint"}).
// Returned from a handler it reaches the user in the same shape.
type Error struct {
	Message string
	// Data is the error object, or nil.
	Data *Object
	// Code is the JSON-RPC error code.
	Code int
}

func (e *Error) Error() string { return e.Message }

// Errorf builds a plain failure of a command.
func Errorf(format string, args ...any) error { return &Error{Message: fmt.Sprintf(format, args...)} }

// IsStatus tells whether err is a Console API answer with one of the
// HTTP statuses.
func IsStatus(err error, statuses ...int) bool {
	var e *Error
	if !errors.As(err, &e) || e.Data == nil {
		return false
	}
	n, ok := e.Data.Int("status")
	if !ok {
		return false
	}
	for _, s := range statuses {
		if int(n) == s {
			return true
		}
	}
	return false
}
