package protocol

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	m, err := Decode([]byte(`{"jsonrpc":"2.0","id":2,"result":null}`))
	if err != nil || !m.IsResponse() || string(m.Result) != "null" {
		t.Fatalf("a null result is a result: %+v %v", m, err)
	}
	for _, bad := range []string{`hello`, `{"id":1,"result":1}`, `{"jsonrpc":"2.0"}`, `{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":1,"result":1} {}`, `[1]`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if m, err := Decode([]byte(`{"jsonrpc":"2.0","method":"log","params":{"message":"x"}}`)); err != nil || !m.IsNotification() {
		t.Errorf("notification %+v %v", m, err)
	}
}

func TestReaderLines(t *testing.T) {
	r := NewReader(strings.NewReader("\n  {\"a\":1}\r\n\n{\"b\":2}"))
	var got []string
	for {
		line, err := r.ReadLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	if strings.Join(got, "|") != `{"a":1}|{"b":2}` {
		t.Errorf("lines %q", got)
	}
	long := NewReader(bytes.NewReader(bytes.Repeat([]byte("x"), 200<<10)))
	long.limit = 100 << 10
	if _, err := long.ReadLine(); err != ErrLineTooLong {
		t.Errorf("a line past the limit: %v", err)
	}
}

func TestWriterOneLinePerMessage(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Notify(MethodLog, LogParams{Message: "a\nb <&>"})
	w.Reply([]byte("1"), nil)
	if got := buf.String(); got != "{\"jsonrpc\":\"2.0\",\"method\":\"log\",\"params\":{\"message\":\"a\\nb <&>\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}\n" {
		t.Errorf("wire %q", got)
	}
}

// Lines of every length around the buffer sizes come through whole and in
// order, through a pipe that delivers them in odd pieces.
func TestReaderLinesAcrossBufferSizes(t *testing.T) {
	lengths := []int{10, shortBuffer - 1, shortBuffer, shortBuffer + 1, 3, longBuffer - 1, longBuffer + 7, 1, 300 << 10, 5}
	var want []string
	var stream bytes.Buffer
	for i, n := range lengths {
		line := strings.Repeat(string(rune('a'+i)), n)
		want = append(want, line)
		stream.WriteString(line + "\n")
	}
	pr, pw := io.Pipe()
	go func() {
		data := stream.Bytes()
		for len(data) > 0 {
			n := min(len(data), 1000+len(data)%3001) // odd piece sizes
			pw.Write(data[:n])
			data = data[n:]
		}
		pw.Close()
	}()
	r := NewReader(pr)
	for i, w := range want {
		line, err := r.ReadLine()
		if err != nil {
			t.Fatalf("line %d (%d bytes): %v", i, len(w), err)
		}
		if string(line) != w {
			t.Fatalf("line %d: got %d bytes starting %.5q, want %d bytes of %q", i, len(line), line, len(w), w[:1])
		}
	}
	if _, err := r.ReadLine(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}
	if r.r.Size() != longBuffer {
		t.Errorf("buffer %d after long lines, want %d", r.r.Size(), longBuffer)
	}
}
