package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/plugin/adapter"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
	"github.com/elemctl/elemctl/internal/testio"
)

// The golden answers pin the JSON every catalog command answers, on the
// command line (`--json` stdout or the error on stderr, and the exit code)
// and as an MCP tool (the result of tools/call through `elemctl mcp` over
// stdio), key for key and in key order. Run-dependent values are
// normalised (goldenNormaliser). Regenerate them with
//
//	go test ./cmd/elemctl -run Golden -update
//
// (or make golden; or UPDATE_GOLDEN=1 go test ./... -run Golden, which
// other packages' tests do not mind)
// and review the diff: every changed line is a changed answer.
var updateGolden = flag.Bool("update", false, "rewrite the golden answers of the Golden tests from this run")

func goldenUpdating() bool { return *updateGolden || os.Getenv("UPDATE_GOLDEN") != "" }

const goldenDir = "testdata/golden"

// goldenFile is where the golden answer of a command's case on a face lives:
// testdata/golden/<face>/<name>.<case>.json, named by the command's words
// joined with "-" on the command line and by the tool's name on MCP.
func goldenFile(face, command, kind string) string {
	name := strings.ReplaceAll(command, " ", "-")
	if face == "mcp" {
		name = findCommand(command).Tool
	}
	return filepath.Join(goldenDir, face, name+"."+kind+".json")
}

// goldenFaces are the faces a catalog command answers on: the command
// line when it has a path there, MCP when it is a tool. Face commands
// (servers, self-update, mcp install) are not operations of the catalog's
// faces and are pinned on the command line only where they answer JSON.
func goldenFaces(name string) []string {
	cmd := findCommand(name)
	if cmd == nil {
		return nil
	}
	var faces []string
	if len(cmd.Path) > 0 {
		faces = append(faces, "cli")
	}
	if cmd.Tool != "" && !cmd.Face {
		faces = append(faces, "mcp")
	}
	return faces
}

