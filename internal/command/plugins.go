package command

import (
	"context"
	"path/filepath"
	"runtime"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
)

func pluginsCommand() *Command {
	return &Command{
		Path: []string{"plugins"}, Help: "cli.help.plugins", Local: true, ReadOnly: true, Idempotent: true,
		Run: runPlugins,
	}
}

func debugAdapterTool() *Command {
	return &Command{
		Tool: "debug_adapter", LSP: "debugAdapter", Help: "cli.help.debug-adapter", ToolHelp: "mcp.help.debug-adapter",
		Local: true, ReadOnly: true, Idempotent: true, Args: []Argument{}, ToolArgs: []Argument{},
		Run: runDebugAdapter,
	}
}

// DebugAdapterExtract is `elemctl debug-adapter extract DISTRO [--output
// DIR]`: it copies the platform's debug adapter out of a distribution into
// <output>/<version> and keeps <output>/index.json.
var DebugAdapterExtract = &Command{
	Path: []string{"debug-adapter", "extract"}, Help: "cli.help.debug-adapter-extract", Local: true, WritesFiles: true,
	Args: []Argument{
		{Name: "distro", Help: "cli.arg.adapter-distro", Type: String, Positional: true, Required: true, Metavar: "DISTRO"},
		{Name: "output", Help: "cli.arg.adapter-output", Type: String, Metavar: "DIR"},
	},
	Run: runDebugAdapterExtract,
}

// PluginTaken are the names cat uses, which plugin commands may not take.
func PluginTaken(cat *Catalog) manifest.Taken {
	t := manifest.Taken{Commands: map[string]bool{}, Tools: map[string]bool{}, LSP: map[string]bool{}}
	for _, g := range cat.Groups() {
		t.Commands[g.Name] = true
	}
	for _, c := range cat.Commands() {
		if len(c.Path) > 0 {
			t.Commands[c.Path[0]] = true
		}
		if c.Tool != "" {
			t.Tools[c.Tool] = true
		}
		if c.LSP != "" {
			t.LSP[c.LSP] = true
		}
	}
	return t
}

func discoveryOptions(cc *Context) manifest.Options {
	return manifest.Options{Getenv: cc.Env, Version: cc.Version}
}

// runPlugins reports what discovery finds, placed beside the core as
// every face places it.
func runPlugins(ctx context.Context, cc *Context, in Values) (any, error) {
	opts := discoveryOptions(cc)
	set := manifest.Discover(opts)
	res := set.Resolve(PluginTaken(Core()))
	found, err := adapter.NewLocator(opts, set).All(ctx)
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

func runDebugAdapter(ctx context.Context, cc *Context, in Values) (any, error) {
	dir, err := adapter.NewLocator(discoveryOptions(cc), nil).Locate(ctx)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return jsonx.New("path", nil, "found", false), nil
	}
	return jsonx.New("path", dir, "found", true, "adapter-class", adapter.MainClass), nil
}

func runDebugAdapterExtract(ctx context.Context, cc *Context, in Values) (any, error) {
	from := func(p string) string {
		if p == "" || filepath.IsAbs(p) || cc.Dir == "" {
			return p
		}
		return filepath.Join(cc.Dir, p)
	}
	output := in.Str("output")
	if output == "" {
		output = adapter.DefaultOutput(cc.Env, runtime.GOOS)
	}
	res, err := adapter.Extract(from(in.Str("distro")), from(output))
	if err != nil {
		return nil, err
	}
	available := make([]any, 0, len(res.Available))
	for _, v := range res.Available {
		available = append(available, v)
	}
	cc.Log(i18n.T("plugins.extract-done", "count", res.Files, "dir", res.Path))
	cc.Log(i18n.T("plugins.extract-index", "file", res.IndexFile, "version", res.Default, "available", jsonList(res.Available)))
	return jsonx.New("path", res.Path, "version", res.Version, "files", res.Files, "car", res.Car,
		"index", res.IndexFile, "default", res.Default, "available", available), nil
}

func jsonList(items []string) string {
	raw, _ := jsonx.Compact(items)
	return string(raw)
}

func init() {
	i18n.Register(pluginsMessages)
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
