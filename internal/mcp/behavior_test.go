package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

func TestInstructions(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "t", Version: "1"}
	res, err := h.cl.Initialize(context.Background(), init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "elemctl" || res.ServerInfo.Version != "0.0.0-test" {
		t.Errorf("server info %+v", res.ServerInfo)
	}
	for _, want := range []string{"откатывает", "Running", "env_file", "deploy", "verify_deploy", "applied-version-id"} {
		if !strings.Contains(res.Instructions, want) {
			t.Errorf("instructions lack %q: %s", want, res.Instructions)
		}
	}

	cmds := []*command.Command{
		{Tool: "deploy", Slow: true}, {Tool: "probe", Slow: true}, {Tool: "list_apps"},
		{Tool: "build_assembly", Local: true, Slow: true}, {Tool: "inspect_assembly", Local: true},
		{Tool: "acme_warm_up", Slow: true, Source: "acme"},
	}
	ru := Instructions(i18n.WithLang(context.Background(), i18n.RU), cmds)
	for _, want := range []string{"build_assembly, deploy, probe, acme_warm_up идут минутами", "build_assembly, inspect_assembly – локальные", "env_file"} {
		if !strings.Contains(ru, want) {
			t.Errorf("instructions lack %q: %s", want, ru)
		}
	}
	en := Instructions(i18n.WithLang(context.Background(), i18n.EN), cmds)
	for _, want := range []string{"silently rolls back", "Running is not success", "env_file", "take minutes", "are local"} {
		if !strings.Contains(en, want) {
			t.Errorf("English instructions lack %q: %s", want, en)
		}
	}
}

// testCommands are commands only these tests serve.
func testCommands(started chan<- struct{}) []*command.Command {
	return []*command.Command{
		{
			Tool: "test_panic", Help: "panics with the client secret in the message",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				cfg, err := cc.Config(ctx)
				if err != nil {
					return nil, err
				}
				panic("broken while holding " + cfg.ClientSecret)
			},
		},
		{
			Tool: "test_nil", Help: "dereferences nil",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				var card *struct{ Name string }
				return card.Name, nil
			},
		},
		{
			Tool: "test_struct_panic", Help: "panics with a struct",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				panic(struct{ Secret string }{"hidden"})
			},
		},
		{
			Tool: "test_steps", Help: "logs its steps", Slow: true,
			Args: []command.Argument{{Name: "steps", Type: command.Int, Default: 3}},
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				for i := 1; i <= in.Int("steps"); i++ {
					cc.Log(fmt.Sprintf("step %d", i))
				}
				cc.Status("waiting")
				return jsonx.New("ok", true, "log", "handler's own"), nil
			},
		},
		{
			Tool: "test_wait", Help: "waits until cancelled", Slow: true,
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				cc.Log("waiting for the server")
				if started != nil {
					started <- struct{}{}
				}
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(20 * time.Second):
					return jsonx.New("ok", false), nil
				}
			},
		},
		{
			Tool: "test_leaky_error", Help: "fails with the secret in the message",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				cfg, _ := cc.Config(ctx)
				return nil, errors.New("refused for " + cfg.ClientSecret)
			},
		},
		{
			Tool: "test_log_secret", Help: "logs the secret",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				cfg, _ := cc.Config(ctx)
				cc.Log("using " + cfg.ClientSecret)
				return jsonx.New("ok", true), nil
			},
		},
	}
}

func catalogWith(cmds ...*command.Command) *command.Catalog {
	c := catalog.Core()
	c.Add(cmds...)
	return c
}

func TestPanicIsRecoveredAndReported(t *testing.T) {
	h := start(t, setup{catalog: catalogWith(testCommands(nil)...)})
	text := h.fails("test_panic", nil)
	if !strings.Contains(text, "внутренняя ошибка elemctl в test_panic") || !strings.Contains(text, "broken while holding ***") {
		t.Errorf("panic result %s", text)
	}
	if text := h.fails("test_nil", nil); !strings.Contains(text, "nil pointer") {
		t.Errorf("runtime panic result %s", text)
	}
	if text := h.fails("test_struct_panic", nil); strings.Contains(text, "hidden") || strings.Contains(text, "{") && strings.Contains(text, "Secret") {
		t.Errorf("a struct panic must not be dumped: %s", text)
	}
	// The server keeps serving.
	if n := totalOf(t, h.ok("list_apps", nil)); n != 1 {
		t.Errorf("after the panics: %d", n)
	}
	log := h.stderr.String()
	if !strings.Contains(log, "panic in test_panic") || !strings.Contains(log, "goroutine") {
		t.Errorf("the stack goes to the server log: %s", log)
	}
	if strings.Contains(log, h.stand.ClientSecret()) {
		t.Error("the secret reached the server log")
	}
}

