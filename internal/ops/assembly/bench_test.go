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

// BenchmarkPackLargeProject packs 2,000 files of 50 MB in total, as the
// project's first pack on a machine: each pack has an empty pack cache of
// its own, so the figure (s/pack) holds the cost of keeping the cache and
// none of its gain. Each iteration also packs without a cache
// (ELEMCTL_CACHE_DIR=off, off-s/pack), the two in turn, the first of them
// alternating, so both meet the same moments of the machine; cache-cost-%
// is what keeping the cache adds. The target is at most one second per
// pack on two cores. The archive's size is reported beside the time, in MB
// and in per cent of the project's bytes, and the cache's size beside it.
func BenchmarkPackLargeProject(b *testing.B) {
	dir, total := largeProject(b, 2000, 50<<20)
	b.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(filepath.Dir(dir)))
	out, caches := b.TempDir(), b.TempDir()
	pack := func(cacheDir string) (*BuildResult, time.Duration) {
		opts := BuildOptions{ProjectDir: dir, OutputDir: out, Getenv: envOf(map[string]string{"ELEMCTL_CACHE_DIR": cacheDir}),
			Now: func() time.Time { return time.Unix(0, 0) }}
		start := time.Now()
		r, err := Build(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		return r, time.Since(start)
	}
	var r *BuildResult
	var withCache, without time.Duration
	packs := 0
	b.SetBytes(total)
	for b.Loop() {
		first := filepath.Join(caches, fmt.Sprint(packs))
		var d, off time.Duration
		if packs%2 == 0 {
			r, d = pack(first)
			_, off = pack("off")
		} else {
			_, off = pack("off")
			r, d = pack(first)
		}
		if r.ReusedFiles != 0 {
			b.Fatalf("a first pack reused %d files", r.ReusedFiles)
		}
		withCache += d
		without += off
		packs++
	}
	perPack := withCache / time.Duration(packs)
	b.ReportMetric(perPack.Seconds(), "s/pack")
	b.ReportMetric(1, "target-s/pack")
	b.ReportMetric((without / time.Duration(packs)).Seconds(), "off-s/pack")
	b.ReportMetric(100*(float64(withCache)/float64(without)-1), "cache-cost-%")
	b.ReportMetric(float64(r.Size)/(1<<20), "archive-MB")
	b.ReportMetric(100*float64(r.Size)/float64(total), "archive-%")
	b.ReportMetric(packCacheMB(b, envOf(map[string]string{"ELEMCTL_CACHE_DIR": filepath.Join(caches, "0")}), dir), "cache-MB")
	b.Logf("packed %d files, %.1f MB into %.1f MB in %v per pack", 2000, float64(total)/(1<<20), float64(r.Size)/(1<<20), perPack.Round(time.Millisecond))
}

// BenchmarkRepackLargeProject packs the project of BenchmarkPackLargeProject
// again after changed of its files changed (each pack changes other files;
// 0: the same tree again), with the pack cache its earlier pack left: what
// a developer waits for between two deploys. Figures: s/pack, the files
// copied from the cache (reused-files), the archive's and the cache's size.
func BenchmarkRepackLargeProject(b *testing.B) {
	dir, total := largeProject(b, 2000, 50<<20)
	b.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(filepath.Dir(dir)))
	sources, err := filepath.Glob(filepath.Join(dir, "Подсистема*", "*", "*.xbsl"))
	if err != nil || len(sources) < 100 {
		b.Fatalf("the project's modules: %d %v", len(sources), err)
	}
	for _, changed := range []int{0, 1, 20} {
		b.Run(fmt.Sprintf("changed=%d", changed), func(b *testing.B) {
			env := envOf(map[string]string{"ELEMCTL_CACHE_DIR": b.TempDir()})
			opts := BuildOptions{ProjectDir: dir, OutputDir: b.TempDir(), Getenv: env, Now: func() time.Time { return time.Unix(0, 0) }}
			if _, err := Build(context.Background(), opts); err != nil { // the earlier pack
				b.Fatal(err)
			}
			var r *BuildResult
			var elapsed time.Duration
			packs, next := 0, 0
			b.SetBytes(total)
			for b.Loop() {
				b.StopTimer()
				for range changed {
					f, err := os.OpenFile(sources[next%len(sources)], os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					fmt.Fprintf(f, "// правка %d\n", packs)
					f.Close()
					next++
				}
				b.StartTimer()
				start := time.Now()
				if r, err = Build(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
				packs++
			}
			if want := 2000 + 1 - changed; r.ReusedFiles != want { // the descriptor is a file too
				b.Fatalf("reused %d files, want %d", r.ReusedFiles, want)
			}
			b.ReportMetric((elapsed / time.Duration(packs)).Seconds(), "s/pack")
			b.ReportMetric(float64(r.ReusedFiles), "reused-files")
			b.ReportMetric(float64(r.Size)/(1<<20), "archive-MB")
			b.ReportMetric(packCacheMB(b, env, dir), "cache-MB")
		})
	}
}

// packCacheMB is the size of the pack cache file of largeProject's project
// in dir.
func packCacheMB(b *testing.B, getenv func(string) string, dir string) float64 {
	path, ok := packCachePath(getenv, "Acme", "Large", dir)
	st, err := os.Stat(path)
	if !ok || err != nil {
		b.Fatalf("the pack cache %q: %v", path, err)
	}
	return float64(st.Size()) / (1 << 20)
}