// TestGoldenCoversCatalog fails when a command of the catalog – a new one
// included – has no golden success and failure on each face it answers
// on, or when a golden file belongs to no case.
func TestGoldenCoversCatalog(t *testing.T) {
	cases := map[string]bool{}
	for _, c := range goldenCases {
		if findCommand(c.command) == nil {
			t.Errorf("golden case %q names no catalog command", c.command)
		}
		for _, face := range goldenFaces(c.command) {
			for _, kind := range c.kinds() {
				if c.call(kind, face) != nil {
					cases[goldenFile(face, c.command, kind)] = true
				}
			}
		}
	}
	for _, cmd := range catalog.Core().Commands() {
		name := cmd.Name()
		if reason, ok := goldenExempt[name]; ok {
			if reason == "" {
				t.Errorf("%s is exempt from golden answers without a reason", name)
			}
			continue
		}
		faces := goldenFaces(name)
		if len(faces) == 0 {
			t.Errorf("%s answers on no face the golden answers know", name)
		}
		for _, face := range faces {
			for _, kind := range []string{"ok", "fail"} {
				path := goldenFile(face, name, kind)
				if !cases[path] {
					t.Errorf("%s has no golden %s case on %s: add one to goldenCases", name, kind, face)
					continue
				}
				if _, err := os.Stat(path); err != nil && !goldenUpdating() {
					t.Errorf("%s: no golden answer %s (go test ./cmd/elemctl -run Golden -update writes it)", name, path)
				}
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*", "*.json"))
	for _, f := range files {
		if !cases[f] {
			t.Errorf("%s belongs to no golden case: remove it", f)
		}
	}
}

// goldenExempt are the catalog commands that have no JSON answer to pin,
// with the reason.
// (The servers that print where they listen – mcp --http, stand – are
// pinned by that answer; the MCP server's tools are pinned one by one.)
var goldenExempt = map[string]string{
	"lsp": "a server: speaks LSP on stdio until stopped, with no answer of its own",
	"dap": "a server: forwards DAP frames between an editor and the debug adapter, with no answer of its own",
}

// TestGoldenComparisonCatchesShapeChanges proves the comparison fails on
// a key added, dropped or moved, and on a changed value.
func TestGoldenComparisonCatchesShapeChanges(t *testing.T) {
	want := goldenText(t, jsonx.New("exit", 0, "stdout", jsonx.New("id", "<id-1>", "name", "a", "ok", true)))
	for name, got := range map[string]*jsonx.Object{
		"a key added":    jsonx.New("exit", 0, "stdout", jsonx.New("id", "<id-1>", "name", "a", "ok", true, "more", nil)),
		"a key dropped":  jsonx.New("exit", 0, "stdout", jsonx.New("id", "<id-1>", "ok", true)),
		"keys reordered": jsonx.New("exit", 0, "stdout", jsonx.New("name", "a", "id", "<id-1>", "ok", true)),
		"a value":        jsonx.New("exit", 0, "stdout", jsonx.New("id", "<id-1>", "name", "a", "ok", false)),
		"the exit code":  jsonx.New("exit", 1, "stdout", jsonx.New("id", "<id-1>", "name", "a", "ok", true)),
	} {
		if d := goldenDiff(want, goldenText(t, got)); d == "" {
			t.Errorf("%s passed the comparison", name)
		}
	}
	if d := goldenDiff(want, want); d != "" {
		t.Errorf("an equal answer differs:\n%s", d)
	}
	n := newGoldenNormaliser(goldenPlaces{home: "/tmp/x", stand: "http://127.0.0.1:1234"})
	got := n.value(jsonx.New("id", "0190a1b2-0000-7000-8000-00000000000a", "ref", "0190a1b2-0000-7000-8000-00000000000a",
		"other", "0190a1b2-0000-7000-8000-00000000000b", "at", "2026-12-03T16:51:06.123+03:00", "file", "/tmp/x/dist/a.xasm",
		"url", "http://127.0.0.1:1234/applications/x"))
	text := goldenText(t, got)
	for _, w := range []string{`"id": "<id-1>"`, `"ref": "<id-1>"`, `"other": "<id-2>"`, `"at": "<time>"`, `"file": "<home>/dist/a.xasm"`, `"url": "<stand>/applications/x"`} {
		if !strings.Contains(text, w) {
			t.Errorf("normalised answer lacks %s:\n%s", w, text)
		}
	}
}

// TestGolden runs every golden case against the emulated stand with the
// real binary and compares the normalised answers with the golden files.
func TestGolden(t *testing.T) {
	t.Parallel()
	bin := buildBin(t, "cmd/elemctl")
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// One stand for the cases that only read; a case that changes what
	// another reads gets a stand of its own.
	shared := newGoldenStand(t, bin, repo, t.TempDir())
	sharedMCP := startGoldenMCP(t, shared, shared.home, nil)
	for _, c := range goldenCases {
		for _, face := range goldenFaces(c.command) {
			for _, kind := range c.kinds() {
				prep, call, own := c.run(kind)
				if c.call(kind, face) == nil {
					continue
				}
				t.Run(strings.TrimSuffix(strings.TrimPrefix(goldenFile(face, c.command, kind), goldenDir+"/"), ".json"), func(t *testing.T) {
					t.Parallel()
					bed := shared
					if own {
						bed = newGoldenStand(t, bin, repo, t.TempDir())
					}
					caseHome := t.TempDir()
					env := c.env
					if kind == "fail" && c.failEnv != nil {
						env = c.failEnv
					}
					run := bed.prepare(t, caseHome, kind, env, c.setup, prep)
					var got *jsonx.Object
					switch face {
					case "cli":
						if c.server && kind == "ok" {
							got = run.runServer(t, call.cli)
						} else {
							got = run.runCLI(t, call.cli)
						}
					case "mcp":
						m := sharedMCP
						if own {
							m = startGoldenMCP(t, bed, caseHome, run.env)
						}
						got = m.call(t, c.tool(), run.vars, call.mcp)
					}
					places := goldenPlaces{home: caseHome, mcpHome: bed.home, repo: repo, stand: bed.stand.URL(), marks: run.marks}
					checkGolden(t, goldenFile(face, c.command, kind), newGoldenNormaliser(places).value(got))
				})
			}
		}
	}
}

// checkGolden compares an answer with its golden file, or writes the file
// in update mode.
func checkGolden(t *testing.T, path string, answer any) {
	t.Helper()
	got := goldenText(t, answer)
	if goldenUpdating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no golden answer: %v\n(go test ./cmd/elemctl -run Golden -update writes it)\nthe answer:\n%s", err, got)
	}
	if d := goldenDiff(string(want), got); d != "" {
		t.Errorf("the answer differs from %s (- golden, + now; go test ./cmd/elemctl -run Golden -update accepts it):\n%s", path, d)
	}
}

func goldenText(t *testing.T, v any) string {
	t.Helper()
	out, err := jsonx.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// goldenDiff is a line diff of two texts with three lines of context
// around each change; "" when they are equal.
func goldenDiff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			lines = append(lines, line{'+', b[j]})
			j++
		default:
			lines = append(lines, line{'-', a[i]})
			i++
		}
	}
	const context = 3
	var out strings.Builder
	last := -1
	for k, l := range lines {
		near := false
		for d := max(0, k-context); d <= min(len(lines)-1, k+context); d++ {
			if lines[d].mark != ' ' {
				near = true
				break
			}
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("   ...\n")
		}
		fmt.Fprintf(&out, "%4d %c %s\n", k+1, l.mark, l.text)
		last = k
	}
	return out.String()
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, text := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, text)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goldenPlaces are the run-dependent strings of a case: its home (and
// the MCP server's), the repository and the stand's address.
type goldenPlaces struct {
	home, mcpHome, repo, stand string
	marks                      map[string]string
}

// goldenNormaliser replaces what differs from run to run by placeholders:
// ids by <id-N> numbered in the order of their first appearance (so equal
// ids stay equal), times by <time>, the case's directories by <home> (the
// MCP server's by <mcp-home>), the repository by <repo>, the stand's
// address by <stand>, the binary's version by <version>, random hex
// names and secrets by <hex>, and the values of a few keys that are
// random or measured (tokens, sizes, durations) by a mark of their kind.
type goldenNormaliser struct {
	ids      map[string]string
	replacer *strings.Replacer
}

var (
	goldenUUID = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	goldenTime = regexp.MustCompile(`\b\d{4}[-.]\d{2}[-.]\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?`)
	// goldenRandomHex: the stand's random client ids ("demo-1a2b3c4d")
	// and build hashes.
	goldenRandomHex = regexp.MustCompile(`\b([a-z]+-)[0-9a-f]{8}\b|\b[0-9a-f]{16,}\b`)
	goldenTempName  = regexp.MustCompile(`\.\d+\.tmp\b`)
	// goldenTempDir: the temporary directories elemctl makes for itself
	// ("elemctl-build-123456").
	goldenTempDir = regexp.MustCompile(`\b(elemctl-[a-z-]+?-)\d+([/\\])`)
	// goldenSeconds: the waits a log line measures ("(0.1 s)").
	goldenSeconds = regexp.MustCompile(`\(\d+(\.\d+)? s\)`)
	// goldenPort: the port a server was given by the system (":0"),
	// on a loopback address.
	goldenPort = regexp.MustCompile(`\b(127\.0\.0\.1|localhost|\[::1\]):\d{4,5}\b`)
)

// goldenMeasured are keys whose values are measured or random; their
// value becomes <measured>, keeping its type visible.
var goldenMeasured = map[string]bool{
	"token": true, "size": true, "bytes": true, "elapsed": true, "elapsed-seconds": true, "duration-ms": true,
	"pid": true, "sha256": true, "version-stamp": true,
}

func newGoldenNormaliser(p goldenPlaces) *goldenNormaliser {
	var pairs []string
	add := func(dir, mark string) {
		if dir == "" {
			return
		}
		pairs = append(pairs, dir, mark)
		if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
			pairs = append(pairs, real, mark)
		}
	}
	// Longer paths first: a home under the repository's temp dir wins.
	add(p.home, "<home>")
	add(p.mcpHome, "<mcp-home>")
	add(p.repo, "<repo>")
	if p.stand != "" {
		pairs = append(pairs, p.stand, "<stand>", strings.TrimPrefix(p.stand, "http://"), "<stand-host>")
	}
	for s, mark := range p.marks {
		pairs = append(pairs, s, mark)
	}
	pairs = append(pairs, releaseVersion, "<version>")
	// strings.Replacer tries the pairs in order at each position.
	type pair struct{ old, new string }
	var ps []pair
	for i := 0; i < len(pairs); i += 2 {
		ps = append(ps, pair{pairs[i], pairs[i+1]})
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].old) > len(ps[j].old) })
	pairs = pairs[:0]
	for _, x := range ps {
		pairs = append(pairs, x.old, x.new)
	}
	return &goldenNormaliser{ids: map[string]string{}, replacer: strings.NewReplacer(pairs...)}
}

