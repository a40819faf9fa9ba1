package dap

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

func TestInitializeStartsTheAdapterWithTheJVMVector(t *testing.T) {
	opts := fastFakeOptions(t)
	s := startSession(t, opts)
	resp := s.client.initialize()
	if resp.body()["supportsFakeExtension"] != true {
		t.Errorf("a custom capability was lost: %s", resp.raw)
	}
	argv := s.client.call("fake/argv", nil).body()["argv"].([]any)
	var got []string
	for _, a := range argv {
		got = append(got, a.(string))
	}
	want := []string{
		"-Dfile.encoding=UTF-8",
		"--add-opens", "java.base/java.lang=ALL-UNNAMED",
		"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
		"-cp", filepath.Join(opts.AdapterDir, "repo", "*"),
		"com.e1c.g5rt.debugger.adapter.App",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("adapter argv\n got %q\nwant %q", got, want)
	}
	s.client.call("disconnect", nil)
	if r := s.wait(); r.code != 0 || r.err != nil {
		t.Errorf("after disconnect Run = %d, %v; want 0, nil", r.code, r.err)
	}
}

// A project tree: <root>/Acme/Tasks/Проект.yaml, and the proxy runs (cwd)
// inside the project directory.
func projectTree(t *testing.T) (root, projectDir string) {
	t.Helper()
	root = t.TempDir()
	projectDir = filepath.Join(root, "Acme", "Tasks")
	if err := os.MkdirAll(projectDir, 0o755); err != nil {
		t.Fatal(err)
	}
	desc := "Ид: 7c1e5a40\nИмя: Tasks\nПоставщик: Acme\nВерсия: 1.0\n"
	if err := os.WriteFile(filepath.Join(projectDir, "Проект.yaml"), []byte(desc), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, projectDir
}

const secretToken = "tok-3f9a7c2e-SECRET-d41d8cd9"

// fixedSession answers like the platform would, and remembers what it was
// asked.
type fixedSession struct {
	mu   sync.Mutex
	reqs []SessionRequest
	err  error
}

func (f *fixedSession) lookup(_ context.Context, req SessionRequest) (*SessionInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if f.err != nil {
		return nil, f.err
	}
	return &SessionInfo{
		AppID: "0b6c0f4e-5d7e-4c1a-9f2b-6a1d2e3f4a5b",
		Card: map[string]any{
			"id":           "0b6c0f4e-5d7e-4c1a-9f2b-6a1d2e3f4a5b",
			"name":         "tasks",
			"display-name": "Задачи",
			"status":       "Running",
			"uri":          "https://tasks.example.test/app",
			"space-id":     "space-1",
			"project-id":   "p-1",
		},
		DebugToken:         secretToken,
		DebugAddress:       "wss://dbg.example.test:8080/adapter",
		ClientDebugAddress: "wss://dbg.example.test:8443",
	}, nil
}

func (f *fixedSession) requests() []SessionRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]SessionRequest(nil), f.reqs...)
}

