package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/lsp"
)

func TestInitializeWithTheVSCodePayload(t *testing.T) {
	s := start(t, setup{})
	res := s.initialize()
	caps, _ := res["capabilities"].(map[string]any)
	provider, _ := caps["executeCommandProvider"].(map[string]any)
	var have []string
	for _, c := range provider["commands"].([]any) {
		have = append(have, c.(string))
	}
	var want []string
	for _, c := range catalog.Core().Commands() {
		if c.LSP != "" {
			want = append(want, "elemctl."+c.LSP)
		}
	}
	sort.Strings(want)
	if strings.Join(have, " ") != strings.Join(want, " ") {
		t.Errorf("advertised commands\n got %v\nwant %v", have, want)
	}
	for _, id := range []string{"elemctl.apps.list", "elemctl.apps.get", "elemctl.apps.debug"} {
		if !contains(have, id) {
			t.Errorf("%s is not advertised: %v", id, have)
		}
	}
	if _, ok := caps["codeLensProvider"].(map[string]any); !ok {
		t.Errorf("code lenses are not advertised: %v", caps)
	}
	info, _ := res["serverInfo"].(map[string]any)
	if info["name"] != "elemctl" || info["version"] != "test" {
		t.Errorf("serverInfo: %v", info)
	}
	// A second initialize is refused; the session goes on.
	_, err := s.conn.Call(context.Background(), "initialize", s.vscodeInitialize(nil), nil)
	if je := rpcError(t, err); je.Code != -32600 {
		t.Errorf("a second initialize: %v", je)
	}
	if out := s.run("elemctl.apps.list", map[string]any{"cwd": s.ws, "brief": true}); out["total"] == nil {
		t.Errorf("apps.list after a refused initialize: %v", out)
	}
}

func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	s := start(t, setup{noSeed: true})
	_, err := s.execute(context.Background(), "elemctl.apps.list", nil, "")
	if je := rpcError(t, err); je.Code != -32002 || !strings.Contains(je.Message, "workspace/executeCommand") {
		t.Errorf("before initialize: %v", je)
	}
}

