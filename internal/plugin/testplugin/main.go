// Command testplugin is the plugin elemctl's tests run: every command
// exercises one part of the protocol, including the ways a plugin can
// misbehave. It writes its pid to $TESTPLUGIN_PIDFILE when set, so tests
// can check the process was stopped and reaped.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/elemctl/elemctl/plugin/sdk"
)

func main() {
	if f := os.Getenv("TESTPLUGIN_PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	if os.Getenv("TESTPLUGIN_SLEEPER") != "" {
		// The child leave-child starts: it holds stderr and outlives its parent.
		time.Sleep(time.Minute)
		return
	}
	if os.Getenv("TESTPLUGIN_MUTE") != "" {
		// Never answers the handshake.
		time.Sleep(time.Hour)
	}
	sdk.Main(sdk.Plugin{Name: "testplugin", Commands: commands})
}

// protocolOut is the real stdout, for commands that break the protocol on
// purpose (the SDK sends stray prints to stderr).
var protocolOut = os.NewFile(1, "stdout")

var commands = []sdk.Command{
	{
		Name: "echo", Help: "return the arguments as received",
		Arguments: []sdk.Argument{
			{Name: "items", Help: "items", Multiple: true, Optional: true, CLIAlias: "--item"},
			{Name: "--count", Type: sdk.Int, Default: 1, Help: "a count"},
			{Name: "--ratio", Type: sdk.Float, Help: "a ratio"},
			{Name: "--mode", Choices: []any{"fast", "slow"}, Help: "a mode"},
			{Name: "--level", Type: sdk.Int, Choices: []any{1, 2, 3}, Help: "a level"},
			{Name: "--tag", Multiple: true, Default: []any{"base"}, Help: "tags"},
			{Name: "--num", Type: sdk.Int, Multiple: true, Help: "numbers"},
			{Name: "--verbose", Type: sdk.Bool, Help: "a flag"},
		},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			args := sdk.NewObject()
			for _, k := range []string{"items", "count", "ratio", "mode", "level", "tag", "num", "verbose"} {
				args.Set(k, in.Value(k))
			}
			return sdk.NewObject("arguments", args, "surface", cc.Surface, "host-calls", cc.Has("host-calls")), nil
		},
	},
	{
		Name: "pick", Help: "one required positional with an alias and a required option",
		Arguments: []sdk.Argument{
			{Name: "page", Type: sdk.Int, CLIAlias: "--page"},
			{Name: "--stand", Required: true},
		},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			return sdk.NewObject("page", in.Value("page"), "stand", in.Value("stand")), nil
		},
	},
	{
		Name: "talk", Help: "log lines, then answer",
		Arguments: []sdk.Argument{{Name: "--lines", Type: sdk.Int, Default: 2}},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			for i := 1; i <= in.Int("lines"); i++ {
				cc.Logf("line %d", i)
			}
			fmt.Println("a stray print")
			return sdk.NewObject("said", in.Int("lines")), nil
		},
	},
	{
		Name: "verdict", Help: "answer ok and exit-code as asked", MCPName: "test_verdict",
		Arguments: []sdk.Argument{
			{Name: "--ok", Default: "true"},
			{Name: "--exit-code", Default: "none"},
		},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			o := sdk.NewObject("ok", in.Str("ok") == "true")
			switch v := in.Str("exit-code"); v {
			case "none":
			case "true":
				o.Set(sdk.ExitCodeField, true)
			case "string":
				o.Set(sdk.ExitCodeField, "7")
			case "2.0":
				o.Set(sdk.ExitCodeField, json.Number("2.0"))
			default:
				n, _ := strconv.Atoi(v)
				o.Set(sdk.ExitCodeField, n)
			}
			return o, nil
		},
	},
	{
		Name: "list", Help: "answer a list", NoMCP: true,
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			return []any{1, "two"}, nil
		},
	},
	{
		Name: "crash", Help: "exit in the middle of a run",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			cc.Log("about to crash")
			time.Sleep(20 * time.Millisecond)
			os.Exit(3)
			return nil, nil
		},
	},
	{
		Name: "hang", Help: "never answer",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			time.Sleep(time.Hour)
			return nil, nil
		},
	},
	{
		Name: "garbage", Help: "write something that is not a protocol message",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			protocolOut.WriteString("hello, I am not JSON\n")
			time.Sleep(time.Hour)
			return nil, nil
		},
	},
	{
		Name: "mute", Help: "close stdout and keep running",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			protocolOut.Close()
			time.Sleep(time.Hour)
			return nil, nil
		},
	},
	{
		Name: "fail", Help: "fail with a message",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			return nil, sdk.Errorf("the widget is broken")
		},
	},
	{
		Name: "panic", Help: "panic in the handler",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			panic("boom")
		},
	},
	{
		Name: "get", Help: "read an application through the host",
		Arguments: []sdk.Argument{{Name: "app", Optional: true}},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			return cc.Client().GetApp(ctx, in.Str("app"))
		},
	},
	{
		Name: "call", Help: "call any host method with JSON parameters",
		Arguments: []sdk.Argument{{Name: "method"}, {Name: "params", Optional: true, Default: "{}"}},
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			v, err := sdk.Decode([]byte(in.Str("params")))
			if err != nil {
				return nil, err
			}
			o, _ := v.(*sdk.Object)
			params := map[string]any{}
			for _, k := range o.Keys() {
				params[k] = o.Value(k)
			}
			if in.Str("method") == "console" {
				return cc.Client().Console(ctx, sdk.ConsoleRequest{Method: o.Str("method"), Path: o.Str("path"), API: o.Str("api")})
			}
			return cc.Client().Call(ctx, in.Str("method"), params)
		},
	},
	{
		Name: "env", Help: "tell whether the client secret reached the plugin",
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			return sdk.NewObject("secret-seen", os.Getenv("ELEMENT_CLIENT_SECRET") != "", "plugin-dir", os.Getenv("ELEMCTL_PLUGIN_DIR")), nil
		},
	},
	{
		Name: "leave-child", Help: "start a child that keeps stderr open, then answer with its pid", NoMCP: true,
		Run: func(ctx context.Context, cc *sdk.Context, in sdk.Args) (any, error) {
			env := []string{"TESTPLUGIN_SLEEPER=1"}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "TESTPLUGIN_PIDFILE=") {
					env = append(env, kv)
				}
			}
			child, err := os.StartProcess(os.Args[0], os.Args[:1], &os.ProcAttr{
				Env:   env,
				Files: []*os.File{nil, nil, os.Stderr},
			})
			if err != nil {
				return nil, err
			}
			return sdk.NewObject("child", child.Pid), nil
		},
	},
}