func TestAttachIsCompletedFromThePlatform(t *testing.T) {
	root, projectDir := projectTree(t)
	platform := &fixedSession{}
	opts := fastFakeOptions(t)
	opts.Session = platform.lookup
	s := startSession(t, opts)
	s.client.initialize()
	s.client.call("attach", map[string]any{
		"type": "elemctl", "request": "attach", "name": "Debug",
		"appId": "tasks", "envFile": "dev.env", "cwd": projectDir,
		"stopOnEntry": true, "authMode": "anonymous",
		"myKey": map[string]any{"nested": []any{1, "two"}},
	})

	if got := platform.requests(); len(got) != 1 || got[0] != (SessionRequest{AppRef: "tasks", EnvFile: filepath.Join(projectDir, "dev.env"), Cwd: projectDir}) {
		t.Errorf("session requests = %+v", got)
	}
	args := lastRequest(s.client.fakeLog(), "attach")["arguments"].(map[string]any)
	want := map[string]any{
		"type": "elemctl", "request": "attach", "name": "Debug",
		"appId": "tasks", "envFile": "dev.env", "cwd": projectDir,
		"stopOnEntry": true, "authMode": "anonymous",
		"myKey":                          map[string]any{"nested": []any{1.0, "two"}},
		"endSessionIfClientDisconnected": true,
		"clientApplicationPath":          "",
		"noDebug":                        false,
		"debugToken":                     secretToken,
		"uri":                            "wss://dbg.example.test:8080/adapter",
		"workspace":                      root,
		"projectLocations":               map[string]any{},
		"locale":                         "ru",
		"clientDebugAddress":             "wss://dbg.example.test:8443",
		"retryTimeout":                   "60",
		"application": map[string]any{
			"id": "0b6c0f4e-5d7e-4c1a-9f2b-6a1d2e3f4a5b", "name": "tasks", "error": nil,
			"status": "Running", "displayName": "Задачи", "uri": "https://tasks.example.test/app", "spaceId": "space-1",
		},
	}
	sessionID, _ := args["sessionId"].(string)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(sessionID) {
		t.Errorf("sessionId = %q, want a fresh UUID", sessionID)
	}
	delete(args, "sessionId")
	if !reflect.DeepEqual(args, want) {
		gotJSON, _ := json.MarshalIndent(args, "", " ")
		t.Errorf("the adapter got\n%s", gotJSON)
	}

	wantURL := "https://tasks.example.test/app?debug-server-url=wss%3A%2F%2Fdbg.example.test%3A8443" +
		"&debug-server-host=dbg.example.test&debug-server-port=8443&debug-session-id=" + sessionID + "&force_auth=anonymous"
	urlEvent := s.client.event(DebuggeeURLEvent)
	if urlEvent.body()["url"] != wantURL || urlEvent.body()["sessionId"] != sessionID {
		t.Errorf("debuggee URL event = %s\nwant url %s", urlEvent.raw, wantURL)
	}
	sawURLOutput := false
	for _, m := range s.client.all {
		if m.str("event") == "output" && strings.Contains(m.body()["output"].(string), wantURL) {
			sawURLOutput = true
		}
	}
	if !sawURLOutput {
		t.Errorf("no output event carries the debuggee URL")
	}

	s.client.call("disconnect", nil)
	for _, m := range s.client.drain() {
		if m.str("command") == "fake/log" {
			continue // the fake's own report of what it received
		}
		if strings.Contains(string(m.raw), secretToken) {
			t.Errorf("the debug token reached the client: %s", m.raw)
		}
	}
	s.wait()
	if strings.Contains(s.stderr.String(), secretToken) {
		t.Errorf("the debug token reached stderr:\n%s", s.stderr)
	}
	if !strings.Contains(s.stderr.String(), `"debugToken":"***"`) {
		t.Errorf("the adapter's own log line was not relayed masked:\n%s", s.stderr)
	}
}

func TestAttachKeepsEveryKeyTheUserSet(t *testing.T) {
	_, projectDir := projectTree(t)
	platform := &fixedSession{}
	opts := fastFakeOptions(t)
	opts.Session = platform.lookup
	s := startSession(t, opts)
	s.client.initialize()
	user := map[string]any{
		"appId": "tasks", "cwd": projectDir,
		"sessionId": "my-session", "workspace": "/my/root", "locale": "en", "retryTimeout": "5",
		"projectLocations": map[string]any{"Acme/Lib": "/libs/lib"}, "noDebug": true,
		"endSessionIfClientDisconnected": false, "clientApplicationPath": "/client",
		"application": map[string]any{"id": "mine"}, "clientDebugAddress": "wss://mine:1",
		"applicationUrl": "https://mine.test/app?x=1", "authMode": "bogus",
	}
	s.client.call("attach", user)
	args := lastRequest(s.client.fakeLog(), "attach")["arguments"].(map[string]any)
	for k, v := range user {
		if !reflect.DeepEqual(args[k], v) {
			t.Errorf("%s = %#v, the user set %#v", k, args[k], v)
		}
	}
	if args["debugToken"] != secretToken {
		t.Errorf("debugToken was not filled in")
	}
	// A user-set authMode that the platform does not know is kept, but is
	// not put into the URL.
	wantURL := "https://mine.test/app?x=1&debug-server-url=wss%3A%2F%2Fmine%3A1&debug-server-host=mine&debug-server-port=1&debug-session-id=my-session"
	if got := s.client.event(DebuggeeURLEvent).body()["url"]; got != wantURL {
		t.Errorf("url = %v\nwant  %s", got, wantURL)
	}
}

func TestAttachWithASessionPassesThroughByteForByte(t *testing.T) {
	platform := &fixedSession{}
	opts := fastFakeOptions(t)
	opts.Session = platform.lookup
	s := startSession(t, opts)
	s.client.initialize()
	body := `{"seq":2,"type":"request","command":"attach","arguments":{"debugToken":"` + secretToken +
		`","uri":"wss://x:1",  "z":1, "a":{"k":[1,2.50,"\u00e9"]}}}`
	s.client.sendBody([]byte(body))
	s.client.seq = 2
	s.client.response(2)
	raw := s.client.call("fake/raw-last", nil).body()["raw"]
	if raw != body {
		t.Errorf("the adapter got\n%s\nthe client sent\n%s", raw, body)
	}
	if len(platform.requests()) != 0 {
		t.Errorf("the platform was asked although the attach had a session")
	}
	if strings.Contains(s.stderr.String(), secretToken) {
		t.Errorf("a user-given token reached stderr:\n%s", s.stderr)
	}
}

