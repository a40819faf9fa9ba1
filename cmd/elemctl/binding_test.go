package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// The faces bind arguments with one binder: the same input gets the same
// answer on the command line, as an MCP tool call, as an LSP command and
// as a plugin's host call. Each case runs through the real faces: the CLI
// in-process, `elemctl mcp` and `elemctl lsp` served over pipes, and the
// test plugin's host call from a real plugin process.

// echoCommand answers with the values it was given, typed, and the
// processors the runtime uses while it serves the call.
func echoCommand() *command.Command {
	return &command.Command{
		Path: []string{"bind-echo"}, Tool: "bind_echo", LSP: "bindEcho", Help: "echo the bound values", Local: true,
		Args: []command.Argument{
			{Name: "b", Type: command.Bool},
			{Name: "n", Type: command.Int},
			{Name: "f", Type: command.Float},
			{Name: "s", Type: command.String},
			{Name: "mode", Type: command.String, Choices: []string{"fast", "slow"}},
			{Name: "tags", Type: command.String, Multiple: true},
			{Name: "limit", Type: command.Int, Bound: command.NonNegative},
		},
		Run: func(_ context.Context, _ *command.Context, in command.Values) (any, error) {
			out := jsonx.New()
			for _, k := range []string{"b", "n", "f", "s", "mode", "tags", "limit"} {
				if v, ok := in.Raw(k); ok && in.Given(k) {
					out.Set(k, v)
				}
			}
			out.Set("procs", runtime.GOMAXPROCS(0))
			return out, nil
		},
	}
}

// bindCase is one input and what every face must make of it: the bound
// values as JSON, or a refusal (want == "").
type bindCase struct {
	name string
	json string   // the argument object
	cli  []string // the same on the command line; nil: a JSON-only form
	want string
}

var bindCases = []bindCase{
	{"bool yes", `{"b":"yes"}`, []string{"--b=yes"}, `{"b":true}`},
	{"bool true", `{"b":true}`, []string{"--b"}, `{"b":true}`},
	{"bool off", `{"b":"off"}`, []string{"--b=off"}, `{"b":false}`},
	{"bool maybe", `{"b":"maybe"}`, []string{"--b=maybe"}, ""},
	{"bool number 1", `{"b":1}`, nil, `{"b":true}`},
	{"int beyond 32 bits", `{"n":3000000000}`, []string{"--n", "3000000000"}, `{"n":3000000000}`},
	{"int as text", `{"n":"05"}`, []string{"--n", "05"}, `{"n":5}`},
	{"int as text with a fraction", `{"n":"5.0"}`, []string{"--n", "5.0"}, ""},
	{"int as a whole number 5.0", `{"n":5.0}`, nil, `{"n":5}`},
	{"int with a fraction", `{"n":5.5}`, nil, ""},
	{"int as bool", `{"n":true}`, nil, ""},
	{"float as text", `{"f":"2.5"}`, []string{"--f", "2.5"}, `{"f":2.5}`},
	{"float infinity", `{"f":"inf"}`, []string{"--f", "inf"}, ""},
	{"string as number", `{"s":42}`, []string{"--s", "42"}, `{"s":"42"}`},
	{"string as list", `{"s":["a"]}`, nil, ""},
	{"choice", `{"mode":"slow"}`, []string{"--mode", "slow"}, `{"mode":"slow"}`},
	{"not a choice", `{"mode":"medium"}`, []string{"--mode", "medium"}, ""},
	{"one of a list", `{"tags":"a"}`, []string{"--tags", "a"}, `{"tags":["a"]}`},
	{"a list", `{"tags":["a","b"]}`, []string{"--tags", "a", "--tags", "b"}, `{"tags":["a","b"]}`},
	{"unknown parameter", `{"x":1}`, []string{"--x", "1"}, ""},
	{"a limit of 0", `{"limit":0}`, []string{"--limit", "0"}, `{"limit":0}`},
	{"a negative limit", `{"limit":-1}`, []string{"--limit", "-1"}, ""},
}

// faceAnswer is what one face made of a case: the bound values, or that it
// refused.
type faceAnswer struct {
	values  string
	refused bool
	detail  string
}