func (n *goldenNormaliser) value(v any) any {
	switch x := v.(type) {
	case *jsonx.Object:
		out := jsonx.New()
		for _, k := range x.Keys() {
			val := x.Value(k)
			if lines, ok := val.([]any); ok && k == "log" && len(lines) > 0 {
				// A tool's log of progress: how many polls a wait took
				// varies; that there is one does not.
				out.Set(k, []any{"<progress lines>"})
				continue
			}
			if goldenMeasured[k] && val != nil {
				switch val.(type) {
				case string:
					val = "<measured>"
				case *jsonx.Object, []any:
					val = n.value(val)
				default:
					val = "<measured number>"
				}
				out.Set(k, val)
				continue
			}
			out.Set(k, n.value(val))
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.value(e)
		}
		return out
	case string:
		return n.text(x)
	}
	return v
}

func (n *goldenNormaliser) text(s string) string {
	s = n.replacer.Replace(s)
	s = goldenUUID.ReplaceAllStringFunc(s, func(id string) string {
		id = strings.ToLower(id)
		if mark, ok := n.ids[id]; ok {
			return mark
		}
		mark := "<id-" + strconv.Itoa(len(n.ids)+1) + ">"
		n.ids[id] = mark
		return mark
	})
	s = goldenTime.ReplaceAllString(s, "<time>")
	// A temporary folder's number first: one of eight digits would pass
	// for a random hex name (elemctl-probe-12345678 of a probe's name).
	s = goldenTempDir.ReplaceAllString(s, "${1}<n>${2}")
	s = goldenRandomHex.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.LastIndexByte(m, '-'); i >= 0 {
			return m[:i+1] + "<hex>"
		}
		return "<hex>"
	})
	s = goldenSeconds.ReplaceAllString(s, "(<n> s)")
	s = goldenPort.ReplaceAllString(s, "${1}:<port>")
	return goldenTempName.ReplaceAllString(s, ".<n>.tmp")
}

