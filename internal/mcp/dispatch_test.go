package mcp

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// wire is a raw stdio connection to a server: lines in, messages out.
type wire struct {
	t     *testing.T
	out   io.WriteCloser
	lines chan string
	next  int
}

func dial(t *testing.T, h *harness) *wire {
	t.Helper()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- h.srv.Serve(context.Background(), serverIn, serverOut)
		serverOut.Close()
	}()
	w := &wire{t: t, out: clientOut, lines: make(chan string, 64)}
	go func() {
		defer close(w.lines)
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		clientOut.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return w
}

// reply is a response as the client reads it.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	} `json:"error"`
	Method string         `json:"method"`
	Params map[string]any `json:"params"`
}

// ask sends a request of method with params (JSON, or "" for none) and
// returns its response, keeping the notifications read on the way.
func (w *wire) ask(method, params string) (reply, []reply) {
	w.t.Helper()
	w.next++
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q`, w.next, method)
	if params != "" {
		msg += `,"params":` + params
	}
	w.send(msg + "}")
	return w.until(fmt.Sprint(w.next))
}

func (w *wire) send(line string) {
	w.t.Helper()
	if _, err := io.WriteString(w.out, line+"\n"); err != nil {
		w.t.Fatal(err)
	}
}

// read is the next message; what names what the test waits for.
func (w *wire) read(what string) reply {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			w.t.Fatalf("the output ended before %s", what)
		}
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			w.t.Fatalf("not JSON: %s", line)
		}
		return r
	case <-time.After(10 * time.Second):
		w.t.Fatalf("no %s within 10 s", what)
	}
	return reply{}
}

// until reads messages up to the response of id.
func (w *wire) until(id string) (reply, []reply) {
	w.t.Helper()
	var notes []reply
	for {
		r := w.read("the response " + id)
		if string(r.ID) == id {
			return r, notes
		}
		notes = append(notes, r)
	}
}

// waitFor reads messages until a notification of method.
func (w *wire) waitFor(method string) {
	w.t.Helper()
	for w.read(method).Method != method {
	}
}

func (w *wire) legacy() {
	w.t.Helper()
	if r, _ := w.ask("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`); r.Error != nil {
		w.t.Fatalf("initialize: %+v", r.Error)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func wantError(t *testing.T, what string, r reply, code int, text string) {
	t.Helper()
	if r.Error == nil {
		t.Errorf("%s: answered %s, want error %d", what, asJSON(r.Result), code)
		return
	}
	if r.Error.Code != code || !strings.Contains(r.Error.Message, text) {
		t.Errorf("%s: error %d %q, want %d containing %q", what, r.Error.Code, r.Error.Message, code, text)
	}
}

// TestHandshakeOfTheSessionProtocol: initialize negotiates the version,
// names the server and its capabilities (tools that may change, resources,
// prompts; no logging), and gives the instructions.
func TestHandshakeOfTheSessionProtocol(t *testing.T) {
	h := start(t, setup{})
	w := dial(t, h)
	r, _ := w.ask("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	if r.Result["protocolVersion"] != "2025-06-18" {
		t.Errorf("protocolVersion %v", r.Result["protocolVersion"])
	}
	if got := asJSON(r.Result["capabilities"]); got != `{"prompts":{},"resources":{},"tools":{"listChanged":true}}` {
		t.Errorf("capabilities %s", got)
	}
	if got := asJSON(r.Result["serverInfo"]); got != `{"name":"elemctl","version":"0.0.0-test"}` {
		t.Errorf("serverInfo %s", got)
	}
	if !strings.Contains(fmt.Sprint(r.Result["instructions"]), "env_file") {
		t.Errorf("instructions %v", r.Result["instructions"])
	}
	if _, has := r.Result["resultType"]; has {
		t.Errorf("a result of the session protocol has no resultType: %v", r.Result)
	}
	// A version the server does not know gets the newest it speaks with
	// sessions.
	r, _ = w.ask("initialize", `{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if v := fmt.Sprint(r.Result["protocolVersion"]); v == "1999-01-01" || v < "2025-06-18" {
		t.Errorf("negotiated %s for an unknown version", v)
	}
	if r, _ := w.ask("ping", ""); r.Error != nil || len(r.Result) != 0 {
		t.Errorf("ping: %+v %v", r.Error, r.Result)
	}
}

// TestRequestsTheServerCannotAnswer get the JSON-RPC error that says why,
// and the server goes on serving.
func TestRequestsTheServerCannotAnswer(t *testing.T) {
	h := start(t, setup{})
	w := dial(t, h)
	w.legacy()
	r, _ := w.ask("no/such", "")
	wantError(t, "unknown method", r, -32601, "Method no/such not found")
	r, _ = w.ask("logging/setLevel", `{"level":"debug"}`)
	wantError(t, "logging", r, -32601, "logging not supported")
	r, _ = w.ask("completion/complete", `{}`)
	wantError(t, "completion", r, -32601, "completions not supported")
	r, _ = w.ask("tasks/get", `{"taskId":"x"}`)
	wantError(t, "tasks", r, -32601, "tasks not supported")
	r, _ = w.ask("server/discover", "")
	wantError(t, "discover with sessions", r, -32601, "requires protocol version 2026-07-28")
	r, _ = w.ask("tools/call", `{"name":"no_such_tool","arguments":{}}`)
	wantError(t, "unknown tool", r, -32602, "tool 'no_such_tool' not found")
	r, _ = w.ask("tools/call", `{"name":17}`)
	wantError(t, "a name that is a number", r, -32600, "unparsable tools/call request")
	r, _ = w.ask("prompts/get", `{"name":"no_such_prompt"}`)
	wantError(t, "unknown prompt", r, -32602, "prompt 'no_such_prompt' not found")
	r, _ = w.ask("resources/read", `{"uri":"elemctl://nothing"}`)
	wantError(t, "unknown resource", r, -32002, "handler not found for resource URI 'elemctl://nothing'")
	w.send(`{"jsonrpc":"1.0","id":"old","method":"ping"}`)
	r, _ = w.until(`"old"`)
	wantError(t, "JSON-RPC 1.0", r, -32600, "Invalid JSON-RPC version")
	if r, _ := w.ask("ping", ""); r.Error != nil {
		t.Errorf("ping after the errors: %+v", r.Error)
	}
}

// TestListsAreSortedAndResumeAfterACursor: tools, prompts, resources and
// templates come sorted by name; a cursor naming an item resumes after it.
func TestListsAreSortedAndResumeAfterACursor(t *testing.T) {
	h := start(t, setup{})
	w := dial(t, h)
	w.legacy()
	names := func(r reply, key, field string) []string {
		var out []string
		list, _ := r.Result[key].([]any)
		for _, item := range list {
			out = append(out, fmt.Sprint(item.(map[string]any)[field]))
		}
		return out
	}
	r, _ := w.ask("tools/list", "")
	tools := names(r, "tools", "name")
	if len(tools) < 10 {
		t.Fatalf("tools %v", tools)
	}
	for i := 1; i < len(tools); i++ {
		if tools[i-1] >= tools[i] {
			t.Errorf("tools not sorted: %s before %s", tools[i-1], tools[i])
		}
	}
	cursor := base64.StdEncoding.EncodeToString([]byte(tools[4]))
	r, _ = w.ask("tools/list", `{"cursor":"`+cursor+`"}`)
	if rest := names(r, "tools", "name"); strings.Join(rest, ",") != strings.Join(tools[5:], ",") {
		t.Errorf("after %s: %v", tools[4], rest)
	}
	r, _ = w.ask("tools/list", `{"cursor":"%%%"}`)
	wantError(t, "a cursor that is not base64", r, -32602, "illegal base64")
	r, _ = w.ask("prompts/list", "")
	if got := strings.Join(names(r, "prompts", "name"), ","); got != "deploy_and_verify,why_rolled_back" {
		t.Errorf("prompts %s", got)
	}
	r, _ = w.ask("resources/templates/list", "")
	if got := names(r, "resourceTemplates", "uriTemplate"); len(got) != 2 {
		t.Errorf("templates %v", got)
	}
}

// TestAToolAddedLaterIsAnnounced: a client connected when a plugin's tool
// is added hears that the tool list changed, and the new list has it.
func TestAToolAddedLaterIsAnnounced(t *testing.T) {
	h := start(t, setup{})
	w := dial(t, h)
	w.legacy()
	h.srv.AddCommands(context.Background(), &command.Command{Tool: "late_tool", Source: "acme", Slow: true,
		OptionalToolArgs: true, Help: "late", Run: pluginCommands()[1].Run})
	// The hint goes out on its own, not before any answer in particular.
	w.waitFor("notifications/tools/list_changed")
	if r, _ := w.ask("tools/list", ""); !strings.Contains(asJSON(r.Result), `"late_tool"`) {
		t.Errorf("the list lacks the new tool")
	}
}

// modernMeta is the _meta of a request of the protocol without sessions.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// TestTheProtocolWithoutSessions: server/discover replaces initialize;
// every result says it is complete and who answered; a request without
// the client's capabilities or of a version the server does not know is
// refused.
func TestTheProtocolWithoutSessions(t *testing.T) {
	h := start(t, setup{})
	w := dial(t, h)
	r, _ := w.ask("server/discover", `{`+modernMeta+`}`)
	if r.Error != nil {
		t.Fatalf("discover: %+v", r.Error)
	}
	if got := asJSON(r.Result["supportedVersions"]); !strings.Contains(got, "2026-07-28") || !strings.Contains(got, "2025-06-18") {
		t.Errorf("supportedVersions %s", got)
	}
	if r.Result["resultType"] != "complete" || !strings.Contains(asJSON(r.Result["_meta"]), `"name":"elemctl"`) {
		t.Errorf("discover result %s", asJSON(r.Result))
	}
	if !strings.Contains(asJSON(r.Result["capabilities"]), `"listChanged":true`) {
		t.Errorf("capabilities %s", asJSON(r.Result["capabilities"]))
	}
	r, _ = w.ask("tools/list", `{`+modernMeta+`}`)
	if r.Result["resultType"] != "complete" || len(r.Result["tools"].([]any)) < 10 {
		t.Errorf("tools/list %.200s", asJSON(r.Result))
	}
	r, _ = w.ask("initialize", `{"protocolVersion":"2026-07-28",`+modernMeta+`}`)
	wantError(t, "initialize without sessions", r, -32601, `"initialize" was removed in protocol version 2026-07-28`)
	r, _ = w.ask("resources/read", `{"uri":"elemctl://nothing",`+modernMeta+`}`)
	wantError(t, "unknown resource without sessions", r, -32602, "handler not found")
	r, _ = w.ask("tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`)
	wantError(t, "no client capabilities", r, -32602, "io.modelcontextprotocol/clientCapabilities")
	r, _ = w.ask("tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}`)
	if r.Error == nil || !strings.Contains(asJSON(r.Error.Data), "2099-01-01") {
		t.Errorf("an unknown version: %s", asJSON(r))
	}
	// subscriptions/listen with nothing the server can send is
	// acknowledged and closed at once.
	r, notes := w.ask("subscriptions/listen", `{"notifications":{"promptsListChanged":true},`+modernMeta+`}`)
	if r.Error != nil || len(notes) != 1 || notes[0].Method != "notifications/subscriptions/acknowledged" ||
		asJSON(notes[0].Params["notifications"]) != `{}` {
		t.Errorf("listen: %s, notes %s", asJSON(r), asJSON(notes))
	}
}

// TestOverlappingTemplatesReadInTheListsOrder: of templates that match
// one address, the one the list shows first reads it, every time.
func TestOverlappingTemplatesReadInTheListsOrder(t *testing.T) {
	h := start(t, setup{})
	for _, name := range []string{"t-m", "t-c", "t-x", "t-a", "t-q", "t-f", "t-z", "t-k"} {
		h.srv.mcp.templates.add(mcpgo.NewResourceTemplate("elemctl://overlap/{"+strings.TrimPrefix(name, "t-")+"}", name),
			func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
				return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, Text: name}}, nil
			})
	}
	w := dial(t, h)
	w.legacy()
	for range 30 {
		r, _ := w.ask("resources/read", `{"uri":"elemctl://overlap/1"}`)
		if got := asJSON(r.Result); !strings.Contains(got, `"text":"t-a"`) {
			t.Fatalf("read by another template than the first listed: %s", got)
		}
	}
}