func TestOneBinderOnEveryFace(t *testing.T) {
	bed := newBindBed(t)
	mcpFace := bed.serveMCP(t)
	lspFace := bed.serveLSP(t)
	faces := []struct {
		name string
		call func(c bindCase) (faceAnswer, bool)
	}{
		{"cli", bed.cli},
		{"mcp", mcpFace.call},
		{"lsp", lspFace.call},
		{"host", bed.hostCall},
	}
	for _, c := range bindCases {
		for _, f := range faces {
			got, applies := f.call(c)
			if !applies {
				continue
			}
			switch {
			case c.want == "" && !got.refused:
				t.Errorf("%s on %s: accepted as %s, want a refusal", c.name, f.name, got.values)
			case c.want != "" && got.refused:
				t.Errorf("%s on %s: refused (%s), want %s", c.name, f.name, got.detail, c.want)
			case c.want != "" && got.values != c.want:
				t.Errorf("%s on %s: %s, want %s", c.name, f.name, got.values, c.want)
			}
		}
	}
}

// `elemctl --env-f x.env mcp` (an abbreviation the parser accepts) serves
// with every processor: nothing before the parser decides how the process
// runs.
func TestAbbreviatedOptionsServeWithEveryProcessor(t *testing.T) {
	bed := newBindBed(t)
	env := filepath.Join(t.TempDir(), "x.env")
	if err := os.WriteFile(env, []byte("ELEMENT_BASE_URL=http://127.0.0.1:9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	served := bed.serveMCP(t, "--env-f", env)
	got, _ := served.call(bindCase{json: `{}`})
	if got.refused {
		t.Fatalf("the call failed: %s", got.detail)
	}
	if want := strconv.Itoa(runtime.GOMAXPROCS(0)); !strings.Contains(got.detail, `"procs":`+want) {
		t.Fatalf("served with %s, want every processor (%s)", got.detail, want)
	}
}

// bindBed is an elemctl whose catalog has the echo command, with the test
// plugin installed.
type bindBed struct {
	env map[string]string
}

func newBindBed(t *testing.T) *bindBed {
	home := t.TempDir()
	plugins := t.TempDir()
	b := &pluginBed{t: t, root: plugins, env: map[string]string{}}
	b.install("testplugin", "internal/plugin/testplugin", nil)
	return &bindBed{env: map[string]string{
		"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_STATE_HOME": filepath.Join(home, "state"),
		"ELEMCTL_DATA_DIR": filepath.Join(home, "elemctl"), "ELEMCTL_LANG": "en", "ELEMCTL_PLUGIN_PATH": plugins,
		"PATH": os.Getenv("PATH"),
	}}
}

func (b *bindBed) getenv(k string) string { return b.env[k] }

// app is an in-process elemctl with the echo command.
func (b *bindBed) app(stdin io.Reader, stdout, stderr io.Writer) *app {
	a := newApp(stdin, stdout, stderr, b.getenv)
	a.catalog.Add(echoCommand())
	return a
}

// cli runs `elemctl bind-echo WORDS`.
func (b *bindBed) cli(c bindCase) (faceAnswer, bool) {
	if c.cli == nil {
		return faceAnswer{}, false
	}
	var out, errOut bytes.Buffer
	code := b.app(nil, &out, &errOut).run(append([]string{"bind-echo"}, c.cli...))
	if code != 0 {
		return faceAnswer{refused: true, detail: fmt.Sprintf("exit %d: %s", code, errOut.String())}, true
	}
	return answerValues(out.Bytes()), true
}

// hostCall has the test plugin call bind_echo through the host.
func (b *bindBed) hostCall(c bindCase) (faceAnswer, bool) {
	var out, errOut bytes.Buffer
	code := b.app(nil, &out, &errOut).run([]string{"call", "bind_echo", c.json})
	if code != 0 {
		return faceAnswer{refused: true, detail: fmt.Sprintf("exit %d: %s", code, errOut.String())}, true
	}
	return answerValues(out.Bytes()), true
}

// answerValues are an echo answer's values without the processors.
func answerValues(raw []byte) faceAnswer {
	v, err := jsonx.Decode(raw)
	obj, ok := v.(*jsonx.Object)
	if err != nil || !ok {
		return faceAnswer{refused: true, detail: "not an object: " + string(raw)}
	}
	detail, _ := jsonx.Compact(obj)
	obj.Delete("procs")
	values, _ := jsonx.Compact(obj)
	return faceAnswer{values: string(values), detail: string(detail)}
}

// served is a protocol face of an in-process elemctl on pipes.
type served struct {
	t      *testing.T
	w      io.Writer
	r      *bufio.Reader
	frame  bool // LSP's Content-Length framing, else one message per line
	mu     sync.Mutex
	nextID int
	call   func(c bindCase) (faceAnswer, bool)
}

func (b *bindBed) serve(t *testing.T, frame bool, args ...string) *served {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	a := b.app(inR, outW, &errOut)
	done := make(chan int, 1)
	go func() {
		done <- a.run(args)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("elemctl %v did not stop", args)
		}
	})
	return &served{t: t, w: inW, r: bufio.NewReader(outR), frame: frame}
}

