package dap

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// These tests run the real elemctl binary the way the XBSL extension runs
// it when xbsl.debug.javaPath names elemctl: with the JVM's argument
// vector, DAP on its stdio, and the Java fake as the adapter.

var elemctlBinary struct {
	once sync.Once
	path string
	err  error
	out  string
}

// buildElemctl builds cmd/elemctl once per test run.
func buildElemctl(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the elemctl binary")
	}
	elemctlBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "elemctl-dap-standin")
		if err != nil {
			elemctlBinary.err = err
			return
		}
		afterTests = append(afterTests, func() { os.RemoveAll(dir) })
		name := "elemctl"
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		elemctlBinary.path = filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", elemctlBinary.path, "github.com/elemctl/elemctl/cmd/elemctl")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		elemctlBinary.err, elemctlBinary.out = err, string(out)
	})
	if elemctlBinary.err != nil {
		t.Fatalf("go build ./cmd/elemctl: %v\n%s", elemctlBinary.err, elemctlBinary.out)
	}
	return elemctlBinary.path
}

// jdkHome is the home of the JDK that runs the Java fake: JAVA_HOME, else
// the one behind java on PATH.
func jdkHome(t *testing.T) string {
	t.Helper()
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if _, err := os.Stat(filepath.Join(home, "bin", javaExecutable())); err == nil {
			return home
		}
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	if resolved, err := filepath.EvalSymlinks(java); err == nil {
		java = resolved
	}
	return filepath.Dir(filepath.Dir(java))
}

// standInProcess is elemctl started as java, with a DAP client on its stdio.
type standInProcess struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	client *testClient
	stderr *syncBuffer
	exited chan struct{}
}

// startStandIn starts bin with args; env adds to (or, when empty, removes
// from) an environment without any java or elemctl settings.
func startStandIn(t *testing.T, bin string, args []string, env map[string]string) *standInProcess {
	t.Helper()
	drop := map[string]bool{"JAVA_HOME": true, "PATH": true, "JDK_JAVA_OPTIONS": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "CLASSPATH": true}
	var environ []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[strings.ToUpper(k)] && !strings.HasPrefix(strings.ToUpper(k), "ELEMCTL_") {
			environ = append(environ, kv)
		}
	}
	environ = append(environ, "ELEMCTL_LANG=en")
	for k, v := range env {
		if v != "" {
			environ = append(environ, k+"="+v)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = environ
	cmd.Dir = t.TempDir()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &standInProcess{t: t, cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.client = newTestClient(t, stdin, stdout)
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(waitLimit):
			_ = cmd.Process.Kill()
			<-p.exited
			t.Errorf("elemctl did not exit after its stdin closed; stderr:\n%s", p.stderr)
		}
	})
	return p
}

// exitCode closes elemctl's stdin and returns its exit code.
func (p *standInProcess) exitCode() int {
	p.t.Helper()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(waitLimit):
		p.t.Fatalf("elemctl did not exit; stderr:\n%s", p.stderr)
	}
	return p.cmd.ProcessState.ExitCode()
}

func TestStandInBinaryRunsTheJVMWithTheGivenVector(t *testing.T) {
	bin := buildElemctl(t)
	jdk := jdkHome(t)
	dir := javaAdapterDir(t)
	jar := filepath.Join(dir, "repo", "com.e1c.g5rt.debugger.adapter-test.jar")
	cp := dir + string(filepath.Separator) + "repo" + string(filepath.Separator) + "*"
	for _, tc := range []struct {
		name        string
		vector      []string
		programArgs []string
	}{
		{"the XBSL vector", xbslVector(dir), nil},
		{"more JVM options and adapter arguments", []string{"-Xmx256m", "-Dfile.encoding=UTF-8", "-Delemctl.test=a b", "--add-opens=java.base/java.lang=ALL-UNNAMED", "-classpath", cp, AdapterMainClass, "--trace", "two words"}, []string{"--trace", "two words"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// No java on PATH: the JVM must come from JAVA_HOME.
			p := startStandIn(t, bin, tc.vector, map[string]string{"JAVA_HOME": jdk, "PATH": t.TempDir()})
			c := p.client
			if resp := c.initialize(); resp.body()["supportsFakeJavaAdapter"] != true {
				t.Fatalf("initialize did not reach the Java adapter: %s\nstderr:\n%s", resp.raw, p.stderr)
			}
			c.checkVariablesSplit(t, "[0]", "[1]", "[2]", "a", "b")
			c.call("disconnect", map[string]any{"terminateDebuggee": false})
			c.event("terminated")
			c.drain() // stdout carried DAP frames only (the client is strict) until it closed
			if code := p.exitCode(); code != 0 {
				t.Errorf("exit code %d, want the adapter's 0; stderr:\n%s", code, p.stderr)
			}
			java := filepath.Join(jdk, "bin", javaExecutable())
			if !strings.Contains(p.stderr.String(), java) {
				t.Errorf("stderr does not name the java from JAVA_HOME (%s):\n%s", java, p.stderr)
			}

			rec := javaRecord(t, dir)
			if runtime.GOOS == "linux" && len(rec["argv"]) == 0 {
				t.Errorf("the Java fake could not read its command line")
			}
			if len(rec["argv"]) > 0 && !reflect.DeepEqual(rec["argv"], tc.vector) {
				t.Errorf("the JVM was started with\n%q\nwant exactly\n%q", rec["argv"], tc.vector)
			}
			if !reflect.DeepEqual(rec["arg"], tc.programArgs) {
				t.Errorf("the adapter got program arguments %q, want %q", rec["arg"], tc.programArgs)
			}
			for _, opt := range tc.vector {
				if strings.HasPrefix(opt, "-D") || strings.HasPrefix(opt, "-X") || strings.HasPrefix(opt, "--add-opens=") {
					if !contains(rec["jvm"], opt) {
						t.Errorf("JVM options %q lack %q", rec["jvm"], opt)
					}
				}
			}
			if !contains(rec["prop"], "java.class.path="+jar) {
				t.Errorf("the classpath wildcard did not expand to the jar: %q", rec["prop"])
			}
			if !contains(rec["prop"], "sun.java.command="+strings.Join(append([]string{AdapterMainClass}, tc.programArgs...), " ")) {
				t.Errorf("system properties = %q", rec["prop"])
			}
			if !contains(rec["env"], StandInEnv+"=1") {
				t.Errorf("the JVM's environment lacks %s=1: %q", StandInEnv, rec["env"])
			}
			var filters []string
			for _, r := range rec["request"] {
				if strings.HasPrefix(r, "variables ") && strings.Contains(r, `"variablesReference":10`) {
					filters = append(filters, r)
				}
			}
			if len(filters) != 2 || !strings.Contains(filters[0], `"filter":"indexed"`) || !strings.Contains(filters[1], `"filter":"named"`) {
				t.Errorf("the adapter got these requests for ref 10: %q", filters)
			}
		})
	}
}

