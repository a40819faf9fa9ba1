package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkBuildPack2000Files50MB: `elemctl build` of a generated project
// of 2,000 source files, 50 MB in all, end to end, with the size of the
// archive it makes beside the time ("archive-MB", and "archive-%" of the
// project's bytes): the archive is what every deploy uploads.
//
//	pack=first     the project's first pack on the machine: each run has
//	               an empty pack cache (ELEMCTL_CACHE_DIR) of its own
//	               (target ≤ 1 s)
//	pack=changed   a pack after one file changed since the last, whose
//	               pack cache the run finds: a build between two deploys
//	pack=same      the same tree packed again
func BenchmarkBuildPack2000Files50MB(b *testing.B) {
	dir := generateProject(b, 2000, 25*1024)
	modules, err := filepath.Glob(filepath.Join(dir, "*", "*.xbsl"))
	if err != nil || len(modules) != 2000 {
		b.Fatalf("the project's modules: %d %v", len(modules), err)
	}
	for _, c := range []string{"first", "changed", "same"} {
		b.Run("pack="+c, func(b *testing.B) {
			out, caches := b.TempDir(), b.TempDir()
			cacheEnv := func(name string) []string {
				return append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_CACHE_DIR="+filepath.Join(caches, name))
			}
			args := []string{"build", "--project-dir", dir, "--output", out, "--build-version", "1.0-1"}
			runTimed(b, cacheEnv("warm"), args...) // the page cache warm, and the pack cache of the later packs
			runs := 0
			b.ResetTimer()
			reportMedian(b, "ms", 1000, time.Millisecond, func() time.Duration {
				runs++
				switch c {
				case "first":
					return runTimed(b, cacheEnv(fmt.Sprint(runs)), args...)
				case "changed":
					f, err := os.OpenFile(modules[runs%len(modules)], os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					fmt.Fprintf(f, "// правка %d\n", runs)
					f.Close()
				}
				return runTimed(b, cacheEnv("warm"), args...)
			})
			b.StopTimer()
			archives, _ := filepath.Glob(filepath.Join(out, "*.xasm"))
			if len(archives) != 1 {
				b.Fatalf("archives made: %v", archives)
			}
			st, err := os.Stat(archives[0])
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Size())/(1<<20), "archive-MB")
			b.ReportMetric(100*float64(st.Size())/float64(2000*25*1024), "archive-%")
		})
	}
}

// generateProject writes {repo}/Acme/Big with files of about size bytes
// each, spread over subsystems of 100 files: source text with varied
// identifiers, so it compresses like real modules rather than like zeros.
func generateProject(b *testing.B, files, size int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "Acme", "Big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	descriptor := "Ид: 5a5a5a5a-0000-4000-8000-00000000b16b\nИмя: Big\nПоставщик: Acme\nВерсия: 1.0\nПредставление: Большой проект\nЯзыкРазработки: Русский\n"
	if err := os.WriteFile(filepath.Join(dir, "Проект.yaml"), []byte(descriptor), 0o644); err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(1))
	words := []string{"Задача", "Документ", "Справочник", "Сумма", "Количество", "Дата", "Статус", "Клиент", "Заказ", "Строка"}
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("Подсистема%02d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		var sb strings.Builder
		for sb.Len() < size {
			w1, w2 := words[rnd.Intn(len(words))], words[rnd.Intn(len(words))]
			fmt.Fprintf(&sb, "метод %s%d(%s: %s.Ссылка)\n    знч Значение%d = %s.Получить(%d)\n;\n", w1, rnd.Intn(1e6), w2, w1, rnd.Intn(1e4), w2, rnd.Intn(1e9))
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("Модуль%04d.xbsl", i)), []byte(sb.String()[:size]), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// logged is a request of the stand's log.
type logged struct {
	Method, Path string
	// At is the request's arrival, Served the moment the stand read its
	// clock for the answer (At when the log does not tell).
	At, Served time.Time
}

// requestLog reads the stand's request log: the arrival of every request
// and when it was served.
func requestLog(b *testing.B, s *standProcess) []logged {
	b.Helper()
	data, err := os.ReadFile(s.Log)
	if err != nil {
		b.Fatal(err)
	}
	var out []logged
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var entry struct{ Time, Served, Method, Path string }
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			b.Fatalf("the request log: %q: %v", line, err)
		}
		if entry.Method == "" {
			continue // a note of the stand's own
		}
		at, err := time.Parse(time.RFC3339Nano, entry.Time)
		if err != nil {
			b.Fatal(err)
		}
		served := at
		if entry.Served != "" {
			if served, err = time.Parse(time.RFC3339Nano, entry.Served); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, logged{entry.Method, entry.Path, at, served})
	}
	return out
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// copyDemo copies the shipped demo project and returns its directory.
func copyDemo(b *testing.B) string {
	b.Helper()
	repo := b.TempDir()
	src := filepath.Join("..", "examples", "demo")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(repo, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(repo, rel), data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	return filepath.Join(repo, "Acme", "Tasks")
}
