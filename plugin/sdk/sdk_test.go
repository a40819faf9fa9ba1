package sdk

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/plugin/protocol"
)

func TestManifest(t *testing.T) {
	p := Plugin{Name: "demo", Version: "1.2", Requires: []string{"host-calls"}, Timeout: 90 * time.Second, Commands: []Command{
		{Name: "one", Help: "first", MCPName: "demo_one", Arguments: []Argument{
			{Name: "app", Optional: true, CLIAlias: "--app-id"},
			{Name: "files", Multiple: true},
			{Name: "--tag", Multiple: true, Default: []any{"a"}},
			{Name: "--level", Type: Int, Choices: []any{1, 2}, Required: true},
			{Name: "--dry", Type: Bool},
		}},
		{Name: "two", NoMCP: true, Timeout: 2 * time.Second},
	}}
	raw, err := json.Marshal(p.Manifest())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"demo","version":"1.2","requires":["host-calls","mcp-name","cli-alias","positional-multiple","multiple","choices"],` +
		`"executable":"sdk","timeout":90,"commands":[{"name":"one","help":"first","mcp_name":"demo_one","arguments":[` +
		`{"name":"app","required":false,"cli_alias":"--app-id"},{"name":"files","multiple":true},` +
		`{"name":"--tag","default":["a"],"multiple":true},{"name":"--level","type":"int","required":true,"choices":[1,2]},` +
		`{"name":"--dry","type":"bool"}]},{"name":"two","mcp":false,"timeout":2}]}`
	got := strings.Replace(string(raw), `"executable":"`+programName()+`"`, `"executable":"sdk"`, 1)
	if got != want {
		t.Errorf("manifest\n%s\nwant\n%s", got, want)
	}
}

// host is the test's side of a session with serve.
type host struct {
	t   *testing.T
	r   *protocol.Reader
	w   *protocol.Writer
	in  io.WriteCloser
	end chan error
}

func startServe(t *testing.T, p Plugin) *host {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &host{t: t, r: protocol.NewReader(outR), w: protocol.NewWriter(inW), in: inW, end: make(chan error, 1)}
	go func() {
		h.end <- serve(p, inR, outW)
		outW.Close()
	}()
	return h
}

func (h *host) next() *protocol.Message {
	h.t.Helper()
	line, err := h.r.ReadLine()
	if err != nil {
		h.t.Fatal(err)
	}
	m, err := protocol.Decode(line)
	if err != nil {
		h.t.Fatalf("%v: %s", err, line)
	}
	return m
}

func TestServe(t *testing.T) {
	h := startServe(t, Plugin{Name: "demo", Commands: []Command{{
		Name: "greet",
		Run: func(ctx context.Context, cc *Context, in Args) (any, error) {
			cc.Log("asking the host")
			app, err := cc.Client().GetApp(ctx, in.Str("app"))
			if err != nil {
				return nil, err
			}
			return NewObject("hello", app.Str("name"), "surface", cc.Surface, "n", in.Int("--count"), "tags", in.Strings("tag")), nil
		},
	}}})
	h.w.Request(1, protocol.MethodInitialize, protocol.InitializeParams{Protocol: 1, Host: "elemctl", Version: "9", Features: []string{"log"}})
	if m := h.next(); string(m.ID) != "1" || !strings.Contains(string(m.Result), `"name":"demo"`) {
		t.Fatalf("initialize answer %+v", m)
	}
	h.w.Request(2, protocol.MethodRun, protocol.RunParams{Command: "greet", Surface: "mcp",
		Arguments: json.RawMessage(`{"app": "shop", "count": 3, "tag": ["x", "y"]}`)})
	if m := h.next(); m.Method != protocol.MethodLog || !strings.Contains(string(m.Params), "asking the host") {
		t.Fatalf("log %+v", m)
	}
	call := h.next()
	if call.Method != "get_app" || string(call.Params) != `{"app_id":"shop"}` {
		t.Fatalf("host call %+v", call)
	}
	h.w.Reply(call.ID, json.RawMessage(`{"id": "1", "name": "Shop"}`))
	answer := h.next()
	if string(answer.ID) != "2" || string(answer.Result) != `{"hello":"Shop","surface":"mcp","n":3,"tags":["x","y"]}` {
		t.Fatalf("run answer %s %+v", answer.Result, answer.Error)
	}

	// A host error comes back with its object when the handler passes it on.
	h.w.Request(3, protocol.MethodRun, protocol.RunParams{Command: "greet", Arguments: json.RawMessage(`{"app": "nope"}`)})
	h.next() // log
	call = h.next()
	h.w.ReplyError(call.ID, &protocol.Error{Code: protocol.CodeElemctl, Message: "no app", Data: json.RawMessage(`{"error": "no app", "status": 404}`)})
	answer = h.next()
	if answer.Error == nil || answer.Error.Message != "no app" || !strings.Contains(string(answer.Error.Data), `"status":404`) {
		t.Fatalf("error answer %+v", answer)
	}
	h.w.Request(4, "teleport", nil)
	if m := h.next(); m.Error == nil || m.Error.Code != protocol.CodeMethodNotFound {
		t.Fatalf("unknown method %+v", m)
	}
	h.in.Close()
	select {
	case err := <-h.end:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not end when stdin closed")
	}
}