func TestAttachFailureIsAnErrorResponse(t *testing.T) {
	platform := &fixedSession{err: errors.New(`приложение "nope" не найдено`)}
	opts := fastFakeOptions(t)
	opts.Session = platform.lookup
	s := startSession(t, opts)
	s.client.initialize()
	resp := s.client.response(s.client.request("attach", map[string]any{"appId": "nope"}))
	if resp.m["success"] != false || resp.str("message") != `приложение "nope" не найдено` || resp.str("command") != "attach" {
		t.Errorf("attach response = %s", resp.raw)
	}
	if e, _ := resp.body()["error"].(map[string]any); e["format"] != `приложение "nope" не найдено` || e["showUser"] != true {
		t.Errorf("error body = %s", resp.raw)
	}
	if lastRequest(s.client.fakeLog(), "attach") != nil {
		t.Errorf("a failed attach reached the adapter")
	}
}

func TestAttachWithoutASessionLookup(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	resp := s.client.response(s.client.request("attach", map[string]any{"appId": "x"}))
	if resp.m["success"] != false || !strings.Contains(resp.str("message"), "debugToken") {
		t.Errorf("attach response = %s", resp.raw)
	}
}

func TestReverseRequestsPassThrough(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	seq := s.client.request("fake/reverse", nil)
	reverse := s.client.next("runInTerminal", func(m message) bool {
		return m.str("type") == "request" && m.str("command") == "runInTerminal"
	})
	if reverse.num("seq") >= syntheticSeqBase {
		t.Errorf("the reverse request was renumbered: %s", reverse.raw)
	}
	s.client.respond(reverse, map[string]any{"processId": 4242})
	got := s.client.response(seq).body()["got"].(map[string]any)
	if got["request_seq"] != float64(reverse.num("seq")) || got["body"].(map[string]any)["processId"] != 4242.0 {
		t.Errorf("the adapter got %v", got)
	}
}

func TestBadFramesAreDroppedAndTheSessionGoesOn(t *testing.T) {
	t.Parallel()
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	// A body that is not JSON, a header block without a length, then a
	// frame with an extra header, a lower-case name and bare LF endings.
	s.client.writeRaw([]byte("Content-Length: 5\r\n\r\nhello"))
	s.client.writeRaw([]byte("X-Nothing: 1\r\n\r\n"))
	body := `{"seq":9,"type":"request","command":"threads"}`
	s.client.writeRaw([]byte("Content-Type: application/vscode-jsonrpc; charset=utf-8\ncontent-length: " +
		strconv.Itoa(len(body)) + "\n\n" + body))
	if r := s.client.response(9); r.m["success"] != true {
		t.Errorf("threads after bad frames: %s", r.raw)
	}
	s.client.seq = 9
	// The adapter side: a frame that is not JSON, then a normal answer.
	if r := s.client.call("fake/garbage", nil); r.body()["after"] != "garbage" {
		t.Errorf("answer after the adapter's bad frame: %s", r.raw)
	}
	for _, want := range []string{
		i18n.TL(i18n.RU, "dap.dropped-frame", "side", i18n.TL(i18n.RU, "dap.side-client"), "size", 5),
		i18n.TL(i18n.RU, "dap.dropped-header", "side", i18n.TL(i18n.RU, "dap.side-client")),
		i18n.TL(i18n.RU, "dap.dropped-frame", "side", i18n.TL(i18n.RU, "dap.side-adapter"), "size", 16),
	} {
		if !strings.Contains(s.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, s.stderr)
		}
	}
}

func TestTenMebibyteResponse(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	const size = 10 << 20
	resp := s.client.call("fake/big", map[string]any{"size": size})
	data, _ := resp.body()["data"].(string)
	if len(data) != size || strings.Trim(data, "x") != "" {
		t.Errorf("got %d bytes of data, want %d", len(data), size)
	}
	// and the session still works after it
	s.client.call("threads", nil)
}

