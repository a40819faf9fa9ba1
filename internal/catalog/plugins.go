package catalog

import (
	"context"
	"path/filepath"
	"runtime"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

func pluginsCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"plugins"}, Order: 17, PlainStderr: true, Examples: []string{"elemctl plugins"}, Help: "cli.help.plugins", Local: true, ReadOnly: true, Idempotent: true,
	}, runPlugins)
}

func debugAdapterTool() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"debug-adapter"}, Order: 16, Examples: []string{"elemctl debug-adapter"},
		Tool: "debug_adapter", LSP: "debugAdapter", Help: "cli.help.debug-adapter", ToolHelp: "mcp.help.debug-adapter",
		Local: true, ReadOnly: true, Idempotent: true, Args: []command.Argument{}, ToolArgs: []command.Argument{},
	}, runDebugAdapter)
}

// debugAdapterExtractCommand is `elemctl debug-adapter extract DISTRO
// [--output DIR]`: it copies the platform's debug adapter out of a
// distribution into <output>/<version> and keeps <output>/index.json.
func debugAdapterExtractCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"debug-adapter", "extract"}, Order: 1, Examples: []string{"elemctl debug-adapter extract ~/Downloads/element-8.0.30.car"}, Help: "cli.help.debug-adapter-extract", Local: true, WritesFiles: true,
		Args: []command.Argument{
			{Name: "distro", Help: "cli.arg.adapter-distro", Type: command.String, Positional: true, Required: true, Metavar: "DISTRO"},
			{Name: "output", Help: "cli.arg.adapter-output", Type: command.String, Metavar: "DIR"},
		},
	}, runDebugAdapterExtract)
}

func discoveryOptions(cc *command.Context) manifest.Options {
	return manifest.Options{Getenv: cc.Env, Version: cc.Version}
}

// runPlugins reports what discovery finds, placed beside the core as
// every face places it.
func runPlugins(ctx context.Context, cc *command.Context, _ struct{}) (any, error) {
	opts := discoveryOptions(cc)
	set := manifest.Discover(ctx, opts)
	res := set.Resolve(ctx, command.PluginTaken(Core()))
	found, err := adapter.NewLocator(ctx, opts, set).All(ctx)
	if err != nil {
		return nil, err
	}
	adapters := []any{}
	for _, c := range found {
		adapters = append(adapters, jsonx.New("path", c.Path, "has-jars", c.HasJars))
	}
	commands := []any{}
	for _, r := range res.Commands {
		var tool any
		if r.Tool != "" {
			tool = r.Tool
		}
		commands = append(commands, jsonx.New("name", r.Name, "source", r.Plugin.Name, "mcp", tool))
	}
	failures := []any{}
	for _, f := range res.Failures {
		failures = append(failures, jsonx.New("source", f.Source, "error", f.Error))
	}
	features := make([]any, 0, len(manifest.Features))
	for _, f := range manifest.Features {
		features = append(features, f)
	}
	return jsonx.New("debug-adapter", adapters, "commands", commands, "failures", failures, "features", features), nil
}

func runDebugAdapter(ctx context.Context, cc *command.Context, _ struct{}) (any, error) {
	dir, err := adapter.NewLocator(ctx, discoveryOptions(cc), nil).Locate(ctx)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return jsonx.New("path", nil, "found", false), nil
	}
	return jsonx.New("path", dir, "found", true, "adapter-class", adapter.MainClass), nil
}

// debugAdapterExtractInput are the arguments runDebugAdapterExtract reads.
type debugAdapterExtractInput struct {
	Output string `arg:"output"`
	Distro string `arg:"distro"`
}

func runDebugAdapterExtract(ctx context.Context, cc *command.Context, in debugAdapterExtractInput) (any, error) {
	from := func(p string) string {
		if p == "" || filepath.IsAbs(p) || cc.Dir == "" {
			return p
		}
		return filepath.Join(cc.Dir, p)
	}
	output := in.Output
	if output == "" {
		output = adapter.DefaultOutput(cc.Env, runtime.GOOS)
	}
	res, err := adapter.Extract(ctx, from(in.Distro), from(output))
	if err != nil {
		return nil, err
	}
	available := make([]any, 0, len(res.Available))
	for _, v := range res.Available {
		available = append(available, v)
	}
	cc.Log(i18n.T(ctx, "plugins.extract-done", "count", res.Files, "dir", res.Path))
	cc.Log(i18n.T(ctx, "plugins.extract-index", "file", res.IndexFile, "version", res.Default, "available", jsonList(res.Available)))
	return jsonx.New("path", res.Path, "version", res.Version, "files", res.Files, "car", res.Car,
		"index", res.IndexFile, "default", res.Default, "available", available), nil
}