func TestSecretsNeverLeaveTheServer(t *testing.T) {
	h := start(t, setup{catalog: catalogWith(testCommands(nil)...)})
	if text := h.fails("test_leaky_error", nil); !strings.Contains(text, "refused for ***") {
		t.Errorf("error %s", text)
	}
	got := h.ok("test_log_secret", nil)
	if fmt.Sprint(got.Value("log")) != "[using ***]" {
		t.Errorf("log %v", got.Value("log"))
	}
	// checkNoSecrets ran on every result above.
}

func TestProgressNotificationsAndLog(t *testing.T) {
	h := start(t, setup{catalog: catalogWith(testCommands(nil)...)})
	ctx := context.Background()
	res, err := h.callWith(ctx, "test_steps", nil, &mcpgo.Meta{ProgressToken: "deploy-1"})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, textOf(res))
	}
	answer := decodeText(t, textOf(res)).(*jsonx.Object)
	if fmt.Sprint(answer.Value("log")) != "[step 1 step 2 step 3]" {
		t.Errorf("the core's log replaces the handler's: %v", answer.Value("log"))
	}
	waitFor(t, "three progress notifications", func() bool { return len(h.progressNotes()) >= 4 })
	notes := h.progressNotes()
	var messages []string
	for i, n := range notes {
		if n["progressToken"] != "deploy-1" {
			t.Errorf("notification %d has token %v", i, n["progressToken"])
		}
		if fmt.Sprint(n["progress"]) != fmt.Sprint(i+1) {
			t.Errorf("notification %d has progress %v", i, n["progress"])
		}
		messages = append(messages, fmt.Sprint(n["message"]))
	}
	if strings.Join(messages, "|") != "step 1|step 2|step 3|waiting" {
		t.Errorf("progress messages %v", messages)
	}

	// Without a token: the log, no notifications.
	before := len(h.progressNotes())
	got := h.ok("test_steps", map[string]any{"steps": 1})
	if fmt.Sprint(got.Value("log")) != "[step 1]" {
		t.Errorf("log %v", got.Value("log"))
	}
	// A call with a token after it: once its notification is here, any
	// of the call before would be too (one session, in order).
	if _, err := h.callWith(ctx, "test_steps", map[string]any{"steps": 1}, &mcpgo.Meta{ProgressToken: "barrier"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the barrier's notification", func() bool { return len(h.progressNotes()) > before })
	for _, n := range h.progressNotes()[before:] {
		if n["progressToken"] != "barrier" {
			t.Errorf("a call without a progress token was told its progress: %v", n)
		}
	}
	// A slow command that logged nothing still has its (empty) log; a
	// quick one that logged nothing has none.
	if got := h.ok("test_steps", map[string]any{"steps": 0}); fmt.Sprint(got.Value("log")) != "[]" {
		t.Errorf("empty log of a slow command: %v", got.Value("log"))
	}
	if h.ok("list_apps", nil).Has("log") {
		t.Error("list_apps got a log it did not ask for")
	}
}

func TestCancellationStopsTheCallInProcess(t *testing.T) {
	started := make(chan struct{}, 1)
	h := start(t, setup{catalog: catalogWith(testCommands(started)...)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.callWith(ctx, "test_wait", nil, &mcpgo.Meta{ProgressToken: 7})
		done <- err
	}()
	<-started
	at := time.Now()
	cancel()
	select {
	case <-done:
		if d := time.Since(at); d > 2*time.Second {
			t.Errorf("cancellation took %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not stop after cancellation")
	}
	if n := totalOf(t, h.ok("list_apps", nil)); n != 1 {
		t.Errorf("the server keeps serving: %d", n)
	}
}

// pluginCommands are what the plugin host hands the server: commands with
// a Source, declared slow, their tool parameters all optional.
func pluginCommands() []*command.Command {
	echo := func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
		out := jsonx.New("surface", string(cc.Surface))
		for _, k := range []string{"retries", "tags", "verbose", "ratio", "who", "ids", "page"} {
			if v, ok := in.Raw(k); ok {
				out.Set(k, jsonx.New("type", fmt.Sprintf("%T", v), "value", v, "given", in.Given(k)))
			}
		}
		cc.Log("echoed")
		return out, nil
	}
	return []*command.Command{
		{Path: []string{"list-apps"}, Tool: "list_apps", Source: "acme", Slow: true, OptionalToolArgs: true, Help: "clashes with the core",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				return jsonx.New("plugin", true), nil
			}},
		{Path: []string{"echo"}, Tool: "acme_echo", Source: "acme", Slow: true, OptionalToolArgs: true, Help: "echoes its values",
			Args: []command.Argument{
				{Name: "retries", Type: command.Int, Default: 1},
				{Name: "tags", Type: command.String, Multiple: true},
				{Name: "verbose", Type: command.Bool},
				{Name: "ratio", Type: command.Float, Default: 0.5},
				{Name: "who", Type: command.String, Positional: true, Required: true},
				{Name: "ids", Type: command.String, OrList: true},
				{Name: "page", Type: command.String, Positional: true, CLIAlias: "--page", Default: "1"},
			},
			Run: echo},
		{Path: []string{"items"}, Tool: "acme_items", Source: "acme", Slow: true, OptionalToolArgs: true, Help: "a list answer",
			Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
				cc.Log("listing")
				return []any{"first", jsonx.New("n", 2)}, nil
			}},
	}
}

