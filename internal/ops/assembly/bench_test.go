package assembly

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// largeProject generates a project of files × about totalBytes/files
// bytes: source-like text made of a vocabulary of XBSL words and random
// identifiers (deflate has real work: it shrinks to about a third), plus a
// few incompressible images under Ресурсы.
func largeProject(b *testing.B, files, totalBytes int) (dir string, total int64) {
	repo := b.TempDir()
	dir = filepath.Join(repo, "Acme", "Large")
	writeTree(b, dir, map[string]string{DescriptorRU: "Имя: Large\nПоставщик: Acme\nВерсия: 1.0\n"})
	rnd := rand.New(rand.NewPCG(42, 42))
	words := []string{"метод ", "знч ", "пер ", "если ", "иначе ", "для ", "из ", "возврат ", "Истина ", "Ложь ",
		"Строка ", "Число ", "новый ", "исключение ", "; ", "(", ") ", ".", ", ", " = ", "\n", "\n    ", "\n        "}
	buf := make([]byte, 0, 2*totalBytes/files)
	for i := range files {
		size := totalBytes/files/2 + rnd.IntN(totalBytes/files)
		buf = buf[:0]
		name := filepath.Join(fmt.Sprintf("Подсистема%02d", i%40), fmt.Sprintf("Пакет%d", i%7), fmt.Sprintf("Модуль%04d.xbsl", i))
		if i%50 == 0 {
			name = filepath.Join("Ресурсы", fmt.Sprintf("image%04d.png", i))
			buf = buf[:size]
			rand.NewChaCha8([32]byte{byte(i), byte(i >> 8)}).Read(buf)
		}
		for len(buf) < size {
			if rnd.IntN(4) == 0 {
				buf = fmt.Appendf(buf, "Имя%x ", rnd.Uint32()&0xfffff)
			} else {
				buf = append(buf, words[rnd.IntN(len(words))]...)
			}
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			b.Fatal(err)
		}
		total += int64(len(buf))
	}
	return dir, total
}

// BenchmarkPackLargeProject packs 2,000 files of 50 MB in total; the target
// is at most one second per pack on two cores. The archive's size is
// reported beside the time, in MB and in per cent of the project's bytes.
func BenchmarkPackLargeProject(b *testing.B) {
	dir, total := largeProject(b, 2000, 50<<20)
	out := b.TempDir()
	b.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(filepath.Dir(dir)))
	opts := BuildOptions{ProjectDir: dir, OutputDir: out, Getenv: noEnv, Now: func() time.Time { return time.Unix(0, 0) }}
	var r *BuildResult
	b.SetBytes(total)
	b.ReportAllocs()
	start := time.Now()
	packs := 0
	for b.Loop() {
		var err error
		if r, err = Build(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		packs++
	}
	perPack := time.Since(start) / time.Duration(packs)
	b.ReportMetric(perPack.Seconds(), "s/pack")
	b.ReportMetric(1, "target-s/pack")
	b.ReportMetric(float64(r.Size)/(1<<20), "archive-MB")
	b.ReportMetric(100*float64(r.Size)/float64(total), "archive-%")
	b.Logf("packed %d files, %.1f MB into %.1f MB in %v per pack", 2000, float64(total)/(1<<20), float64(r.Size)/(1<<20), perPack.Round(time.Millisecond))
}
