package dap

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// xbslVector is the argument vector the XBSL extension spawns java with
// for the adapter in dir, written out as the extension builds it.
func xbslVector(dir string) []string {
	sep := string(filepath.Separator)
	return []string{
		"-Dfile.encoding=UTF-8",
		"--add-opens", "java.base/java.lang=ALL-UNNAMED",
		"--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
		"-cp", dir + sep + "repo" + sep + "*",
		AdapterMainClass,
	}
}

func TestIsAdapterLaunch(t *testing.T) {
	main := AdapterMainClass
	yes := [][]string{
		xbslVector("/opt/adapter"),
		xbslVector(`C:\Program Files\1C\adapter`),
		AdapterArgs("/opt/adapter"),
		{main},
		{main, "--port", "4711"},
		{main, "apps", "list"}, // the adapter's own arguments, whatever they are
		{"-Xmx512m", "-XX:+UseG1GC", "-Xss1m", "-Dx=y", "-Dflag", "-cp", "a.jar:b.jar", main},
		{"--add-opens=java.base/java.lang=ALL-UNNAMED", "--class-path=x.jar", main},
		{"-classpath", "x", "-ea", "-da:com.foo...", "-javaagent:agent.jar", "-verbose:gc", "-server", main, "-h"},
		{"--module-path", "mods", "--add-modules", "ALL-MODULE-PATH", "--enable-native-access", "ALL-UNNAMED", main},
		{"-showversion", "--enable-preview", "-agentlib:jdwp=transport=dt_socket", main},
	}
	no := [][]string{
		nil,
		{},
		{"apps", "list"},
		{"apps", "list", "--brief"},
		{"-h"},
		{"--help"},
		{"help"},
		{"--version"},
		{"-version"},
		{"--json", "deploy"},
		{"--env-file", "x.env", "apps", "debug"},
		{"dap", "--java", "java"},
		{"dap", "--adapter", "/opt/adapter"},
		{"debug-adapter"},
		{"mcp"},
		{"completion", "bash"},
		{"--json", main},
		{"--env-file", "x.env", main},
		{"apps", main},
		{"-Dfile.encoding=UTF-8"},                // no main class
		{"-Dfile.encoding=UTF-8", "--add-opens"}, // a value missing
		{"-cp", main},                            // the main class is the classpath
		{"-cp", "x", "other.Main"},               // another program
		{"-cp", "x", "other.Main", main},         // another program with an argument
		{"-jar", "adapter.jar"},                  // -jar is not a main class launch
		{"-jar", "adapter.jar", main},            //
		{"-cp=x", main},                          // java has no "-cp="
		{"-D", main},                             // no property name
		{"-D=x", main},                           //
		{"-X", main},                             // prints help
		{"--add-opens=", main},                   // empty value
		{"--", main},                             //
		{"-Dx=y", "--lang", "ru", main},          // an elemctl flag
		{main + "2"},                             //
		{strings.ToLower(main)},                  //
		{"@argfile", main},                       // argument files are not expanded
		{"-Dfile.encoding=UTF-8", "-cp", "x", "-q", main},  // unknown option
		{"-Dfile.encoding=UTF-8", "-cp", "x", "-v", main},  //
		{"-Dfile.encoding=UTF-8", "-cp", "x", "run", main}, //
	}
	for _, args := range yes {
		if !IsAdapterLaunch(args) {
			t.Errorf("IsAdapterLaunch(%q) = false, want true", args)
		}
	}
	for _, args := range no {
		if IsAdapterLaunch(args) {
			t.Errorf("IsAdapterLaunch(%q) = true, want false", args)
		}
	}
}

// standInOptions run the proxy as elemctl standing in for java, in front
// of the fast fake (this test binary, which knows the vector too).
func standInOptions(t testing.TB, vector []string) Options {
	return Options{
		JVMArgs:     vector,
		Java:        testBinary(t),
		Getenv:      func(string) string { return "" },
		GracePeriod: 200 * time.Millisecond,
	}
}

