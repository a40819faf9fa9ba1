package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/platform"
)

// The README's blocks, by how they are fenced:
//
//	```sh            pasteable: TestREADME runs it, in order with the others;
//	                 it holds no <placeholder>
//	```sh template   commands with <placeholders> for the reader's own
//	                 values: not run, and it must hold one
//	```sh checkout   make targets of this repository: not run here (the gate
//	                 runs make test around this test; TestDemo runs make
//	                 demo's script)
//	```dotenv        a .env: it must read without a warning
//
// Any other word after sh is refused, so a block cannot drop out of the
// test by a typing slip.
const readmePath = "../../README.md"

// readmeBlock is one fenced block.
type readmeBlock struct {
	info string // the words after the fence
	text string
	line int // of the opening fence
}

func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	var (
		blocks []readmeBlock
		cur    *readmeBlock
		body   []string
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{info: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: n}
			body = nil
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body = append(body, line)
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: a block is never closed", cur.line)
	}
	return blocks
}

// placeholder is a value the reader fills in: <app>, <project id>, <…>.
var placeholder = regexp.MustCompile(`<[\p{L}…][^<>\n]*>`)

// TestREADME runs the README's pasteable blocks as a reader who follows it
// would: on the emulated stand, from a folder holding a copy of examples/,
// with elemctl on PATH. A block fails the test when a command in it exits
// with an error or prints a warning.
func TestREADME(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the README's blocks are POSIX shell")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the README's blocks with")
	}
	t.Parallel()
	var run []readmeBlock
	for _, b := range readmeBlocks(t) {
		where := fmt.Sprintf("README.md:%d", b.line)
		words := strings.Fields(b.info)
		switch {
		case b.info == "sh":
			if p := placeholder.FindString(b.text); p != "" {
				t.Errorf("%s: a pasteable block holds the placeholder %s: fence it as ```sh template, or write a value that works", where, p)
			}
			run = append(run, b)
		case b.info == "sh template":
			if !placeholder.MatchString(b.text) {
				t.Errorf("%s: a template without a <placeholder>: fence it as ```sh to have it run", where)
			}
		case b.info == "sh checkout":
			for _, line := range commandLines(b.text) {
				if !strings.HasPrefix(line, "make ") {
					t.Errorf("%s: a checkout block holds %q: only make targets belong there", where, line)
				}
			}
		case len(words) > 0 && words[0] == "sh":
			t.Errorf("%s: unknown fence %q: sh, sh template or sh checkout", where, b.info)
		case b.info == "dotenv":
			env, err := platform.ParseDotEnv([]byte(b.text))
			if err != nil {
				t.Errorf("%s: %v", where, err)
			} else if len(env.Notes) > 0 {
				t.Errorf("%s: the .env example draws warnings: %+v", where, env.Notes)
			}
		}
	}
	if len(run) == 0 {
		t.Fatal("the README has no pasteable block: nothing was tested")
	}

	work := t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "examples"), os.DirFS("../../examples")); err != nil {
		t.Fatal(err)
	}
	env := readerEnv(work)
	for _, b := range run {
		lines := commandLines(b.text)
		if len(lines) > 0 && strings.HasPrefix(lines[0], "elemctl stand ") {
			if len(lines) != 1 {
				t.Fatalf("README.md:%d: elemctl stand keeps its terminal: give it a block of its own", b.line)
			}
			startReadmeStand(t, bash, work, env, lines[0], b.line)
			continue
		}
		cmd := exec.Command(bash, "-e", "-o", "pipefail", "-c", b.text)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		t.Logf("README.md:%d:\n%s%s", b.line, b.text, out)
		if err != nil {
			t.Errorf("README.md:%d: the block failed (%v); its output is above", b.line, err)
			continue
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "warning:") {
				t.Errorf("README.md:%d: a reader meets a warning: %s", b.line, line)
			}
		}
	}
}

// commandLines are a block's lines without blanks and comment lines.
func commandLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// readerEnv is the environment of a reader's shell: elemctl on PATH, a
// home of their own, English messages, no stand named by the environment.
func readerEnv(work string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "ELEMENT_") || strings.HasPrefix(name, "ELEMCTL_") ||
			name == "HOME" || name == "TMPDIR" || strings.HasPrefix(name, "XDG_") || name == "LANG" || name == "LC_ALL" {
			continue
		}
		env = append(env, kv)
	}
	tmp := filepath.Join(work, ".tmp")
	_ = os.MkdirAll(tmp, 0o755)
	return append(env, "HOME="+work, "TMPDIR="+tmp, "XDG_STATE_HOME="+filepath.Join(work, ".state"),
		"XDG_DATA_HOME="+filepath.Join(work, ".data"), "XDG_CONFIG_HOME="+filepath.Join(work, ".config"),
		"ELEMCTL_LANG=en", "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_NO_PROXY=1")
}

// startReadmeStand runs a block's `elemctl stand` beside the other blocks,
// as in a terminal of its own, and waits until it has written the .env its
// --write-env names: the stand serves from then on. It stops at the end of
// the test.
func startReadmeStand(t *testing.T, bash, work string, env []string, line string, at int) {
	t.Helper()
	words := strings.Fields(line)
	envFile := ""
	for i, w := range words {
		if w == "--write-env" && i+1 < len(words) {
			envFile = filepath.Join(work, words[i+1])
		}
	}
	if envFile == "" {
		t.Fatalf("README.md:%d: the stand writes no .env (--write-env) for the next blocks", at)
	}
	var out bytes.Buffer
	cmd := exec.Command(bash, "-c", "exec "+line)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = work, env, &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := os.Stat(envFile); err == nil && st.Size() > 0 {
			return
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("README.md:%d: the stand ended (%v):\n%s", at, err, out.String())
		case <-ctx.Done():
			t.Fatalf("README.md:%d: the stand wrote no %s: %v", at, envFile, ctx.Err())
		case <-tick.C:
		}
	}
}

// TestDemo runs make demo's script with this elemctl: it must pass, and
// its happy path must not alarm a newcomer.
func TestDemo(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the demo is a bash script")
	}
	bin, err := exec.LookPath("elemctl")
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	work := t.TempDir()
	cmd := exec.Command("../../scripts/demo.sh")
	cmd.Env = append(readerEnv(work), "ELEMCTL_BIN="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the demo failed: %v\n%s", err, out)
	}
	for _, want := range []string{"verification passed: the build is applied", "compilation FAILED", "cleanup done"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the demo did not say %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "warning:") || strings.Contains(line, "was not checked") {
			t.Errorf("the demo alarms: %s", line)
		}
	}
}
