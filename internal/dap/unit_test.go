package dap

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestFrameReaderIsTolerant(t *testing.T) {
	stream := "Content-Length: 2\r\n\r\n{}" +
		"content-length: 3\r\nContent-Type: application/json\r\n\r\n[1]" + // lower case, extra header
		"\r\n" + // a stray blank line
		"CONTENT-LENGTH:4\n\n\"ab\"" + // LF only, no space
		"X-Only: header\r\n\r\n" + // no length: dropped
		"Content-Length: x\r\n\r\n" + // bad length: dropped
		"junk-Content-Length: 1\r\n\r\n7" // resynchronised by the suffix match
	dropped := 0
	fr := newFrameReader(iotest.OneByteReader(strings.NewReader(stream)))
	fr.onDropped = func() { dropped++ }
	var got []string
	for {
		body, err := fr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		got = append(got, string(body))
	}
	if want := []string{"{}", "[1]", `"ab"`, "7"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("bodies = %q, want %q", got, want)
	}
	if dropped != 2 {
		t.Errorf("dropped %d header blocks, want 2", dropped)
	}
}

func TestFrameReaderTruncation(t *testing.T) {
	for _, stream := range []string{"Content-Length: 10\r\n\r\n{}", "Content-Length: 10\r\n"} {
		if _, err := newFrameReader(strings.NewReader(stream)).next(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%q: err = %v, want unexpected EOF", stream, err)
		}
	}
}

func TestFrameReaderHasNoSizeCap(t *testing.T) {
	defer func(limit int64) { preallocLimit = limit }(preallocLimit)
	preallocLimit = 1 << 10
	body := bytes.Repeat([]byte("y"), 5<<20+3)
	stream := io.MultiReader(strings.NewReader("Content-Length: "+itoa(len(body))+"\r\n\r\n"), bytes.NewReader(body))
	got, err := newFrameReader(stream).next()
	if err != nil || len(got) != len(body) {
		t.Fatalf("got %d bytes, %v", len(got), err)
	}
}

func itoa(n int) string { return string(mustMarshal(n)) }

func TestFrameWriterWritesCanonicalFrames(t *testing.T) {
	var buf bytes.Buffer
	fw := newFrameWriter(&buf)
	_ = fw.write([]byte(`{"a":1}`))
	big := bytes.Repeat([]byte("z"), smallFrame+1)
	_ = fw.write(big)
	want := "Content-Length: 7\r\n\r\n{\"a\":1}Content-Length: " + itoa(len(big)) + "\r\n\r\n" + string(big)
	if buf.String() != want {
		t.Errorf("written frames differ")
	}
}

func TestDebuggeeURL(t *testing.T) {
	cases := []struct{ app, cda, session, auth, want string }{
		{"https://a.test/app", "wss://dbg.test:8443", "s1", "",
			"https://a.test/app?debug-server-url=wss%3A%2F%2Fdbg.test%3A8443&debug-server-host=dbg.test&debug-server-port=8443&debug-session-id=s1"},
		{"https://a.test/app?lang=ru#top", "wss://dbg.test", "s 2", "another_user",
			"https://a.test/app?lang=ru&debug-server-url=wss%3A%2F%2Fdbg.test&debug-server-host=dbg.test&debug-server-port=443&debug-session-id=s%202&force_auth=another_user#top"},
		{"http://a.test", "ws://[::1]", "s", "",
			"http://a.test?debug-server-url=ws%3A%2F%2F%5B%3A%3A1%5D&debug-server-host=%5B%3A%3A1%5D&debug-server-port=80&debug-session-id=s"},
		{"", "wss://dbg.test", "s", "", ""},
		{"https://a.test", "", "s", "", ""},
	}
	for _, c := range cases {
		if got := debuggeeURL(c.app, c.cda, c.session, c.auth); got != c.want {
			t.Errorf("debuggeeURL(%q, %q)\n got %s\nwant %s", c.app, c.cda, got, c.want)
		}
	}
	if got := resolveAppURL("/apps/tasks", "https://console.test/console/"); got != "https://console.test/apps/tasks" {
		t.Errorf("resolveAppURL = %s", got)
	}
}

