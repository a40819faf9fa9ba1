package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/catalog"
	"github.com/elemctl/elemctl/internal/messages"
	"github.com/elemctl/elemctl/internal/testio"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/plugin/protocol"
)

var built struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

func TestMain(m *testing.M) {
	i18n.Register(messages.Operations()...)
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// goBuild builds a package of this module once per test run.
func goBuild(t testing.TB, pkg string) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if p, ok := built.paths[pkg]; ok {
		return p
	}
	if built.dir == "" {
		d, err := os.MkdirTemp("", "elemctl-plugin-test-")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.paths = d, map[string]string{}
	}
	name := filepath.Base(pkg)
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	out := filepath.Join(built.dir, strings.ReplaceAll(pkg, "/", "_"), name)
	cmd := exec.Command("go", "build", "-o", out, "github.com/elemctl/elemctl/"+pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	built.paths[pkg] = out
	return out
}

// installBuilt writes a plugin directory under root for a program built
// with the SDK: its own manifest, with the executable named absolutely and
// changed by edit.
func installBuilt(t testing.TB, root, dirName, exe string, edit func(m *protocol.Manifest)) string {
	t.Helper()
	out, err := exec.Command(exe, "manifest").Output()
	if err != nil {
		t.Fatalf("%s manifest: %v", exe, err)
	}
	var m protocol.Manifest
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	m.Executable = exe
	if edit != nil {
		edit(&m)
	}
	return writeManifest(t, root, dirName, m)
}

func writeManifest(t testing.TB, root, dirName string, m any) string {
	t.Helper()
	dir := filepath.Join(root, dirName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, protocol.ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// commandTimeout sets one command's time limit in a manifest.
func commandTimeout(m *protocol.Manifest, name string, seconds float64) {
	for i := range m.Commands {
		if m.Commands[i].Name == name {
			m.Commands[i].Timeout = seconds
		}
	}
}

// world is a catalog with plugins installed from root, and the context a
// face would give a command, pointed at a stand.
type world struct {
	t      *testing.T
	cat    *command.Catalog
	loaded *plugin.Loaded
	env    map[string]string
	stderr *syncBuffer
	stand  *stand.Stand

	mu   sync.Mutex
	logs []string
}

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

func newWorld(t *testing.T, root string, s *stand.Stand) *world {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	home := t.TempDir()
	w := &world{t: t, stderr: &syncBuffer{}, stand: s, env: map[string]string{
		"ELEMCTL_PLUGIN_PATH": root, "HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"),
		"ELEMCTL_DATA_DIR": filepath.Join(home, "elemctl"), "ELEMCTL_NO_PROXY": "1",
	}}
	if s != nil {
		w.env["ELEMENT_BASE_URL"] = s.URL()
		w.env["ELEMENT_CLIENT_ID"] = s.ClientID()
		w.env["ELEMENT_CLIENT_SECRET"] = s.ClientSecret()
	}
	w.cat = catalog.Core()
	w.loaded = plugin.Install(ctx, w.cat, plugin.Options{Getenv: w.getenv, Version: "0.0.0-test", Stderr: w.stderr})
	return w
}

func (w *world) getenv(k string) string { return w.env[k] }

func (w *world) context(surface command.Surface) *command.Context {
	dir := w.t.TempDir()
	var once sync.Once
	var cl *platform.Client
	var clErr error
	cfgFunc := func(ctx context.Context) (*platform.Config, error) {
		return platform.LoadConfig(ctx, platform.LoadOptions{Dir: dir, Getenv: w.getenv})
	}
	return &command.Context{
		Surface: surface, Getenv: w.getenv, Dir: dir, Version: "0.0.0-test",
		LogFunc: func(line string) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.logs = append(w.logs, line)
		},
		ConfigFunc: cfgFunc,
		ClientFunc: func(ctx context.Context) (*platform.Client, error) {
			once.Do(func() {
				cfg, err := cfgFunc(ctx)
				if err != nil {
					clErr = err
					return
				}
				cl, clErr = platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-"})
			})
			return cl, clErr
		},
	}
}

// run runs a catalog command by CLI name.
func (w *world) run(surface command.Surface, name string, values map[string]any) (any, error) {
	w.t.Helper()
	c := w.cat.Path(name)
	if c == nil {
		w.t.Fatalf("no command %q in the catalog; failures: %+v", name, w.loaded.Failures)
	}
	in := command.NewValues()
	for k, v := range values {
		in.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(i18n.WithLang(context.Background(), i18n.EN), 30*time.Second)
	defer cancel()
	return c.Run(ctx, w.context(surface), in)
}

func (w *world) takeLogs() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.logs
	w.logs = nil
	return out
}

// compact renders an answer on one line.
func compact(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// pidFile points the test plugin at a file for its pid.
func pidFile(t *testing.T) string {
	f := filepath.Join(t.TempDir(), "pid")
	t.Setenv("TESTPLUGIN_PIDFILE", f)
	return f
}

// assertGone checks the plugin process of pidfile no longer exists – not
// even as a zombie – when the call has returned.
func assertGone(t *testing.T, pidfile string) {
	t.Helper()
	raw, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the plugin wrote no pid: %v", err)
	}
	pid, _ := strconv.Atoi(string(raw))
	if pid <= 0 {
		t.Fatalf("pid %q", raw)
	}
	if runtime.GOOS != "linux" {
		return
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil {
		t.Errorf("the plugin process %d is still there: %s", pid, stat)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