func TestPluginTools(t *testing.T) {
	ctx := context.Background()
	h := start(t, setup{
		extra:    pluginCommands(),
		failures: []PluginFailure{{Source: "broken", Err: platform.NewError(ctx, platform.KindPlugin, "the manifest is not JSON")}},
	})
	log := h.stderr.String()
	for _, want := range []string{
		"плагин 'acme' не загрузился, его инструментов нет: инструмент list_apps уже есть в elemctl (ядро)",
		"плагин 'broken' не загрузился, его инструментов нет: the manifest is not JSON",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	if got := h.ok("list_apps", nil); !got.Has("summary") {
		t.Errorf("the core list_apps must win: %v", got)
	}
	if fs := h.srv.Failures(); len(fs) != 2 {
		t.Errorf("failures %v", fs)
	}

	// The schema follows spec §1.7.
	res, err := h.cl.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var echo mcpgo.Tool
	for _, tool := range res.Tools {
		if tool.Name == "acme_echo" {
			echo = tool
		}
	}
	raw, _ := json.Marshal(echo.InputSchema)
	var schema map[string]any
	json.Unmarshal(raw, &schema)
	props := schema["properties"].(map[string]any)
	if want := map[string]any{"default": float64(1), "title": "Retries", "type": "integer"}; !reflect.DeepEqual(props["retries"], want) {
		t.Errorf("retries %v", props["retries"])
	}
	if want := map[string]any{"default": false, "title": "Verbose", "type": "boolean"}; !reflect.DeepEqual(props["verbose"], want) {
		t.Errorf("verbose %v", props["verbose"])
	}
	if want := map[string]any{"default": []any{}, "title": "Tags", "type": "array", "items": map[string]any{"type": "string"}}; !reflect.DeepEqual(props["tags"], want) {
		t.Errorf("tags %v", props["tags"])
	}
	// No "default": null on a string: the schema would contradict itself.
	if want := map[string]any{"title": "Who", "type": "string"}; !reflect.DeepEqual(props["who"], want) {
		t.Errorf("who %v", props["who"])
	}
	var names []string
	for name := range props {
		names = append(names, name)
	}
	if len(props) != 8 || props["env_file"] == nil || props["page"] == nil {
		t.Errorf("parameters %v: one per argument plus env_file, no alias parameter", names)
	}
	if req, ok := schema["required"]; ok && len(req.([]any)) > 0 {
		t.Errorf("plugin tools list nothing as required: %v", req)
	}

	got := h.ok("acme_echo", map[string]any{"retries": "3", "tags": "a", "ratio": 2, "ids": []any{"x", "y"}, "who": 42})
	want := map[string]string{
		"retries": `{"type":"int","value":3,"given":true}`,
		"tags":    `{"type":"[]string","value":["a"],"given":true}`,
		"verbose": `{"type":"bool","value":false,"given":false}`,
		"ratio":   `{"type":"float64","value":2,"given":true}`,
		"ids":     `{"type":"[]string","value":["x","y"],"given":true}`,
		"who":     `{"type":"string","value":"42","given":true}`,
		"page":    `{"type":"string","value":"1","given":false}`,
	}
	for k, w := range want {
		raw, _ := jsonx.Compact(got.Value(k))
		if string(raw) != w {
			t.Errorf("%s: %s, want %s", k, raw, w)
		}
	}
	if got.Str("surface") != "mcp" || fmt.Sprint(got.Value("log")) != "[echoed]" {
		t.Errorf("surface and log: %v", got)
	}
	single := h.ok("acme_echo", map[string]any{"ids": "only"})
	if raw, _ := jsonx.Compact(single.Value("ids")); string(raw) != `{"type":"string","value":"only","given":true}` {
		t.Errorf("a single value of an OrList parameter stays single: %s", raw)
	}

	// A list answer is returned as is: one block per item, no log merged.
	items := h.call("acme_items", nil)
	if ts := texts(items); len(ts) != 2 || ts[0] != "first" || !strings.Contains(ts[1], `"n": 2`) {
		t.Errorf("list answer blocks %q", ts)
	}

	// Commands added after the start still register, and a second clash
	// is reported again.
	failed := h.srv.AddCommands(ctx, &command.Command{Tool: "acme_echo", Source: "other", Slow: true, OptionalToolArgs: true, Run: pluginCommands()[1].Run},
		&command.Command{Tool: "late_tool", Source: "other", Slow: true, OptionalToolArgs: true, Help: "late", Run: pluginCommands()[1].Run})
	if len(failed) != 1 || !strings.Contains(failed[0].Err.Error(), "acme") {
		t.Errorf("clash between plugins: %v", failed)
	}
	h.ok("late_tool", nil)
}

func TestPluginCommandsInTheCatalogComeAfterTheCore(t *testing.T) {
	cat := catalog.Core()
	cat.Add(pluginCommands()[1], pluginCommands()[2])
	h := start(t, setup{catalog: cat})
	tools := strings.Join(h.srv.Tools(), ",")
	if !strings.Contains(tools, "acme_echo") || !strings.Contains(tools, "list_apps") {
		t.Errorf("tools %s", tools)
	}
	if h.stderr.String() != "" {
		t.Errorf("no clash, no stderr: %s", h.stderr.String())
	}
}

// A plugin tool resolves its env_file before the plugin runs (spec §1.7):
// a missing one is the standard error and the plugin is not started; and
// a plugin's null answer is no content, as the reference server sends it.
func TestPluginToolEnvFileAndNullAnswer(t *testing.T) {
	var runs atomic.Int32
	quiet := &command.Command{Path: []string{"quiet"}, Tool: "acme_quiet", Source: "acme", Slow: true, OptionalToolArgs: true, Help: "answers null",
		Run: func(ctx context.Context, cc *command.Context, in command.Values) (any, error) {
			runs.Add(1)
			return nil, nil
		}}
	h := start(t, setup{extra: []*command.Command{quiet}})

	msg := h.fails("acme_quiet", map[string]any{"env_file": "no-such.env"})
	if !strings.Contains(msg, "не найден") || !strings.Contains(msg, "no-such.env") {
		t.Errorf("missing env_file: %s", msg)
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the plugin ran %d times for a call with a missing env_file", n)
	}

	res := h.call("acme_quiet", nil)
	if res.IsError || len(res.Content) != 0 {
		t.Errorf("a null answer: error %v, content %q", res.IsError, texts(res))
	}
	if raw, _ := json.Marshal(res.StructuredContent); string(raw) != `{"result":null}` {
		t.Errorf("structuredContent %s", raw)
	}
	// An env_file that is there works as for any tool.
	writeFile(t, filepath.Join(h.dir, "other.env"), envText(h.stand))
	if res := h.call("acme_quiet", map[string]any{"env_file": "other.env"}); res.IsError {
		t.Errorf("an existing env_file: %s", textOf(res))
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("runs %d, want 2", n)
	}
}