func TestStandInBinaryNeverStartsItself(t *testing.T) {
	bin := buildElemctl(t)
	jdk := jdkHome(t)
	jdkBin := filepath.Join(jdk, "bin")
	list := func(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }

	t.Run("elemctl as java on PATH is passed over", func(t *testing.T) {
		dir := javaAdapterDir(t)
		selfDir := t.TempDir()
		linkTo(t, bin, selfDir, javaExecutable())
		p := startStandIn(t, bin, xbslVector(dir), map[string]string{"PATH": list(selfDir, jdkBin)})
		if resp := p.client.initialize(); resp.body()["supportsFakeJavaAdapter"] != true {
			t.Fatalf("initialize = %s\nstderr:\n%s", resp.raw, p.stderr)
		}
		p.client.call("disconnect", nil)
		if code := p.exitCode(); code != 0 {
			t.Errorf("exit code %d; stderr:\n%s", code, p.stderr)
		}
		if !strings.Contains(p.stderr.String(), filepath.Join(jdkBin, "java")) {
			t.Errorf("stderr does not name the JDK's java:\n%s", p.stderr)
		}
	})

	t.Run("only elemctl as java on PATH", func(t *testing.T) {
		selfDir := t.TempDir()
		self := linkTo(t, bin, selfDir, javaExecutable())
		p := startStandIn(t, bin, xbslVector(javaAdapterDir(t)), map[string]string{"PATH": selfDir})
		resp := p.client.response(p.client.request("initialize", map[string]any{"adapterID": "xbsl"}))
		if resp.m["success"] != false || !strings.Contains(resp.str("message"), "is elemctl itself") || !strings.Contains(resp.str("message"), self) {
			t.Fatalf("initialize = %s; want a refusal naming %s", resp.raw, self)
		}
		p.client.call("disconnect", nil)
		if code := p.exitCode(); code != 1 {
			t.Errorf("exit code %d, want 1; stderr:\n%s", code, p.stderr)
		}
		if !strings.Contains(p.stderr.String(), "is elemctl itself") {
			t.Errorf("stderr lacks the refusal:\n%s", p.stderr)
		}
	})

	t.Run("a copy of elemctl as java on PATH", func(t *testing.T) {
		// Not the same file, so it is started once – and refuses to go on.
		copyDir := t.TempDir()
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copyDir, javaExecutable()), data, 0o755); err != nil {
			t.Fatal(err)
		}
		p := startStandIn(t, bin, xbslVector(javaAdapterDir(t)), map[string]string{"PATH": list(copyDir, jdkBin)})
		resp := p.client.response(p.client.request("initialize", map[string]any{"adapterID": "xbsl"}))
		if resp.m["success"] != false || !strings.Contains(resp.str("message"), StandInEnv) {
			t.Fatalf("initialize = %s; want the copy's refusal naming %s\nstderr:\n%s", resp.raw, StandInEnv, p.stderr)
		}
		p.client.call("disconnect", nil)
		if code := p.exitCode(); code != 1 {
			t.Errorf("exit code %d, want 1; stderr:\n%s", code, p.stderr)
		}
	})
}

// `java -version`, the editor's check of its java setting, is answered by
// the real java; elemctl as the only java on PATH is refused, not run.
func TestStandInBinaryAnswersJavaVersion(t *testing.T) {
	bin := buildElemctl(t)
	jdk := jdkHome(t)
	run := func(env ...string) (string, int) {
		cmd := exec.Command(bin, "-version")
		cmd.Env = append(environWithout("JAVA_HOME", "PATH"), append(env, "ELEMCTL_LANG=en")...)
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("JAVA_HOME="+jdk, "PATH="+t.TempDir()); code != 0 || !strings.Contains(out, `version "`) {
		t.Errorf("elemctl -version with a JDK in JAVA_HOME: exit %d\n%s", code, out)
	}
	selfDir := t.TempDir()
	self := linkTo(t, bin, selfDir, javaExecutable())
	if out, code := run("PATH=" + selfDir); code != 1 || !strings.Contains(out, "is elemctl itself") || !strings.Contains(out, self) {
		t.Errorf("elemctl -version with only elemctl as java: exit %d\n%s", code, out)
	}
}

// environWithout is the test's environment without the named variables.
func environWithout(names ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || strings.EqualFold(k, n)
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