func TestEveryCommandOfTheCatalog(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	// What each known command needs, and what its answer must show.
	cases := map[string]struct {
		arg   map[string]any
		check func(t *testing.T, out map[string]any)
	}{
		"apps list": {map[string]any{"brief": true}, func(t *testing.T, out map[string]any) {
			apps, _ := out["applications"].([]any)
			if len(apps) == 0 || apps[0].(map[string]any)["name"] != s.demo.AppName {
				t.Errorf("apps.list: %v", out)
			}
		}},
		"apps get": {map[string]any{"appId": s.demo.AppName}, func(t *testing.T, out map[string]any) {
			if out["id"] != s.demo.AppID {
				t.Errorf("apps.get by name: %v", out)
			}
		}},
		"apps debug": {map[string]any{}, func(t *testing.T, out map[string]any) {
			if out["debug-token"] == nil || out["debug-address"] == nil {
				t.Errorf("apps.debug keeps the dashed keys: %v", out)
			}
		}},
		"verify-deploy": {map[string]any{"appId": s.demo.AppID}, func(t *testing.T, out map[string]any) {
			if _, ok := out["ok"].(bool); !ok {
				t.Errorf("verifyDeploy: %v", out)
			}
		}},
		"deploy": {map[string]any{"projectDir": s.project, "serverStartTimeout": 5}, func(t *testing.T, out map[string]any) {
			if out["ok"] != true || out["applied"] != true {
				t.Errorf("deploy of the demo: %v", out)
			}
		}},
		"probe": {map[string]any{"projectDir": "Acme/Tasks"}, func(t *testing.T, out map[string]any) {
			if out["ok"] != true {
				t.Errorf("probe of the demo: %v", out)
			}
		}},
		"debug_adapter": {map[string]any{}, func(t *testing.T, out map[string]any) {
			if _, ok := out["found"].(bool); !ok {
				t.Errorf("debugAdapter: %v", out)
			}
		}},
	}
	for _, c := range catalog.Core().Commands() {
		if c.LSP == "" {
			continue
		}
		id := "elemctl." + c.LSP
		t.Run(c.LSP, func(t *testing.T) {
			tc, known := cases[c.Name()]
			arg := map[string]any{"cwd": s.ws}
			for k, v := range tc.arg {
				arg[k] = v
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			raw, err := s.execute(ctx, id, arg, "")
			if !known {
				// A command this test does not know yet must still answer:
				// a result, or an error with an explicit code.
				if err != nil {
					if je := rpcError(t, err); je.Code == 0 || je.Code == -32603 {
						t.Errorf("%s: %v", id, je)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			var out map[string]any
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatalf("%s: not an object: %s", id, raw)
			}
			tc.check(t, out)
		})
	}
}

func TestProgressBeginReportsEndThenTheAnswer(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	deploy := commandID(t, "deploy")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	raw, err := s.execute(ctx, deploy, map[string]any{"cwd": s.ws, "requireClean": false}, "deploy-1")
	if err != nil {
		t.Fatal(err)
	}
	var report map[string]any
	_ = json.Unmarshal(raw, &report)
	if report["ok"] != true {
		t.Fatalf("deploy: %s", raw)
	}
	// Everything before the response, in order: begin, reports, end.
	var kinds []string
	var reports []string
	sawResponse := false
	for _, n := range s.allNotes() {
		switch n.method {
		case "<response>":
			if len(kinds) > 0 {
				sawResponse = true
			}
		case "$/progress":
			var p struct {
				Token json.RawMessage `json:"token"`
				Value struct {
					Kind, Title, Message string
					Cancellable          bool
				} `json:"value"`
			}
			_ = json.Unmarshal(n.params, &p)
			if string(p.Token) != `"deploy-1"` {
				t.Errorf("progress on another token: %s", n.params)
			}
			if sawResponse {
				t.Errorf("progress after the response: %s", n.params)
			}
			kinds = append(kinds, p.Value.Kind)
			if p.Value.Kind == "begin" && (p.Value.Title != "elemctl deploy" || !p.Value.Cancellable) {
				t.Errorf("begin: %s", n.params)
			}
			if p.Value.Kind == "report" {
				reports = append(reports, p.Value.Message)
			}
		}
	}
	if len(kinds) < 3 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
		t.Fatalf("progress kinds: %v", kinds)
	}
	for _, k := range kinds[1 : len(kinds)-1] {
		if k != "report" {
			t.Errorf("between begin and end only reports: %v", kinds)
		}
	}
	if !sawResponse {
		t.Errorf("the response must come after the progress end")
	}
	// The full log goes to window/logMessage, tagged with the command.
	logs := s.messages("window/logMessage")
	if len(logs) < len(reports)/2 || len(logs) == 0 {
		t.Errorf("log messages: %d for %d reports", len(logs), len(reports))
	}
	if !strings.Contains(string(logs[0]), "[elemctl deploy]") {
		t.Errorf("log line: %s", logs[0])
	}
	// The verdict is shown.
	shown := s.messages("window/showMessage")
	if len(shown) != 1 || !strings.Contains(string(shown[0]), `"type":3`) || !strings.Contains(string(shown[0]), "применена") {
		t.Errorf("verdict: %s", shown)
	}
	if len(s.messages("window/workDoneProgress/create")) != 0 {
		t.Errorf("a client token needs no created one")
	}
}

func TestProgressOnACreatedTokenAndWithoutProgressSupport(t *testing.T) {
	t.Run("created token", func(t *testing.T) {
		s := start(t, setup{})
		s.initialize()
		probe := commandID(t, "probe")
		s.run(probe, map[string]any{"cwd": s.ws})
		creates := s.messages("window/workDoneProgress/create")
		if len(creates) != 1 {
			t.Fatalf("creates: %s", creates)
		}
		var c struct{ Token json.RawMessage }
		_ = json.Unmarshal(creates[0], &c)
		progress := s.messages("$/progress")
		if len(progress) < 3 || !strings.Contains(string(progress[0]), string(c.Token)) {
			t.Errorf("progress on the created token %s: %s", c.Token, progress)
		}
		// A quick command without a token makes no progress of its own.
		before := len(s.messages("window/workDoneProgress/create"))
		s.run("elemctl.apps.list", map[string]any{"cwd": s.ws})
		if len(s.messages("window/workDoneProgress/create")) != before {
			t.Errorf("apps.list created a progress")
		}
	})
	t.Run("client without progress", func(t *testing.T) {
		s := start(t, setup{})
		var init map[string]any
		_ = json.Unmarshal(s.vscodeInitialize(nil), &init)
		caps := init["capabilities"].(map[string]any)
		delete(caps, "window")
		b, _ := json.Marshal(init)
		s.initializeWith(b)
		s.run(commandID(t, "probe"), map[string]any{"cwd": s.ws})
		if n := len(s.messages("window/workDoneProgress/create")) + len(s.messages("$/progress")); n != 0 {
			t.Errorf("progress without support: %d messages", n)
		}
		if len(s.messages("window/logMessage")) == 0 {
			t.Errorf("no log messages")
		}
	})
	t.Run("client refuses the token", func(t *testing.T) {
		s := start(t, setup{refuseProgress: true})
		s.initialize()
		s.run(commandID(t, "probe"), map[string]any{"cwd": s.ws})
		if len(s.messages("$/progress")) != 0 {
			t.Errorf("progress on a refused token")
		}
	})
}

func TestPrefixFromInitializationOptions(t *testing.T) {
	s := start(t, setup{})
	res := s.initializeWith(s.vscodeInitialize(map[string]any{"commandPrefix": "xbsl.elemctl"}))
	cmds := res["capabilities"].(map[string]any)["executeCommandProvider"].(map[string]any)["commands"].([]any)
	for _, c := range cmds {
		if !strings.HasPrefix(c.(string), "xbsl.elemctl.") {
			t.Errorf("command without the prefix: %v", c)
		}
	}
	out := s.run("xbsl.elemctl.apps.list", map[string]any{"cwd": s.ws, "brief": true})
	if out["live"] == nil {
		t.Errorf("apps.list under the prefix: %v", out)
	}
	_, err := s.execute(context.Background(), "elemctl.apps.list", map[string]any{"cwd": s.ws}, "")
	if je := rpcError(t, err); je.Code != -32602 || !strings.Contains(je.Message, "xbsl.elemctl.apps.list") {
		t.Errorf("the default prefix is not served: %v", je)
	}
}

func TestArgumentsAndErrorsOnTheWire(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	call := func(cmd string, arg map[string]any) error {
		_, err := s.execute(context.Background(), cmd, arg, "")
		return err
	}
	// An unknown argument names itself and what is known.
	je := rpcError(t, call("elemctl.apps.list", map[string]any{"cwd": s.ws, "brieff": true}))
	if je.Code != -32602 || !strings.Contains(je.Message, "brieff") || !strings.Contains(je.Message, "brief") {
		t.Errorf("unknown argument: %v", je)
	}
	// A wrong type.
	je = rpcError(t, call("elemctl.apps.list", map[string]any{"cwd": s.ws, "brief": "perhaps"}))
	if je.Code != -32602 || !strings.Contains(je.Message, "brief") {
		t.Errorf("wrong type: %v", je)
	}
	// An unknown command.
	je = rpcError(t, call("elemctl.nope", nil))
	if je.Code != -32602 || !strings.Contains(je.Message, "elemctl.apps.list") {
		t.Errorf("unknown command: %v", je)
	}
	// A missing env file is elemctl's config error, with data.
	je = rpcError(t, call("elemctl.apps.list", map[string]any{"cwd": s.ws, "envFile": "nope.env"}))
	if je.Code != -32803 || !strings.Contains(je.Message, "nope.env") {
		t.Errorf("missing env file: %v", je)
	}
	var data map[string]any
	if je.Data == nil || json.Unmarshal(*je.Data, &data) != nil || data["kind"] != "config" || data["error"] != je.Message {
		t.Errorf("error data: %v", je.Data)
	}
	// An API refusal keeps its status and url in data.
	je = rpcError(t, call("elemctl.apps.get", map[string]any{"cwd": s.ws, "appId": "00000000-0000-0000-0000-000000000000"}))
	if je.Code != -32803 {
		t.Errorf("unknown application: %v", je)
	}
	_ = json.Unmarshal(*je.Data, &data)
	if data["kind"] != "api" || data["status"] == nil {
		t.Errorf("api error data: %v", data)
	}
	// The env file of another folder, relative to cwd.
	writeFile(t, s.ws+"/other/.env.stand", "ELEMENT_BASE_URL="+s.stand.URL()+"\nELEMENT_CLIENT_ID="+s.stand.ClientID()+
		"\nELEMENT_CLIENT_SECRET="+s.stand.ClientSecret()+"\n")
	out := s.run("elemctl.apps.list", map[string]any{"cwd": s.ws + "/other", "envFile": ".env.stand", "brief": true})
	if out["live"] == nil {
		t.Errorf("env file relative to cwd: %v", out)
	}
	// cwd as a file URI, and extraArgs as the XBSL setting holds them.
	out = s.run("elemctl.apps.get", map[string]any{"cwd": lsp.URIFromPath(s.ws), "extraArgs": "--app-id " + s.demo.AppName})
	if out["id"] != s.demo.AppID {
		t.Errorf("apps.get through extraArgs: %v", out)
	}
}

func TestUnknownMethodsAndBrokenFrames(t *testing.T) {
	s := start(t, setup{})
	s.initialize()
	for _, m := range []string{"textDocument/hover", "textDocument/didOpen", "elemctl/whatever", "codeLens/resolve"} {
		_, err := s.conn.Call(context.Background(), m, map[string]any{}, nil)
		if je := rpcError(t, err); je.Code != -32601 || !strings.Contains(je.Message, m) {
			t.Errorf("%s: %v", m, je)
		}
	}
	// Unknown notifications are dropped.
	for _, m := range []string{"textDocument/didOpen", "workspace/didChangeConfiguration", "$/setTrace", "$/unknown"} {
		if err := s.conn.Notify(context.Background(), m, map[string]any{"x": 1}); err != nil {
			t.Fatal(err)
		}
	}
	if out := s.run("elemctl.apps.list", map[string]any{"cwd": s.ws}); out["total"] == nil {
		t.Errorf("the session goes on: %v", out)
	}
	// Code lenses on documents that are no files never panic.
	for _, uri := range []string{"untitled:Untitled-1", "vscode-remote://ssh-remote%2Bhost/x/Проект.yaml", "file:///c%3A/x/%zz"} {
		var lenses []any
		if _, err := s.conn.Call(context.Background(), "textDocument/codeLens",
			map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses); err != nil || len(lenses) != 0 {
			t.Errorf("lenses of %s: %v %v", uri, lenses, err)
		}
	}
}

func TestABrokenFrameIsAnsweredAndSkipped(t *testing.T) {
	ctx := context.Background()
	// Raw frames straight into the server, no client library.
	srv := lsp.New(ctx, lsp.Options{Catalog: catalog.Core(), Version: "test", Stderr: io.Discard})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, outW); outW.Close() }()
	frames := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{not json`,
		`{"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	go func() {
		for _, f := range frames {
			fmt.Fprintf(inW, "content-length: %d\r\n\r\n%s", len(f), f)
		}
	}()
	all, _ := io.ReadAll(outR)
	text := string(all)
	for _, want := range []string{`"id":1`, `"code":-32700`, `"code":-32600`, `"id":null`, `"result":null,"id":2`} {
		if !strings.Contains(text, want) {
			t.Errorf("%s missing in\n%s", want, text)
		}
	}
	if err := <-done; err != nil {
		t.Errorf("shutdown then exit: %v", err)
	}
}

func TestShutdownAndExit(t *testing.T) {
	t.Run("clean", func(t *testing.T) {
		s := start(t, setup{noSeed: true})
		s.initialize()
		ctx := context.Background()
		if _, err := s.conn.Call(ctx, "shutdown", nil, nil); err != nil {
			t.Fatal(err)
		}
		// After shutdown every request is refused.
		_, err := s.execute(ctx, "elemctl.apps.list", map[string]any{"cwd": s.ws}, "")
		if je := rpcError(t, err); je.Code != -32600 {
			t.Errorf("after shutdown: %v", je)
		}
		_ = s.conn.Notify(ctx, "exit", nil)
		if err := s.waitServed(); err != nil {
			t.Errorf("exit after shutdown: %v", err)
		}
	})
	t.Run("exit without shutdown", func(t *testing.T) {
		s := start(t, setup{noSeed: true})
		s.initialize()
		_ = s.conn.Notify(context.Background(), "exit", nil)
		if err := s.waitServed(); !errors.Is(err, lsp.ErrExitWithoutShutdown) {
			t.Errorf("exit without shutdown: %v", err)
		}
	})
}

func TestPanicsAndPluginCommands(t *testing.T) {
	cat := catalog.Core()
	cat.Add(&command.Command{Path: []string{"lsp-test-panic"}, LSP: "testPanic",
		Run: func(context.Context, *command.Context, command.Values) (any, error) { panic("boom") }})
	// Declared as the plugin host declares a plugin's command: an id of
	// its own, slow.
	cat.Add(&command.Command{Path: []string{"hello"}, LSP: "plugin.hello", Source: "greeter", Slow: true,
		Args: []command.Argument{{Name: "who", Type: command.String, Default: "world"}, {Name: "times", Type: command.Int, Default: 1}},
		Run: func(_ context.Context, cc *command.Context, in command.Values) (any, error) {
			cc.Log("greeting " + in.Str("who"))
			return map[string]any{"hello": in.Str("who"), "times": in.Int("times"), "dir": cc.Dir, "surface": string(cc.Surface)}, nil
		}})
	s := start(t, setup{catalog: cat, noSeed: true})
	res := s.initialize()
	cmds := fmt.Sprint(res["capabilities"].(map[string]any)["executeCommandProvider"])
	if !strings.Contains(cmds, "elemctl.plugin.hello") || !strings.Contains(cmds, "elemctl.testPanic") {
		t.Errorf("advertised: %s", cmds)
	}
	_, err := s.execute(context.Background(), "elemctl.testPanic", nil, "")
	if je := rpcError(t, err); je.Code != -32603 || !strings.Contains(je.Message, "boom") {
		t.Errorf("panic: %v", je)
	}
	out := s.run("elemctl.plugin.hello", map[string]any{"cwd": s.ws, "who": "editor", "times": 2})
	if out["hello"] != "editor" || out["times"] != 2.0 || out["dir"] != s.ws || out["surface"] != "lsp" {
		t.Errorf("plugin command: %v", out)
	}
	// A plugin command is long: it gets a progress of its own.
	if len(s.messages("window/workDoneProgress/create")) != 1 {
		t.Errorf("plugin command progress: %d creates", len(s.messages("window/workDoneProgress/create")))
	}
	if !strings.Contains(s.stderr.String(), "boom") {
		t.Errorf("the panic is logged on stderr")
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