// goldenStand is an emulated stand with the demo seeded, and what the
// cases read of it.
type goldenStand struct {
	bin, repo, home string
	stand           *stand.Stand
	demo            stand.DemoInfo
}

func newGoldenStand(t *testing.T, bin, repo, home string) *goldenStand {
	t.Helper()
	s := standtest.Start(t, stand.Options{ClientSecret: knownSecret})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	g := &goldenStand{bin: bin, repo: repo, home: home, stand: s, demo: demo}
	g.writeEnv(t, home)
	return g
}

// writeEnv writes the stand's connection into dir/.env.
func (g *goldenStand) writeEnv(t *testing.T, dir string) {
	t.Helper()
	text := fmt.Sprintf("ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=%s\n", g.stand.URL(), g.stand.ClientID(), knownSecret)
	writeFiles(t, dir, map[string][]byte{".env": []byte(text)})
}

// environ is the environment of the binary with home as its home:
// English messages, fast polls, no plugins. The connection is in the
// .env of home (its current directory), so --env-file and env_file can
// replace it.
func (g *goldenStand) environ(home string, change map[string]string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"), "SYSTEMROOT=" + os.Getenv("SYSTEMROOT"),
		"HOME=" + home, "USERPROFILE=" + home, "TMPDIR=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "XDG_DATA_HOME=" + filepath.Join(home, ".data"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "LOCALAPPDATA=" + filepath.Join(home, ".local"),
		"ELEMCTL_DATA_DIR=" + filepath.Join(home, ".elemctl"),
		"ELEMCTL_NO_PROXY=1", "ELEMCTL_LANG=en", "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_POLL_SCALE=0.01",
		"GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig"), "GIT_CONFIG_NOSYSTEM=1",
	}
	for name, value := range change {
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	return env
}

