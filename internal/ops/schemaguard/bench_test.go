package schemaguard

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/ops/assembly"
)

// bigProject is a project of n catalogs of ten attributes each.
func bigProject(n int, length int) map[string]string {
	files := map[string]string{"Проект.yaml": "Имя: Big\nПоставщик: Acme\n"}
	for i := range n {
		var fields strings.Builder
		for j := range 10 {
			fields.WriteString(field(fmt.Sprintf("%08d-0000-4000-8000-%012d", i, j), fmt.Sprintf("Реквизит%d", j), "Строка", fmt.Sprintf("Длина: %d", length)))
		}
		files[fmt.Sprintf("Подсистема%02d/Справочник%04d.yaml", i/100, i)] = fmt.Sprintf("ВидЭлемента: Справочник\nИд: %08d-0000-4000-8000-000000000000\nИмя: Справочник%04d\nРеквизиты:\n%s", i, i, fields.String())
	}
	return files
}

// BenchmarkCompare3000Files: a project of 3,000 catalogs where every file
// changed (the worst case: each pair is parsed).
func BenchmarkCompare3000Files(b *testing.B) {
	old, cur := bytesOf(bigProject(3000, 100)), bytesOf(bigProject(3000, 150))
	for b.Loop() {
		if r := Compare(old, cur); len(r.Changes) != 0 {
			b.Fatal(len(r.Changes))
		}
	}
}

// BenchmarkReadCommit3000Files: one git ls-tree and one git cat-file for
// 3,000 files.
func BenchmarkReadCommit3000Files(b *testing.B) {
	files := bigProject(3000, 100)
	dir, commit := repoB(b, files)
	for b.Loop() {
		got, err := ReadCommit(context.Background(), dir, commit)
		if err != nil || len(got) != len(files) {
			b.Fatal(err, len(got))
		}
	}
}

func repoB(b *testing.B, files map[string]string) (string, string) {
	root := b.TempDir()
	run := func(dir string, args ...string) string {
		out, err := assembly.Git(context.Background(), dir, nil, args...)
		if err != nil {
			b.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	run(root, "init", "-q")
	run(root, "config", "user.name", "Bench")
	run(root, "config", "user.email", "bench@example.com")
	dir := filepath.Join(root, "Acme", "Big")
	write(b, dir, files)
	run(root, "add", "-A")
	run(root, "commit", "-q", "-m", "big")
	return dir, run(root, "rev-parse", "HEAD")
}