func TestEncodeURIComponentMatchesJavaScript(t *testing.T) {
	if got := encodeURIComponent("a b/c?d=é!*'()~_.-"); got != "a%20b%2Fc%3Fd%3D%C3%A9!*'()~_.-" {
		t.Errorf("got %s", got)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindSourcesRoot(t *testing.T) {
	t.Run("Russian descriptor, started in the project dir", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, "Acme", "Tasks", "Проект.yaml"), "\ufeffИмя: Tasks\nПоставщик: Acme\n")
		write(t, filepath.Join(root, "Acme", "Tasks", "Основное", "x.xbsl"), "")
		for _, start := range []string{filepath.Join(root, "Acme", "Tasks"), root} {
			if got, ok := findSourcesRoot(start); !ok || got != root {
				t.Errorf("from %s: %q, %v", start, got, ok)
			}
		}
	})
	t.Run("English descriptor and keys", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, "Vendor", "App", "Project.yaml"), "Name: \"App\"\nVendor: Vendor # the vendor\nDependencies:\n  Name: other\n")
		if got, ok := findSourcesRoot(root); !ok || got != root {
			t.Errorf("%q, %v", got, ok)
		}
	})
	t.Run("from a subdirectory of the project (grandparent)", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, "Acme", "Tasks", "Проект.yaml"), "Имя: Tasks\nПоставщик: Acme\n")
		start := filepath.Join(root, "Acme", "Tasks", "Основное", "Задачи")
		if err := os.MkdirAll(start, 0o755); err != nil {
			t.Fatal(err)
		}
		if got, ok := findSourcesRoot(filepath.Join(root, "Acme", "Tasks", "Основное")); !ok || got != root {
			t.Errorf("%q, %v", got, ok)
		}
	})
	t.Run("layout must match the descriptor", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, "Acme", "Other", "Проект.yaml"), "Имя: Tasks\nПоставщик: Acme\n")
		write(t, filepath.Join(root, ".hidden", "Acme", "Проект.yaml"), "Имя: Acme\nПоставщик: .hidden\n")
		if got, ok := findSourcesRoot(root); ok {
			t.Errorf("found %q", got)
		}
	})
	t.Run("the repo's demo project", func(t *testing.T) {
		demo, _ := filepath.Abs(filepath.Join("..", "..", "examples", "demo"))
		if _, err := os.Stat(demo); err != nil {
			t.Fatalf("no demo project at %s: %v", demo, err)
		}
		if got, ok := findSourcesRoot(demo); !ok || got != demo {
			t.Errorf("%q, %v", got, ok)
		}
	})
}

func TestCopyRedactedMasksSecretsAcrossChunks(t *testing.T) {
	s := &secrets{}
	s.add("SECRET-TOKEN-123")
	long := strings.Repeat("a", 32<<10-7) + "SECRET-TOKEN-123" + strings.Repeat("b", 40<<10) + "\nline SECRET-TOKEN-123 end\ntail SECRET-TOKEN-123"
	var out bytes.Buffer
	copyRedacted(&out, iotest.HalfReader(strings.NewReader(long)), s)
	if strings.Contains(out.String(), "SECRET") {
		t.Errorf("a secret got through")
	}
	want := strings.ReplaceAll(long, "SECRET-TOKEN-123", "***")
	if out.String() != want {
		t.Errorf("output differs from the masked input (len %d vs %d)", out.Len(), len(want))
	}
}

func TestRawObjectKeepsValuesAndOrder(t *testing.T) {
	in := `{"b": [1, 2.50],"a":{"x":"\u00e9"}, "c":null}`
	o, err := decodeRawObject([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	o.setDefault("a", "ignored")
	o.setDefault("d", true)
	if got := string(mustMarshal(o)); got != `{"b":[1,2.50],"a":{"x":"\u00e9"},"c":null,"d":true}` {
		t.Errorf("got %s", got)
	}
	if !o.isNull("c") || !o.isNull("missing") || o.isNull("a") {
		t.Errorf("isNull is wrong")
	}
}

func TestPeek(t *testing.T) {
	good := map[string]envelope{
		`{"seq":3,"type":"request","command":"attach","arguments":{"x":"}\"{","y":[1,{"z":"\\"}]}}`:                                           {Seq: 3, Type: "request", Command: "attach"},
		` { "body" : { "s" : "a\\\\" } , "type" : "response" , "request_seq" : 7 , "success" : true , "command" : "variables" , "seq" : 9 } `: {Seq: 9, Type: "response", Command: "variables", RequestSeq: 7, Success: true},
		`{"type":"event","event":"output","body":{"n":-1.5e+3,"b":false,"z":null}}`:                                                           {Type: "event", Event: "output"},
		// as encoding/json reads them: escapes decoded, null leaves a field alone
		`{"t\u0079pe":"resp\u006fnse","seq":null,"success":null,"request_seq":-0}`: {Type: "response"},
	}
	for in, want := range good {
		if got, err := peek([]byte(in)); err != nil || got != want {
			t.Errorf("peek(%s) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{``, `hello`, `[1]`, `{"type":"event"`, `{"type":"event"} x`, `{"seq":"one","type":"x"}`, `{"a":1}`, `{"type":"x",}`, `{"s":"unterminated}`,
		`{"seq":1.5,"type":"x"}`, `{"seq":1e3,"type":"x"}`, `{"type":1}`, `{"type":"x","success":"yes"}`, `{"type":"x","body":{"a" 1}}`, "{\"type\":\"a\tb\"}"} {
		if env, err := peek([]byte(bad)); err == nil {
			t.Errorf("peek(%s) = %+v, want an error", bad, env)
		}
	}
}
