package dap

import (
	"archive/zip"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// The Java fake adapter proves the real JVM launch: it is compiled here
// with javac, packed as repo/com.e1c.g5rt.debugger.adapter-test.jar and
// started by the proxy with the adapter's argument vector, from which the
// JVM must find its main class through the "repo/*" wildcard.

var javaClasses struct {
	once  sync.Once
	files map[string][]byte // class files by their path in the jar
	err   error
}

func compileJavaFake(t testing.TB) map[string][]byte {
	t.Helper()
	javac, err := exec.LookPath("javac")
	if err != nil {
		t.Skip("javac is not installed: the Java fake adapter cannot be built (install a JDK 17+ to run this test)")
	}
	javaClasses.once.Do(func() {
		out, err := os.MkdirTemp("", "elemctl-dap-javafake")
		if err != nil {
			javaClasses.err = err
			return
		}
		defer os.RemoveAll(out)
		src := filepath.Join("testdata", "javafake", "com", "e1c", "g5rt", "debugger", "adapter", "App.java")
		if msg, err := exec.Command(javac, "-encoding", "UTF-8", "-d", out, src).CombinedOutput(); err != nil {
			javaClasses.err = &javacError{string(msg)}
			return
		}
		javaClasses.files = map[string][]byte{}
		javaClasses.err = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(out, path)
			javaClasses.files[filepath.ToSlash(rel)] = data
			return err
		})
	})
	if javaClasses.err != nil {
		t.Fatalf("building the Java fake: %v", javaClasses.err)
	}
	return javaClasses.files
}

type javacError struct{ out string }

func (e *javacError) Error() string { return "javac failed:\n" + e.out }

// javaAdapterDir makes a fresh adapter directory holding the Java fake.
func javaAdapterDir(t testing.TB) string {
	t.Helper()
	classes := compileJavaFake(t)
	dir := t.TempDir()
	jarPath := filepath.Join(dir, "repo", "com.e1c.g5rt.debugger.adapter-test.jar")
	if err := os.MkdirAll(filepath.Dir(jarPath), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(jarPath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	entries := map[string][]byte{"META-INF/MANIFEST.MF": []byte("Manifest-Version: 1.0\r\nMain-Class: " + AdapterMainClass + "\r\n\r\n")}
	for name, data := range classes {
		entries[name] = data
	}
	for name, data := range entries {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// javaRecord reads what the Java fake wrote about itself.
func javaRecord(t *testing.T, dir string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "record.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rec := map[string][]string{}
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		kind, value, _ := strings.Cut(line, "\t")
		rec[kind] = append(rec[kind], value)
	}
	return rec
}

func TestJavaAdapterSession(t *testing.T) {
	dir := javaAdapterDir(t)
	root, projectDir := projectTree(t)
	platform := &fixedSession{}
	s := startSession(t, Options{AdapterDir: dir, Session: platform.lookup}) // java from JAVA_HOME or PATH
	c := s.client

	if resp := c.initialize(); resp.body()["supportsFakeJavaAdapter"] != true {
		t.Fatalf("initialize did not reach the Java adapter: %s", resp.raw)
	}
	c.call("attach", map[string]any{"type": "elemctl", "request": "attach", "name": "Debug", "appId": "tasks", "cwd": projectDir})
	bps := c.call("setBreakpoints", map[string]any{
		"source":      map[string]any{"path": filepath.Join(projectDir, "Основное", "Задачи.xbsl")},
		"breakpoints": []any{map[string]any{"line": 3}, map[string]any{"line": 7}},
	})
	if got := bps.body()["breakpoints"].([]any); len(got) != 2 || got[1].(map[string]any)["verified"] != true {
		t.Errorf("setBreakpoints = %s", bps.raw)
	}
	c.call("configurationDone", nil)
	c.event("stopped")
	if threads := c.call("threads", nil).body()["threads"].([]any); threads[0].(map[string]any)["name"] != "main" {
		t.Errorf("threads = %v", threads)
	}
	c.checkVariablesSplit(t, "[0]", "[1]", "[2]", "a", "b")
	c.call("disconnect", map[string]any{"terminateDebuggee": false})
	c.event("terminated")
	if r := s.wait(); r.code != 0 || r.err != nil {
		t.Errorf("Run = %d, %v; want 0", r.code, r.err)
	}

	rec := javaRecord(t, dir)
	for _, want := range []string{"-Dfile.encoding=UTF-8", "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED"} {
		if !contains(rec["jvm"], want) {
			t.Errorf("JVM options %q lack %q", rec["jvm"], want)
		}
	}
	if len(rec["arg"]) != 0 {
		t.Errorf("the adapter got program arguments %q", rec["arg"])
	}
	if !contains(rec["prop"], "file.encoding=UTF-8") || !contains(rec["prop"], "sun.java.command="+AdapterMainClass) {
		t.Errorf("system properties = %q", rec["prop"])
	}
	if !contains(rec["prop"], "java.class.path="+filepath.Join(dir, "repo", "com.e1c.g5rt.debugger.adapter-test.jar")) {
		t.Errorf("the classpath wildcard did not expand to the jar: %q", rec["prop"])
	}
	if !reflect.DeepEqual(rec["opens"], []string{"java.lang=true", "jdk.internal.misc=true"}) {
		t.Errorf("--add-opens did not take effect: %q", rec["opens"])
	}
	if len(rec["attach"]) != 1 {
		t.Fatalf("attach records = %q", rec["attach"])
	}
	var attach map[string]any
	if err := json.Unmarshal([]byte(rec["attach"][0]), &attach); err != nil {
		t.Fatal(err)
	}
	if attach["debugToken"] != secretToken || attach["workspace"] != root || attach["appId"] != "tasks" {
		t.Errorf("the Java adapter got %v", attach)
	}
	if strings.Contains(s.stderr.String(), secretToken) || !strings.Contains(s.stderr.String(), `"debugToken":"***"`) {
		t.Errorf("stderr must show the adapter's log with the token masked:\n%s", s.stderr)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
