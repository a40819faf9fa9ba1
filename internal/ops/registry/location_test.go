package registry

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestRegistryFileName(t *testing.T) {
	r := New(envOf(map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}), "windows")
	if runtime.GOOS != "windows" && r.Path() != `C:\Users\u\AppData\Local\elemctl\uploads.jsonl` {
		t.Fatalf("Path = %q", r.Path())
	}
	r = New(envOf(map[string]string{"HOME": "/home/u"}), "linux")
	if runtime.GOOS != "windows" && r.Path() != "/home/u/.local/state/elemctl/uploads.jsonl" {
		t.Fatalf("Path = %q", r.Path())
	}
	dir := t.TempDir()
	r = New(envOf(map[string]string{"ELEMCTL_DATA_DIR": dir, "HOME": "/home/u"}), runtime.GOOS)
	if r.Path() != filepath.Join(dir, FileName) {
		t.Fatalf("with ELEMCTL_DATA_DIR: Path = %q", r.Path())
	}
}

func TestNoHomeAppendWarnsWithTheUsualPlace(t *testing.T) {
	ctx := context.Background()
	r := New(envOf(nil), runtime.GOOS)
	w := r.Append(ctx, Entry{AssemblyID: "a1", Command: CommandDeploy})
	if w == "" {
		t.Fatal("no home: want a warning")
	}
	if !strings.Contains(w, "elemctl") || !strings.Contains(w, FileName) || !strings.HasPrefix(w, "загрузка не записана в локальный реестр") {
		t.Fatalf("warning %q does not name the registry", w)
	}
	if en := i18n.TL(i18n.EN, "registry.write-failed", "path", "p", "error", "e"); !strings.Contains(en, "The build is uploaded") {
		t.Fatalf("en text: %q", en)
	}
}
