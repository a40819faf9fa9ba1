package schemaguard

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// repo makes a repository with a project in Acme/Tasks and returns the
// project directory and the commit.
func repo(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	git(t, root, "init", "-q")
	git(t, root, "config", "user.name", "Test")
	git(t, root, "config", "user.email", "test@example.com")
	dir := filepath.Join(root, "Acme", "Tasks")
	write(t, dir, files)
	write(t, root, map[string]string{"Other/Проект.yaml": "Имя: Other\n"})
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "one")
	return dir, git(t, root, "rev-parse", "HEAD")
}

func TestReadCommitAndDir(t *testing.T) {
	files := map[string]string{
		"Проект.yaml":                  "Имя: Tasks\nПоставщик: Acme\n",
		"Основное/Задача.yaml":         catalogRU(threeFields),
		"Основное/Копия.yaml":          catalogRU(threeFields), // same blob, two paths
		"Основное/Задачи.xbsl":         "метод А()\n;\n",
		"Основное/Пробел в имени.yaml": "ВидЭлемента: Структура\n",
		".hidden/x.yaml":               "x: 1\n",
		"node_modules/y.yaml":          "y: 1\n",
		"Большой.YAML":                 "z: 1\n",
	}
	dir, commit := repo(t, files)
	got, err := ReadCommit(context.Background(), dir, commit)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Большой.YAML", "Основное/Задача.yaml", "Основное/Копия.yaml", "Основное/Пробел в имени.yaml", "Проект.yaml"}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, want) {
		t.Fatalf("paths %q", keys)
	}
	for _, p := range want {
		if string(got[p]) != files[p] {
			t.Errorf("%s: %q", p, got[p])
		}
	}

	// The working tree: uncommitted changes count, the same files are chosen.
	write(t, dir, map[string]string{"Основное/Новый.yaml": "ВидЭлемента: Документ\n"})
	os.Remove(filepath.Join(dir, "Основное", "Копия.yaml"))
	cur, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"Большой.YAML", "Основное/Задача.yaml", "Основное/Новый.yaml", "Основное/Пробел в имени.yaml", "Проект.yaml"}
	if keys := slices.Sorted(maps.Keys(cur)); !slices.Equal(keys, want) {
		t.Fatalf("working tree paths %q", keys)
	}
}

func TestReadCommitFailures(t *testing.T) {
	dir, commit := repo(t, map[string]string{"Проект.yaml": "Имя: Tasks\n"})
	ctx := context.Background()
	for _, bad := range []string{"", "--output=/tmp/x", "0123456789abcdef0123456789abcdef01234567", "HEAD:Проект.yaml", "a b"} {
		if _, err := ReadCommit(ctx, dir, bad); err == nil {
			t.Errorf("commit %q was read", bad)
		}
	}
	// Another project's directory has no descriptor of this one at its place.
	if _, err := ReadCommit(ctx, filepath.Join(dir, ".."), commit); !errors.Is(err, ErrNoDescriptor) {
		t.Errorf("a directory without a descriptor in the commit: %v", err)
	}
	// Outside any repository.
	if _, err := ReadCommit(ctx, t.TempDir(), commit); err == nil {
		t.Error("a directory outside a repository was read")
	}
	// Without git on PATH.
	t.Setenv("PATH", t.TempDir())
	if _, err := ReadCommit(ctx, dir, commit); err == nil {
		t.Error("read without git")
	}
}