func jsonList(items []string) string {
	raw, _ := jsonx.Compact(items)
	return string(raw)
}

var pluginsMessages = []i18n.Message{
	{Key: "cli.help.plugins",
		RU: "найденные плагины: команды, отладочный адаптер, ошибки загрузки",
		EN: "the plugins found: commands, debug adapter, load failures",
	},
	{Key: "cli.help.debug-adapter",
		RU: "каталог отладочного адаптера платформы (ELEMCTL_DEBUG_ADAPTER, плагины, извлечённый адаптер)",
		EN: "the platform debug adapter's directory (ELEMCTL_DEBUG_ADAPTER, plugins, the extracted adapter)",
	},
	{Key: "mcp.help.debug-adapter",
		RU: "Каталог отладочного адаптера 1C:Element: {path, found, adapter-class} или {path: null, found: false}.",
		EN: "The 1C:Element debug adapter's directory: {path, found, adapter-class} or {path: null, found: false}.",
	},
	{Key: "cli.help.debug-adapter-extract",
		RU: "извлечь отладочный адаптер из дистрибутива 1C:Element (.car или каталог с ним)",
		EN: "extract the debug adapter from a 1C:Element distribution (a .car or a directory holding one)",
	},
	{Key: "cli.arg.adapter-distro",
		RU: "файл .car или каталог дистрибутива",
		EN: "the .car file or the distribution directory",
	},
	{Key: "cli.arg.adapter-output",
		RU: "куда извлечь (по умолчанию – каталог данных elemctl, где адаптер найдётся сам)",
		EN: "where to extract (default: elemctl's data directory, where the adapter is found by itself)",
	},
}

// faceCommands are the command line's own servers and tools: the CLI
// renders them, no face runs them as operations (command.Command.Face).
func faceCommands() []*command.Command {
	return []*command.Command{
		{Path: []string{"self-update"}, Order: 18, Face: true, Help: "selfupdate.help",
			Examples: []string{"elemctl self-update --check", "elemctl self-update --stop-holders", "elemctl self-update --version 1.0.0"}},
		{Path: []string{"mcp"}, Order: 19, Face: true, Help: "mcp.server.cli-help", PlainStderr: true,
			Examples: []string{"elemctl mcp", "elemctl --env-file /home/me/shop/.env mcp", "elemctl mcp --http 127.0.0.1:7700 --env-dir /home/me/stands"}},
		{Path: []string{"mcp", "install"}, Order: 1, Face: true, Help: "mcp.cli.install-help",
			Examples: []string{"elemctl mcp install --client claude", "elemctl --env-file /home/me/shop/.env mcp install --client vscode --scope project --print"}},
		{Path: []string{"lsp"}, Order: 20, Face: true, Help: "lsp.cli-help", Examples: []string{"elemctl lsp"}},
		{Path: []string{"dap"}, Order: 21, Face: true, Help: "cli.help.dap",
			Examples: []string{"elemctl dap --adapter ~/.local/share/elemctl/debug-adapter/8.0.30"}},
		{Path: []string{"stand"}, Order: 22, Face: true, Local: true, Help: "cli.help.stand",
			Examples: []string{"elemctl stand --seed demo --write-env demo.env", "elemctl stand --seed demo --state stand.json --speed 0.1",
				"elemctl stand --seed demo --write-env ci.env --faults flaky.yaml --log requests.jsonl",
				"elemctl stand --apps 500 --deleted-apps 4500 --builds 2000 --apply-time 30s --speed 0.1",
				"elemctl stand --seed demo --tls-ca stand-ca.pem --write-env demo.env --latency 20ms"}},
	}
}