func TestStandInRunsTheGivenVector(t *testing.T) {
	vector := append(xbslVector(filepath.Join(t.TempDir(), "no adapter here")), "--extra", "two words")
	opts := standInOptions(t, vector)
	opts.LocateAdapter = func() (string, error) {
		t.Error("the stand-in looked for an adapter directory")
		return "", nil
	}
	s := startSession(t, opts)
	c := s.client
	if resp := c.initialize(); resp.body()["supportsFakeExtension"] != true {
		t.Fatalf("initialize did not reach the fake: %s", resp.raw)
	}
	argv := c.call("fake/argv", nil).body()
	var got []string
	for _, a := range argv["argv"].([]any) {
		got = append(got, a.(string))
	}
	if !reflect.DeepEqual(got, vector) {
		t.Errorf("the JVM got\n%q\nwant exactly\n%q", got, vector)
	}
	if argv["standIn"] != "1" {
		t.Errorf("%s in the JVM's environment = %v, want 1", StandInEnv, argv["standIn"])
	}

	// The variables fix applies: a filterless request on a node with both
	// kinds of children is split, with seqs out of the editor proxy's range.
	c.checkVariablesSplit(t, "[0]", "[1]", "[2]", "n0", "n1")
	// A request the editor's own proxy already filtered passes as it is.
	filtered := map[string]any{"variablesReference": 10, "filter": "indexed", "start": 0, "count": 3}
	seq := c.request("variables", filtered)
	if r := c.response(seq); len(names(r)) != 3 {
		t.Errorf("filtered variables = %s", r.raw)
	}
	log := c.fakeLog()
	var synthetic []int
	for _, r := range log {
		if r["command"] == "variables" && int(r["seq"].(float64)) >= syntheticSeqBase {
			synthetic = append(synthetic, int(r["seq"].(float64)))
		}
	}
	if len(synthetic) != 2 || synthetic[0] < standInSeqBase {
		t.Errorf("synthetic variables seqs = %v, want two from %d", synthetic, standInSeqBase)
	}
	last := lastRequest(log, "variables")
	if int(last["seq"].(float64)) != seq || !reflect.DeepEqual(last["arguments"], map[string]any{"variablesReference": 10.0, "filter": "indexed", "start": 0.0, "count": 3.0}) {
		t.Errorf("the filtered request reached the adapter as %v", last)
	}
	c.call("disconnect", nil)
	c.event("terminated")
	s.closeClient()
	if r := s.wait(); r.code != 0 || r.err != nil {
		t.Errorf("Run = %d, %v; want 0", r.code, r.err)
	}
	if !strings.Contains(s.stderr.String(), testBinary(t)) {
		t.Errorf("stderr does not say which java runs:\n%s", s.stderr)
	}
}

func TestStandInStartedByItselfRefuses(t *testing.T) {
	opts := standInOptions(t, xbslVector(t.TempDir()))
	opts.Getenv = func(k string) string {
		if k == StandInEnv {
			return "1"
		}
		return ""
	}
	s := startSession(t, opts)
	resp := s.client.response(s.client.request("initialize", map[string]any{"adapterID": "xbsl"}))
	if resp.m["success"] != false || !strings.Contains(resp.str("message"), StandInEnv) {
		t.Fatalf("initialize = %s; want a refusal naming %s", resp.raw, StandInEnv)
	}
	s.client.call("disconnect", nil)
	s.closeClient()
	if r := s.wait(); r.code != 1 {
		t.Errorf("Run = %d, want 1", r.code)
	}
}

// linkTo makes name in dir a link to target (a hard link, else a symbolic
// one); the test is skipped where neither can be made.
func linkTo(t *testing.T, target, dir, name string) string {
	t.Helper()
	link := filepath.Join(dir, name)
	if err := os.Link(target, link); err != nil {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("cannot link %s here: %v", target, err)
		}
	}
	return link
}

// fakeJava makes an executable named java in a new directory.
func fakeJava(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, javaExecutable())
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestJavaIsNeverElemctlItself(t *testing.T) {
	ctx := context.Background()
	self := testBinary(t) // the running executable, as elemctl is in production
	selfDir := t.TempDir()
	selfJava := linkTo(t, self, selfDir, javaExecutable())
	selfHome := t.TempDir()
	if err := os.MkdirAll(filepath.Join(selfHome, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	linkTo(t, self, filepath.Join(selfHome, "bin"), javaExecutable())
	realDir, realJava := fakeJava(t)
	noEnv := func(string) string { return "" }
	home := func(dir string) func(string) string {
		return func(k string) string {
			if k == "JAVA_HOME" {
				return dir
			}
			return ""
		}
	}
	list := func(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }

	t.Setenv("PATH", list(selfDir, realDir))
	for _, opts := range []Options{{Getenv: noEnv}, {Getenv: home(selfHome)}, {Getenv: noEnv, JVMArgs: []string{AdapterMainClass}}} {
		if got, err := findJava(ctx, &opts); err != nil || got != realJava {
			t.Errorf("PATH with elemctl first: findJava = %q, %v; want %q", got, err, realJava)
		}
	}

	t.Setenv("PATH", selfDir)
	for _, opts := range []Options{{Getenv: noEnv}, {Getenv: noEnv, JVMArgs: []string{AdapterMainClass}}} {
		if got, err := findJava(ctx, &opts); err == nil || !strings.Contains(err.Error(), selfJava) {
			t.Errorf("only elemctl on PATH: findJava = %q, %v; want a refusal naming %s", got, err, selfJava)
		}
	}
	if _, err := findJava(ctx, &Options{Getenv: home(selfHome)}); err == nil {
		t.Errorf("JAVA_HOME and PATH both lead to elemctl, yet findJava succeeded")
	}

	// What the user names with --java is taken as given.
	if got, err := findJava(ctx, &Options{Java: self, Getenv: noEnv}); err != nil || got != self {
		t.Errorf("--java elemctl: findJava = %q, %v", got, err)
	}
	if !isSelf(selfJava) || isSelf(realJava) {
		t.Errorf("isSelf(link) = %v, isSelf(other) = %v", isSelf(selfJava), isSelf(realJava))
	}
}

func TestIsVersionQuery(t *testing.T) {
	for args, want := range map[string]bool{
		"-version":       true,
		"--version":      false, // elemctl's own
		"-version apps":  false,
		"-showversion":   false,
		"":               false,
		"apps list":      false,
		"-Dx=1 -version": false,
		"version":        false,
	} {
		if got := IsVersionQuery(strings.Fields(args)); got != want {
			t.Errorf("IsVersionQuery(%q) = %v, want %v", args, got, want)
		}
	}
}