func TestAdapterCrashEndsTheSessionWithItsCode(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	s.client.request("fake/crash", nil)
	out := s.client.event("output")
	for out.body()["category"] != "stderr" {
		out = s.client.event("output")
	}
	if !strings.Contains(out.body()["output"].(string), "3") {
		t.Errorf("output = %s", out.raw)
	}
	s.client.event("terminated")
	if r := s.wait(); r.code != 3 || r.err != nil {
		t.Errorf("Run = %d, %v; want the adapter's 3", r.code, r.err)
	}
}

func TestClientLeavingStopsTheAdapter(t *testing.T) {
	t.Run("exits in the grace period", func(t *testing.T) {
		opts := fastFakeOptions(t)
		opts.GracePeriod = 5 * time.Second
		s := startSession(t, opts)
		s.client.initialize()
		pid := s.client.call("fake/argv", nil).body()["pid"].(float64)
		start := time.Now()
		s.closeClient()
		if r := s.wait(); r.code != 0 || r.err != nil {
			t.Errorf("Run = %d, %v; want 0", r.code, r.err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("the adapter took %v to exit after stdin closed", d)
		}
		assertProcessGone(t, int(pid))
	})
	t.Run("killed after the grace period", func(t *testing.T) {
		opts := fastFakeOptions(t)
		opts.GracePeriod = 100 * time.Millisecond
		s := startSession(t, opts)
		s.client.initialize()
		s.client.call("fake/hang", nil)
		pid := s.client.call("fake/argv", nil).body()["pid"].(float64)
		start := time.Now()
		s.closeClient()
		r := s.wait()
		if r.code != 1 || r.err != nil {
			t.Errorf("Run = %d, %v; want 1", r.code, r.err)
		}
		if d := time.Since(start); d < opts.GracePeriod || d > 5*time.Second {
			t.Errorf("Run returned %v after the client left; grace is %v", d, opts.GracePeriod)
		}
		assertProcessGone(t, int(pid))
		if !strings.Contains(s.stderr.String(), i18n.TL(i18n.RU, "dap.adapter-killed", "grace", opts.GracePeriod)) {
			t.Errorf("stderr does not say the adapter was killed:\n%s", s.stderr)
		}
	})
	t.Run("context cancelled", func(t *testing.T) {
		s := startSession(t, fastFakeOptions(t))
		s.client.initialize()
		s.client.call("fake/hang", nil)
		pid := s.client.call("fake/argv", nil).body()["pid"].(float64)
		s.cancel()
		if r := s.wait(); !errors.Is(r.err, context.Canceled) {
			t.Errorf("Run err = %v", r.err)
		}
		assertProcessGone(t, int(pid))
	})
}

func TestClientLeavingBeforeInitialize(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.closeClient()
	if r := s.wait(); r.code != 0 || r.err != nil {
		t.Errorf("Run = %d, %v", r.code, r.err)
	}
}

func TestMissingAdapterIsAnsweredAtInitialize(t *testing.T) {
	noJar := t.TempDir()
	cases := []struct {
		name   string
		opts   func(*Options)
		expect []string
	}{
		{"nothing configured", func(o *Options) {}, []string{"elemctl debug-adapter extract", "--adapter"}},
		{"--adapter without the jar", func(o *Options) { o.AdapterDir = noJar }, []string{noJar, "repo/com.e1c.g5rt.debugger.adapter*.jar", "elemctl debug-adapter extract"}},
		{"ELEMCTL_DEBUG_ADAPTER without the jar", func(o *Options) {
			o.Getenv = func(k string) string {
				if k == "ELEMCTL_DEBUG_ADAPTER" {
					return noJar
				}
				return ""
			}
		}, []string{noJar, "ELEMCTL_DEBUG_ADAPTER"}},
		{"plugin lookup fails", func(o *Options) {
			o.LocateAdapter = func() (string, error) { return "", errors.New("plugin foo is broken") }
		}, []string{"plugin foo is broken", "--adapter"}},
		{"missing java", func(o *Options) {
			o.AdapterDir = fakeAdapterDir(t)
			o.Java = filepath.Join(noJar, "no-java")
		}, []string{filepath.Join(noJar, "no-java"), "JAVA_HOME", "--java"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Getenv: func(string) string { return "" }, GracePeriod: 100 * time.Millisecond}
			tc.opts(&opts)
			s := startSession(t, opts)
			resp := s.client.response(s.client.request("initialize", map[string]any{"adapterID": "elemctl"}))
			if resp.m["success"] != false {
				t.Fatalf("initialize succeeded: %s", resp.raw)
			}
			for _, want := range tc.expect {
				if !strings.Contains(resp.str("message"), want) {
					t.Errorf("message lacks %q: %s", want, resp.str("message"))
				}
			}
			// The client may go on: requests fail with the same text,
			// disconnect succeeds.
			if r := s.client.response(s.client.request("threads", nil)); r.m["success"] != false || r.str("message") != resp.str("message") {
				t.Errorf("threads without an adapter: %s", r.raw)
			}
			s.client.call("disconnect", nil)
			s.closeClient()
			if r := s.wait(); r.code != 1 {
				t.Errorf("Run = %d, want 1 after a failed start", r.code)
			}
		})
	}
}

