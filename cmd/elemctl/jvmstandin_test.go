package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/dap"
)

// jvmVector is the argument vector the XBSL extension spawns java with.
func jvmVector(adapterDir string) []string {
	sep := string(filepath.Separator)
	return []string{
		"-Dfile.encoding=UTF-8",
		"--add-opens", "java.base/java.lang=ALL-UNNAMED",
		"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
		"-cp", adapterDir + sep + "repo" + sep + "*",
		dap.AdapterMainClass,
	}
}

func noEnv(string) string { return "" }

// elemctlLines are command lines elemctl serves: a few by hand, every
// command of the tree with and without flags, and every line the CLI
// scripts run.
func elemctlLines(t *testing.T) [][]string {
	ctx := context.Background()
	lines := [][]string{
		nil, {"-h"}, {"--help"}, {"help"}, {"--version"}, {"--json", "deploy"}, {"--quiet", "--json", "apps", "list"},
		{"apps", "list"}, {"apps", "list", "--brief"}, {"--env-file", "x.env", "apps", "debug"},
		{"apps", "debug", "--app-id", "x"}, {"debug-adapter"}, {"dap", "--java", "java", "--adapter", "/opt/a"},
		{"mcp"}, {"lsp"}, {"stand"}, {"completion", "bash"}, {"--lang", "en", "plugins"},
	}
	var walk func(path []string, c *cobra.Command)
	walk = func(path []string, c *cobra.Command) {
		for _, sub := range c.Commands() {
			p := append(append([]string(nil), path...), sub.Name())
			lines = append(lines, p, append([]string{"--json"}, p...), append(append([]string(nil), p...), "-h"))
			sub.Flags().VisitAll(func(f *pflag.Flag) {
				lines = append(lines, append(append([]string(nil), p...), "--"+f.Name))
			})
			walk(p, sub)
		}
	}
	a := newApp(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, noEnv)
	root := a.buildRoot(ctx)
	a.readyAll()
	walk(nil, root)
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no CLI scripts: %v", err)
	}
	for _, script := range scripts {
		data, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			words := strings.Fields(line)
			for i, w := range words {
				if w == "elemctl" && i > 0 && words[i-1] == "exec" {
					lines = append(lines, words[i+1:])
					break
				}
			}
		}
	}
	return lines
}

func TestJVMStandInLeavesElemctlCommandLinesAlone(t *testing.T) {
	ctx := context.Background()
	lines := elemctlLines(t)
	if len(lines) < 200 {
		t.Fatalf("only %d command lines to check", len(lines))
	}
	for _, args := range lines {
		var out, errOut bytes.Buffer
		handled, code := newApp(strings.NewReader(""), &out, &errOut, noEnv).jvmStandIn(ctx, args)
		if handled || code != 0 || out.Len() > 0 || errOut.Len() > 0 {
			t.Errorf("jvmStandIn(%q) = %v, %d (stdout %q, stderr %q); want it left to cobra", args, handled, code, out.String(), errOut.String())
		}
	}
}

// frames splits a DAP stream into its JSON bodies.
func frames(t *testing.T, stream []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for len(stream) > 0 {
		head, rest, ok := bytes.Cut(stream, []byte("\r\n\r\n"))
		n, err := strconv.Atoi(strings.TrimPrefix(string(head), "Content-Length: "))
		if !ok || err != nil || n > len(rest) {
			t.Fatalf("stdout is not DAP frames: %q", stream)
		}
		var m map[string]any
		if err := json.Unmarshal(rest[:n], &m); err != nil {
			t.Fatalf("a frame that is not JSON: %q", rest[:n])
		}
		out = append(out, m)
		stream = rest[n:]
	}
	return out
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func TestJVMStandInServesDAP(t *testing.T) {
	ctx := context.Background()
	vector := jvmVector(t.TempDir())

	// A client that leaves at once: nothing started, nothing said.
	var out, errOut bytes.Buffer
	handled, code := newApp(strings.NewReader(""), &out, &errOut, noEnv).jvmStandIn(ctx, vector)
	if !handled || code != 0 || out.Len() > 0 {
		t.Errorf("empty session: %v, %d, stdout %q, stderr %q", handled, code, out.String(), errOut.String())
	}

	// No real java anywhere: the client hears why at initialize.
	t.Setenv("PATH", t.TempDir())
	out.Reset()
	errOut.Reset()
	in := frame(`{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"xbsl"}}`) +
		frame(`{"seq":2,"type":"request","command":"disconnect"}`)
	handled, code = newApp(strings.NewReader(in), &out, &errOut, noEnv).jvmStandIn(ctx, vector)
	if !handled || code != 1 {
		t.Errorf("jvmStandIn = %v, %d; want true, 1", handled, code)
	}
	msgs := frames(t, out.Bytes())
	if len(msgs) != 2 || msgs[0]["success"] != false || msgs[1]["success"] != true {
		t.Fatalf("answers = %v", msgs)
	}
	text, _ := msgs[0]["message"].(string)
	if !strings.Contains(text, "xbsl.debug.javaPath") || !strings.Contains(text, "JAVA_HOME") {
		t.Errorf("initialize refused with %q", text)
	}
	if !strings.Contains(errOut.String(), text) {
		t.Errorf("stderr lacks the reason:\n%s", errOut.String())
	}
}

// TestRunServesAJVMLaunch checks that app.run hands a JVM launch to the
// stand-in before cobra could refuse "-Dfile.encoding=UTF-8".
func TestRunServesAJVMLaunch(t *testing.T) {
	var out, errOut bytes.Buffer
	code := newApp(strings.NewReader(""), &out, &errOut, noEnv).run(jvmVector(t.TempDir()))
	if code != 0 || out.Len() > 0 || errOut.Len() > 0 {
		t.Errorf("run(JVM vector) = %d, stdout %q, stderr %q; want 0 and silence", code, out.String(), errOut.String())
	}
}