func (s *served) send(msg any) {
	s.t.Helper()
	raw, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	if s.frame {
		_, err = fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n%s", len(raw), raw)
	} else {
		_, err = fmt.Fprintf(s.w, "%s\n", raw)
	}
	if err != nil {
		s.t.Fatal(err)
	}
}

// receive reads messages until the response to id.
func (s *served) receive(id int) map[string]any {
	s.t.Helper()
	for {
		var raw []byte
		if s.frame {
			length := 0
			for {
				line, err := s.r.ReadString('\n')
				if err != nil {
					s.t.Fatal(err)
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
					length, _ = strconv.Atoi(strings.TrimSpace(v))
				}
			}
			raw = make([]byte, length)
			if _, err := io.ReadFull(s.r, raw); err != nil {
				s.t.Fatal(err)
			}
		} else {
			line, err := s.r.ReadBytes('\n')
			if err != nil {
				s.t.Fatal(err)
			}
			raw = line
		}
		var msg map[string]any
		if err := json.Unmarshal(raw, &msg); err != nil {
			s.t.Fatalf("%v: %s", err, raw)
		}
		if got, ok := msg["id"].(float64); ok && int(got) == id && msg["method"] == nil {
			return msg
		}
		if msg["method"] != nil && msg["id"] != nil {
			// A request of the server (LSP progress): answer it.
			s.send(map[string]any{"jsonrpc": "2.0", "id": msg["id"], "result": nil})
		}
	}
}

func (s *served) request(method string, params any) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := s.nextID
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return s.receive(id)
}

func (b *bindBed) serveMCP(t *testing.T, global ...string) *served {
	s := b.serve(t, false, append(global, "mcp")...)
	s.request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "binding-test", "version": "1"}})
	s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	s.call = func(c bindCase) (faceAnswer, bool) {
		resp := s.request("tools/call", map[string]any{"name": "bind_echo", "arguments": json.RawMessage(c.json)})
		res, _ := resp["result"].(map[string]any)
		content, _ := res["content"].([]any)
		text := ""
		if len(content) > 0 {
			text, _ = content[0].(map[string]any)["text"].(string)
		}
		if res == nil || res["isError"] == true {
			return faceAnswer{refused: true, detail: fmt.Sprint(resp)}, true
		}
		return answerValues([]byte(text)), true
	}
	return s
}

func (b *bindBed) serveLSP(t *testing.T) *served {
	s := b.serve(t, true, "lsp")
	s.request("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	s.call = func(c bindCase) (faceAnswer, bool) {
		resp := s.request("workspace/executeCommand", map[string]any{"command": "elemctl.bindEcho",
			"arguments": []json.RawMessage{json.RawMessage(c.json)}})
		if resp["error"] != nil {
			return faceAnswer{refused: true, detail: fmt.Sprint(resp["error"])}, true
		}
		raw, _ := json.Marshal(resp["result"])
		return answerValues(raw), true
	}
	return s
}
