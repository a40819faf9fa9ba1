package testio

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// DemoCopy copies the shipped demo project (examples/demo) into a
// temporary repository and returns the project directory; edit, when
// set, changes its files first.
func DemoCopy(t testing.TB, edit func(dir string)) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(here), "..", "..", "examples", "demo")
	repo := t.TempDir()
	CopyTree(t, src, repo)
	dir := filepath.Join(repo, "Acme", "Tasks")
	if edit != nil {
		edit(dir)
	}
	return dir
}

// BreakDemoSource adds a compile error marker to a source file of a demo
// copy: the stand's compiler refuses the build with a located error.
func BreakDemoSource(dir string) {
	f := filepath.Join(dir, "Основное", "Задачи.xbsl")
	data, _ := os.ReadFile(f)
	os.WriteFile(f, append(data, []byte("\n#error Тип \"Х\" не виден\n")...), 0o644)
}

// WriteProject writes a project of one module under a new repository and
// returns its directory.
func WriteProject(t testing.TB, vendor, name, descriptor, module string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), vendor, name)
	if err := os.MkdirAll(filepath.Join(dir, "Основное"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "Проект.yaml"), []byte(descriptor), 0o644)
	os.WriteFile(filepath.Join(dir, "Основное", "Модуль.xbsl"), []byte(module), 0o644)
	return dir
}

// ExtensionDescriptor is the descriptor of an extension project Acme/Extras.
const ExtensionDescriptor = `Ид: e7e7e7e7-0000-4000-8000-0000000000e1
Имя: Extras
Поставщик: Acme
Версия: 1.0
Представление: Дополнения
ВидПроекта: Расширение
ЯзыкРазработки: Русский
`

// CopyTree copies the directory from, with everything below it, to to.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
