package adapter

import (
	"archive/zip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// car writes a distribution archive with the given entries (name → body);
// a name ending in "/" is a directory entry.
func car(t *testing.T, dir, name string, entries map[string]string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for n, body := range entries {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		if strings.HasSuffix(n, "/") {
			h.SetMode(0o755 | os.ModeDir)
		} else if strings.Contains(n, "/bin/") {
			h.SetMode(0o755)
		} else {
			h.SetMode(0o644)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func distroEntries() map[string]string {
	return map[string]string{
		DebuggerPrefix: "",
		DebuggerPrefix + "bin/g5rt.debugger.adapter":                    "#!/bin/sh\n",
		DebuggerPrefix + "repo/":                                        "",
		DebuggerPrefix + "repo/com.e1c.g5rt.debugger.adapter-9.2.8.jar": "jar",
		DebuggerPrefix + "repo/netty-common-4.1.0.jar":                  "jar",
		"data/ide/theia/plugins/other/readme.txt":                       "not ours",
		"data/server/server.jar":                                        "not ours",
	}
}

func TestExtract(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dist, out := t.TempDir(), filepath.Join(t.TempDir(), "adapter")
	car(t, dist, "notes.car", map[string]string{"x": "y"})
	car(t, dist, "1c-enterprise-element-server-with-ide-9.2.8+11-linux-x86_64.e1c.car", distroEntries())
	res, err := Extract(ctx, dist, out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "9.2.8+11" || res.Files != 3 || res.Path != filepath.Join(out, "9.2.8+11") {
		t.Fatalf("result %+v", res)
	}
	if !HasJars(res.Path) {
		t.Error("the extracted directory holds no adapter jar")
	}
	if _, err := os.Stat(filepath.Join(res.Path, "readme.txt")); err == nil {
		t.Error("a file outside the debugger prefix was extracted")
	}
	if runtime.GOOS != "windows" {
		st, err := os.Stat(filepath.Join(res.Path, "bin", "g5rt.debugger.adapter"))
		if err != nil || st.Mode().Perm()&0o100 == 0 {
			t.Errorf("the launcher lost its executable bit: %v %v", st, err)
		}
	}
	idx := readIndexFile(t, out)
	if idx.Default != "9.2.8+11" || strings.Join(idx.Available, ",") != "9.2.8+11" {
		t.Errorf("index %+v", idx)
	}

	// The same version again is refused and changes nothing.
	if _, err := Extract(ctx, dist, out); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("an existing version: %v", err)
	}

	// A newer version joins the index once and becomes the default; the
	// list stays in version order.
	other := t.TempDir()
	newer := car(t, other, "element-server-with-ide-9.10.0+1.car", distroEntries())
	if _, err := Extract(ctx, newer, out); err != nil {
		t.Fatal(err)
	}
	idx = readIndexFile(t, out)
	if idx.Default != "9.10.0+1" || strings.Join(idx.Available, ",") != "9.2.8+11,9.10.0+1" {
		t.Errorf("index after a second version %+v", idx)
	}
	raw, _ := os.ReadFile(filepath.Join(out, IndexFile))
	if !strings.Contains(string(raw), "\n  \"available\": [") {
		t.Errorf("index.json is not indented by two spaces:\n%s", raw)
	}
}

func readIndexFile(t *testing.T, out string) Index {
	t.Helper()
	var idx Index
	raw, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &idx); err != nil {
		t.Fatal(err)
	}
	return idx
}

func TestExtractRefusals(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	dir := t.TempDir()
	cases := []struct {
		name    string
		entries map[string]string
		file    string
		want    string
	}{
		{"zip slip", map[string]string{DebuggerPrefix + "../../../../evil.sh": "x", DebuggerPrefix + "repo/com.e1c.g5rt.debugger.adapter.jar": "j"}, "s-1.0.0+1.car", "outside the adapter directory"},
		{"absolute", map[string]string{DebuggerPrefix + "/etc/passwd": "x"}, "a-1.0.0+1.car", "outside the adapter directory"},
		{"backslash", map[string]string{DebuggerPrefix + `..\..\evil`: "x"}, "b-1.0.0+1.car", "outside the adapter directory"},
		{"no debugger", map[string]string{"data/other.txt": "x"}, "n-1.0.0+1.car", "holds no debugger"},
		{"no version", distroEntries(), "element-server.car", "holds no version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, err := Extract(ctx, car(t, dir, tc.file, tc.entries), out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			entries, _ := os.ReadDir(out)
			if len(entries) != 0 {
				t.Errorf("a refused extraction left %v", entries)
			}
			if _, err := os.Stat(filepath.Join(dir, "evil.sh")); err == nil {
				t.Error("zip slip wrote outside the output")
			}
		})
	}
	if _, err := Extract(ctx, t.TempDir(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "no .car found") {
		t.Errorf("an empty distribution directory: %v", err)
	}
}

func adapterDir(t *testing.T, root string, jar string) string {
	t.Helper()
	dir := filepath.Join(root, "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, jar), []byte("j"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func writePlugin(t *testing.T, root, name, text string) {
	t.Helper()
	d := filepath.Join(root, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, protocol.ManifestFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHasJars(t *testing.T) {
	if HasJars(t.TempDir()) {
		t.Error("no repo/")
	}
	if HasJars(adapterDir(t, t.TempDir(), "netty-common-4.1.0.jar")) {
		t.Error("a third-party jar is not the adapter")
	}
	if !HasJars(adapterDir(t, t.TempDir(), "com.e1c.g5rt.debugger.adapter-1.0.jar")) {
		t.Error("the adapter jar is not seen")
	}
	if runtime.GOOS != "windows" && HasJars(adapterDir(t, t.TempDir(), "COM.E1C.G5RT.DEBUGGER.ADAPTER-1.0.jar")) {
		t.Error("the glob is case-sensitive on POSIX")
	}
}

func TestLocateOrder(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	plugins, data := t.TempDir(), t.TempDir()
	env := map[string]string{manifest.EnvPath: plugins, "XDG_DATA_HOME": data, "HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	locate := func() string {
		t.Helper()
		dir, err := NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).Locate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if got := locate(); got != "" {
		t.Fatalf("nothing installed, found %s", got)
	}

	// The extracted adapter in the data directory is found by itself.
	if _, err := Extract(ctx, car(t, t.TempDir(), "element-server-with-ide-9.2.8+11.car", distroEntries()), DefaultOutput(getenv, runtime.GOOS)); err != nil {
		t.Fatal(err)
	}
	extracted := filepath.Join(data, "elemctl", "adapter", "9.2.8+11")
	if got := locate(); got != extracted {
		t.Errorf("extracted: %s, want %s", got, extracted)
	}

	// Plugins come before it, in name order; a jar-less one is skipped.
	writePlugin(t, plugins, "a-empty", `{"debug_adapter": "nothing-here"}`)
	ship := adapterDir(t, filepath.Join(plugins, "b-ships", "adapter"), "com.e1c.g5rt.debugger.adapter-2.jar")
	writePlugin(t, plugins, "b-ships", `{"debug_adapter": "adapter"}`)
	if got := locate(); got != ship {
		t.Errorf("plugin: %s, want %s", got, ship)
	}
	all, err := NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).All(ctx)
	if err != nil || len(all) != 3 || all[0].HasJars || !all[1].HasJars || all[2].Source != "extracted" {
		t.Errorf("all candidates %+v %v", all, err)
	}

	// ELEMCTL_DEBUG_ADAPTER comes first; an extract output directory
	// stands for its default version.
	env[EnvDir] = filepath.Join(data, "elemctl", "adapter")
	if got := locate(); got != extracted {
		t.Errorf("env: %s, want %s", got, extracted)
	}

	// With plugins off only the environment and the extracted adapter
	// remain.
	delete(env, EnvDir)
	env[manifest.EnvDisable] = "1"
	if got := locate(); got != extracted {
		t.Errorf("plugins off: %s", got)
	}
}

func TestLocateIndexAndCommand(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	if runtime.GOOS == "windows" {
		t.Skip("the printing program is a shell script")
	}
	plugins := t.TempDir()
	env := map[string]string{manifest.EnvPath: plugins, "HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	out := filepath.Join(plugins, "a-index", "adapter")
	if _, err := Extract(ctx, car(t, t.TempDir(), "x-9.2.8+11.car", distroEntries()), out); err != nil {
		t.Fatal(err)
	}
	writePlugin(t, plugins, "a-index", `{"debug_adapter": {"index": "adapter/index.json"}}`)
	dir, err := NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).Locate(ctx)
	if err != nil || dir != filepath.Join(out, "9.2.8+11") {
		t.Fatalf("index: %s %v", dir, err)
	}

	// A program that prints the directory; a failing one is an error.
	os.RemoveAll(filepath.Join(plugins, "a-index"))
	shipped := adapterDir(t, filepath.Join(plugins, "b-cmd", "jars"), "com.e1c.g5rt.debugger.adapter.jar")
	writePlugin(t, plugins, "b-cmd", `{"debug_adapter": {"command": ["./where.sh", "--print"]}}`)
	script := "#!/bin/sh\n[ \"$1\" = --print ] || exit 9\necho\necho jars\n"
	if err := os.WriteFile(filepath.Join(plugins, "b-cmd", "where.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err = NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).Locate(ctx)
	if err != nil || dir != shipped {
		t.Fatalf("command: %s %v", dir, err)
	}
	os.WriteFile(filepath.Join(plugins, "b-cmd", "where.sh"), []byte("#!/bin/sh\necho broken >&2\nexit 4\n"), 0o755)
	if _, err := NewLocator(ctx, manifest.Options{Getenv: getenv}, nil).Locate(ctx); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("a failing program: %v", err)
	}
}
