package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteReplacesWithTheModeAndLeavesNothingBeside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "new" || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("%q %v", got, st.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left beside it: %v", entries)
	}
	// A directory where the file should go: refused, nothing left behind.
	if err := Write(dir, []byte("x"), 0o600); err == nil {
		t.Fatal("a directory was replaced")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Fatalf("left beside it: %v", entries)
	}
}

func TestPendingTakesItsPlaceOnlyOnCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.xasm")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	discarded, err := Create(dir, ".x-*.part")
	if err != nil {
		t.Fatal(err)
	}
	discarded.WriteString("half")
	discarded.Discard()
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("a discarded file replaced the target: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left beside it: %v", entries)
	}
	p, err := Create(dir, ".x-*.part")
	if err != nil {
		t.Fatal(err)
	}
	p.WriteString("new")
	if err := p.Commit(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Fatalf("after Commit: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left beside it: %v", entries)
	}
}

func TestCommitUnsyncedReplacesAsCommitDoes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pack.cache")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Create(dir, ".pack.cache.*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	p.WriteString("new")
	if err := p.CommitUnsynced(path, 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "new" || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("%q %v", got, st.Mode())
	}
	// A directory where the file should go: refused, the pending file gone.
	sub := filepath.Join(dir, "taken")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	q, err := Create(dir, ".pack.cache.*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	q.WriteString("x")
	if err := q.CommitUnsynced(sub, 0o600); err == nil {
		t.Fatal("a directory was replaced")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left beside it: %v", entries)
	}
}