func TestStartupMessagesComeInEnglishToo(t *testing.T) {
	t.Parallel()
	s := startSessionIn(t, i18n.EN, Options{Getenv: func(string) string { return "" }})
	resp := s.client.response(s.client.request("initialize", nil))
	if !strings.HasPrefix(resp.str("message"), "The 1C:Element debug adapter was not found.") {
		t.Errorf("message = %q", resp.str("message"))
	}
}

func TestAdapterDirectoryOrder(t *testing.T) {
	ctx := context.Background()
	flagDir, envDir, pluginDir := fakeAdapterDir(t), fakeAdapterDir(t), fakeAdapterDir(t)
	env := func(k string) string {
		if k == "ELEMCTL_DEBUG_ADAPTER" {
			return envDir
		}
		return ""
	}
	plugin := func() (string, error) { return pluginDir, nil }
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{AdapterDir: flagDir, Getenv: env, LocateAdapter: plugin}, flagDir},
		{Options{Getenv: env, LocateAdapter: plugin}, envDir},
		{Options{Getenv: func(string) string { return "" }, LocateAdapter: plugin}, pluginDir},
	} {
		got, err := findAdapterDir(ctx, &tc.opts)
		if err != nil || got != tc.want {
			t.Errorf("findAdapterDir = %q, %v; want %q", got, err, tc.want)
		}
	}
}

func TestJavaOrder(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	javaInHome := filepath.Join(home, "bin", javaExecutable())
	if err := os.WriteFile(javaInHome, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	withHome := func(k string) string {
		if k == "JAVA_HOME" {
			return home
		}
		return ""
	}
	explicit := testBinary(t)
	if got, err := findJava(ctx, &Options{Java: explicit, Getenv: withHome}); err != nil || got != explicit {
		t.Errorf("--java: %q, %v", got, err)
	}
	if got, err := findJava(ctx, &Options{Getenv: withHome}); err != nil || got != javaInHome {
		t.Errorf("JAVA_HOME: %q, %v", got, err)
	}
	t.Setenv("PATH", home+string(os.PathListSeparator)+filepath.Join(home, "bin"))
	if got, err := findJava(ctx, &Options{Getenv: func(string) string { return "" }}); err != nil || got != javaInHome {
		t.Errorf("PATH: %q, %v", got, err)
	}
	t.Setenv("PATH", t.TempDir())
	if _, err := findJava(ctx, &Options{Getenv: func(string) string { return "" }}); err == nil {
		t.Errorf("no java anywhere, yet findJava succeeded")
	}
}

func TestEventsAndUnknownMessagesPassUntouched(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	s.client.initialize()
	s.client.call("fake/flood", map[string]any{"count": 50})
	n := 0
	for _, m := range s.client.all {
		if m.str("event") == "fake/tick" {
			if int(m.body()["n"].(float64)) != n {
				t.Fatalf("events out of order: %s", m.raw)
			}
			n++
		}
	}
	if n != 50 {
		t.Errorf("got %d custom events, want 50", n)
	}
}

func TestAttachWarnsWhenNoSourcesRootIsFound(t *testing.T) {
	empty := t.TempDir()
	platform := &fixedSession{}
	opts := fastFakeOptions(t)
	opts.Session = platform.lookup
	s := startSession(t, opts)
	s.client.initialize()
	s.client.call("attach", map[string]any{"appId": "tasks", "cwd": empty})
	if ws := lastRequest(s.client.fakeLog(), "attach")["arguments"].(map[string]any)["workspace"]; ws != empty {
		t.Errorf("workspace = %v, want the start directory %s", ws, empty)
	}
	want := i18n.TL(i18n.RU, "dap.no-workspace", "dir", empty)
	found := false
	for _, m := range s.client.all {
		if m.str("event") == "output" && strings.Contains(m.body()["output"].(string), want) {
			found = true
		}
	}
	if !found || !strings.Contains(s.stderr.String(), want) {
		t.Errorf("no warning about the sources root; stderr:\n%s", s.stderr)
	}
}