// goldenRun is one case's run: its home, its values and its environment.
type goldenRun struct {
	g    *goldenStand
	home string
	vars map[string]string
	env  map[string]string
	// bin is the binary the case runs; marks are further run-dependent
	// strings and their placeholders.
	bin   string
	marks map[string]string
}

// ownCopy makes the case run a copy of the binary in its home, so no
// other process runs the binary it names (self-update looks for them).
func (r *goldenRun) ownCopy(t *testing.T) {
	t.Helper()
	r.bin = filepath.Join(r.home, "bin", filepath.Base(r.g.bin))
	testio.InstallExecutable(t, r.g.bin, r.bin)
}

// prepare makes the case's home – the demo project copied into it (and
// a copy with a compile error), a project the stand does not know, an .env with a wrong secret, an
// extension's archive, a distribution holding a debug adapter, a broken
// plugin – and runs the case's preparing commands for the values its
// command lines name.
func (g *goldenStand) prepare(t *testing.T, home, kind string, env map[string]string, setup func(*testing.T, *goldenRun, string), steps []goldenStep) *goldenRun {
	t.Helper()
	demo := filepath.Join(home, "demo")
	testio.CopyTree(t, filepath.Join(g.repo, "examples", "demo"), demo)
	broken := filepath.Join(home, "broken")
	testio.CopyTree(t, filepath.Join(g.repo, "examples", "demo"), broken)
	g.writeEnv(t, home)
	wrongEnv := fmt.Sprintf("ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=not-the-secret\nELEMCTL_NO_PROXY=1\n", g.stand.URL(), g.stand.ClientID())
	ext := stand.MakeArchive(stand.ArchiveSpec{Vendor: "acme", Name: "CrmExtras", Version: "1.0-3", Kind: "Extension",
		ID: "0a1b2c3d-0000-4000-8000-0000000000e1", Presentation: "CRM extras"})
	writeFiles(t, home, map[string][]byte{
		"wrong.env": []byte(wrongEnv),
		"broken/Acme/Tasks/Основное/Сломано.xbsl": []byte("метод Сломано()\n;\n#error Тип \"Х\" не виден\n"),
		"ext.xasm":              ext,
		"element-8.0.30+12.car": zipOf(t, map[string]string{adapter.DebuggerPrefix + "repo/com.e1c.g5rt.debugger.adapter-8.0.30.jar": "jar"}),
		"adapter-dir/repo/com.e1c.g5rt.debugger.adapter-8.0.30.jar": []byte("jar"),
		"fresh/Globex/Fresh/Проект.yaml": []byte("Ид: 3d9f7a10-8e21-4c4b-9a55-1b2c3d4e5f61\nИмя: Fresh\nПоставщик: Globex\nВерсия: 2.0\n" +
			"Представление: Fresh probe\nВидПроекта: Приложение\nЯзыкРазработки: Русский\n"),
		"fresh/Globex/Fresh/Основное/Модуль.xbsl":   []byte("метод Привет()\n;\n"),
		"broken-plugins/broken/elemctl-plugin.json": []byte("{not a manifest"),
	})
	r := &goldenRun{g: g, home: home, vars: map[string]string{
		"app": g.demo.AppID, "app-name": g.demo.AppName, "project": g.demo.ProjectID, "space": g.demo.SpaceID,
		"home": home, "project-dir": filepath.Join(demo, "Acme", "Tasks"), "fresh-dir": filepath.Join(home, "fresh", "Globex", "Fresh"), "broken-dir": filepath.Join(broken, "Acme", "Tasks"),
		"panel": "Список пользователей панели управления", "wrong-env": filepath.Join(home, "wrong.env"),
		"stand-host": strings.TrimPrefix(g.stand.URL(), "http://"),
	}, env: map[string]string{}, bin: g.bin, marks: map[string]string{}}
	for name, value := range env {
		r.env[name] = expandVars(value, r.vars)
	}
	if setup != nil {
		setup(t, r, kind)
	}
	for _, step := range steps {
		args := expandWords(step.cli, r.vars)
		stdout, stderr, code := r.exec(t, args...)
		if code != 0 {
			t.Fatalf("preparing: elemctl %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
		if step.into == "" {
			continue
		}
		answer, err := jsonx.Decode(stdout)
		if err != nil {
			t.Fatalf("preparing: elemctl %s: %v\n%s", strings.Join(args, " "), err, stdout)
		}
		r.vars[step.into] = fmt.Sprint(jsonPath(t, answer, step.path))
	}
	return r
}

func (r *goldenRun) exec(t *testing.T, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, args...)
	cmd.Env = r.g.environ(r.home, r.env)
	cmd.Dir = r.home
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.Bytes(), errOut.Bytes(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("elemctl %s: %v", strings.Join(args, " "), err)
	}
	return out.Bytes(), errOut.Bytes(), 0
}

// runCLI runs `elemctl --json ARGS` and returns {"exit", "stdout"} on
// success and {"exit", "stderr"} (the error object; stdout must be
// empty) when the command failed without an answer.
func (r *goldenRun) runCLI(t *testing.T, words string) *jsonx.Object {
	t.Helper()
	args := append([]string{"--json"}, expandWords(words, r.vars)...)
	stdout, stderr, code := r.exec(t, args...)
	got := jsonx.New("exit", code)
	if len(bytes.TrimSpace(stdout)) > 0 {
		answer, err := jsonx.Decode(stdout)
		if err != nil {
			t.Fatalf("stdout of elemctl %s is not one JSON document: %v\n%s", strings.Join(args, " "), err, stdout)
		}
		return got.Set("stdout", answer)
	}
	if code == 0 {
		t.Fatalf("elemctl %s succeeded without an answer\n%s", strings.Join(args, " "), stderr)
	}
	// The error object is the last thing on stderr, from its first line
	// "{" on.
	text := string(stderr)
	at := strings.LastIndex(text, "\n{\n")
	if at >= 0 {
		text = text[at+1:]
	}
	if !strings.HasPrefix(text, "{") {
		t.Fatalf("elemctl %s: exit %d with no error object on stderr:\n%s", strings.Join(args, " "), code, stderr)
	}
	errObj, err := jsonx.Decode([]byte(text))
	if err != nil {
		t.Fatalf("elemctl %s: the error on stderr is not JSON: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return got.Set("stderr", errObj)
}

// runServer starts `elemctl --json ARGS`, a server, takes the JSON it
// prints on stdout once it listens, interrupts it as Ctrl-C does and
// returns {"exit", "stdout"}.
func (r *goldenRun) runServer(t *testing.T, words string) *jsonx.Object {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a server is stopped by an interrupt, which Windows does not send to another process")
	}
	args := append([]string{"--json"}, expandWords(words, r.vars)...)
	cmd := exec.Command(r.bin, args...)
	cmd.Env = r.g.environ(r.home, r.env)
	cmd.Dir = r.home
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	stop := func() {
		_ = cmd.Process.Kill()
		<-waited
	}
	type first struct {
		raw json.RawMessage
		err error
	}
	read := make(chan first, 1)
	go func() {
		var raw json.RawMessage
		err := json.NewDecoder(stdout).Decode(&raw)
		read <- first{raw, err}
		// What follows the answer (nothing, for a server) is drained so
		// the server never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, stdout)
		waited <- cmd.Wait()
	}()
	var answer any
	select {
	case f := <-read:
		if f.err != nil {
			stop()
			t.Fatalf("elemctl %s printed no JSON answer: %v\n%s", strings.Join(args, " "), f.err, stderr.String())
		}
		if answer, err = jsonx.Decode(f.raw); err != nil {
			stop()
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		stop()
		t.Fatalf("elemctl %s printed no answer in time\n%s", strings.Join(args, " "), stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		stop()
		t.Fatal(err)
	}
	var code int
	select {
	case err := <-waited:
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		stop()
		t.Fatalf("elemctl %s did not stop when interrupted\n%s", strings.Join(args, " "), stderr.String())
	}
	return jsonx.New("exit", code, "stdout", answer)
}

// goldenMCP is `elemctl mcp` over stdio, spoken to line by line so the
// answers keep their key order.
type goldenMCP struct {
	stdin   io.WriteCloser
	mu      sync.Mutex
	nextID  int
	waiting map[int]chan []byte
	stderr  *syncBuffer
}

func startGoldenMCP(t *testing.T, g *goldenStand, home string, env map[string]string) *goldenMCP {
	t.Helper()
	cmd := exec.Command(g.bin, "mcp")
	cmd.Env = g.environ(home, env)
	cmd.Dir = home
	m := &goldenMCP{waiting: map[int]chan []byte{}, stderr: &syncBuffer{}}
	cmd.Stderr = m.stderr
	var err error
	if m.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go m.read(stdout)
	t.Cleanup(func() {
		m.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	m.request(t, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"golden","version":"1"}}`)
	m.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

// read hands each response to the call waiting for its id; notifications
// (progress, log) are not part of an answer.
func (m *goldenMCP) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := append([]byte(nil), sc.Bytes()...)
		msg, err := jsonx.Decode(line)
		o, ok := msg.(*jsonx.Object)
		if err != nil || !ok || !o.Has("id") {
			continue
		}
		id, _ := o.Int("id")
		m.mu.Lock()
		ch := m.waiting[int(id)]
		delete(m.waiting, int(id))
		m.mu.Unlock()
		if ch != nil {
			ch <- line
		}
	}
	m.mu.Lock()
	for id, ch := range m.waiting {
		close(ch)
		delete(m.waiting, id)
	}
	m.mu.Unlock()
}

func (m *goldenMCP) send(t *testing.T, line string) {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := io.WriteString(m.stdin, line+"\n"); err != nil {
		t.Fatalf("writing to elemctl mcp: %v", err)
	}
}

// request sends one request and returns its response's result.
func (m *goldenMCP) request(t *testing.T, method, params string) *jsonx.Object {
	t.Helper()
	m.mu.Lock()
	m.nextID++
	id := m.nextID
	ch := make(chan []byte, 1)
	m.waiting[id] = ch
	m.mu.Unlock()
	m.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	var line []byte
	select {
	case l, ok := <-ch:
		if !ok {
			t.Fatalf("elemctl mcp ended before answering %s\n%s", method, m.stderr.String())
		}
		line = l
	case <-time.After(2 * time.Minute):
		t.Fatalf("elemctl mcp did not answer %s\n%s", method, m.stderr.String())
	}
	msg, err := jsonx.Decode(line)
	if err != nil {
		t.Fatal(err)
	}
	o := msg.(*jsonx.Object)
	result, ok := o.Value("result").(*jsonx.Object)
	if !ok {
		t.Fatalf("%s: no result: %s", method, line)
	}
	return result
}

// call runs a tool and returns its result with each text block's JSON
// parsed (a text that is no JSON stays text).
func (m *goldenMCP) call(t *testing.T, tool string, vars map[string]string, args string) *jsonx.Object {
	t.Helper()
	expanded := expandJSON(t, args, vars)
	result := m.request(t, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, expanded))
	out := jsonx.New()
	for _, k := range result.Keys() {
		v := result.Value(k)
		if k == "content" {
			v = parsedContent(v)
		}
		out.Set(k, v)
	}
	return out
}

func parsedContent(v any) any {
	blocks, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(blocks))
	for i, b := range blocks {
		o, ok := b.(*jsonx.Object)
		if !ok || o.Str("type") != "text" {
			out[i] = b
			continue
		}
		c := o.Clone()
		if parsed, err := jsonx.Decode([]byte(o.Str("text"))); err == nil {
			c.Set("text", parsed)
		}
		out[i] = c
	}
	return out
}

// expandWords splits a command line at spaces and puts in the values
// {name} names.
func expandWords(line string, vars map[string]string) []string {
	var out []string
	for _, w := range strings.Fields(line) {
		out = append(out, expandVars(w, vars))
	}
	return out
}

var goldenVar = regexp.MustCompile(`\{([a-z0-9-]+)\}`)

func expandVars(s string, vars map[string]string) string {
	return goldenVar.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := vars[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// expandJSON puts the values into a JSON template, each quoted as JSON
// text needs.
func expandJSON(t *testing.T, tmpl string, vars map[string]string) string {
	t.Helper()
	out := goldenVar.ReplaceAllStringFunc(tmpl, func(m string) string {
		v, ok := vars[m[1:len(m)-1]]
		if !ok {
			return m
		}
		q := strconv.Quote(v)
		return q[1 : len(q)-1]
	})
	if _, err := jsonx.Decode([]byte(out)); err != nil {
		t.Fatalf("tool arguments %s: %v", out, err)
	}
	return out
}

func jsonPath(t *testing.T, v any, path string) any {
	t.Helper()
	for _, step := range strings.Split(path, ".") {
		switch x := v.(type) {
		case *jsonx.Object:
			if !x.Has(step) {
				t.Fatalf("no key %q in %v", step, x)
			}
			v = x.Value(step)
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(x) {
				t.Fatalf("no index %q", step)
			}
			v = x[i]
		default:
			t.Fatalf("cannot step %q into %v", step, v)
		}
	}
	return v
}

// A temporary folder's number is <n> and a random hex name is <hex>,
// whatever digits each happens to draw: a folder number of eight digits
// looks like a hex name, and a hex name may draw digits only.
func TestGoldenNormaliserTellsTempFoldersFromHexNames(t *testing.T) {
	n := newGoldenNormaliser(goldenPlaces{home: "/h"})
	for in, want := range map[string]string{
		"/h/elemctl-probe-12345678/Tasks 1.0-probe-0a1b2c3d.xasm":   "<home>/elemctl-probe-<n>/Tasks 1.0-probe-<hex>.xasm",
		"/h/elemctl-probe-3040315795/Tasks 1.0-probe-12345678.xasm": "<home>/elemctl-probe-<n>/Tasks 1.0-probe-<hex>.xasm",
		"elemctl-probe-12345678":                                    "elemctl-probe-<hex>",
		"elemctl-probe-9f3e0c1a":                                    "elemctl-probe-<hex>",
	} {
		if got := n.text(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
