package bench

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// archiveSizes are the archives the upload figures are taken with, in MiB:
// 1, 100 and 250, the last near the platform's limit of an upload
// (256 MiB).
var archiveSizes = []int{1, 100, 250}

// uploadRuns is how many runs of each command and size the memory figures
// take the median of: at most this many, fewer when -benchtime asks for
// fewer (a 250 MiB pack takes seconds).
const uploadRuns = 2

// BenchmarkUploadMemory: the peak resident memory of `builds upload`,
// `deploy`, `probe` and `apps export` with archives of 1, 100 and 250 MiB
// (a project whose resources are random bytes, 10 MiB a file, so the
// archive is as large as they are). An archive is read from disk as the
// request sends it, and an export written to disk as it arrives, so a
// larger archive costs no more memory than a small one.
//
// The stand: elemctl stand --seed demo
//
// Figures per command (before- for the earlier binary):
//
//	rss-NMB-MB      the peak RSS with an archive of N MiB (median)
//	over-NMB-MiB    rss-NMB-MB − rss-1MB-MB (target ≤ 30)
//	ms-250MB        the wall time with the 250 MiB archive
func BenchmarkUploadMemory(b *testing.B) {
	s := benchStand(b, "--seed", "demo")
	projects := map[int]string{}
	archives := map[int]string{}
	for _, mb := range archiveSizes {
		projects[mb] = resourcefulProject(b, mb)
		out := b.TempDir()
		runMeasured(b, elemctlBinary(b), append(os.Environ(), "ELEMCTL_NO_PLUGINS=1"),
			"build", "--project-dir", projects[mb], "--output", out, "--build-version", fmt.Sprintf("1.0-%d", 1000+mb))
		found, _ := filepath.Glob(filepath.Join(out, "*.xasm"))
		if len(found) != 1 {
			b.Fatalf("archives made: %v", found)
		}
		archives[mb] = found[0]
	}
	exports := b.TempDir()
	commands := []struct {
		name string
		args func(mb int) []string
		// setup, when set, runs before each size's round, unmeasured.
		setup []string
	}{
		{"builds-upload", func(mb int) []string { return []string{"builds", "upload", archives[mb], "--project-id", s.ProjectID} }, nil},
		{"deploy", func(mb int) []string { return []string{"deploy", "--project-dir", projects[mb]} }, nil},
		{"probe", func(mb int) []string { return []string{"probe", "--project-dir", projects[mb]} }, nil},
		// The application runs the build of that size: the export is as
		// large as the archive.
		{"apps-export", func(mb int) []string { return []string{"apps", "export", "--output", exports + "/"} }, []string{"deploy", "--project-dir"}},
	}
	cs := clients(b)
	envs := make([][]string, len(cs))
	for k := range cs {
		envs[k] = append(standEnv(b, s), "ELEMENT_APP_ID="+s.AppID, "ELEMENT_PROJECT_ID="+s.ProjectID, "ELEMENT_SPACE_ID="+s.SpaceID)
	}
	for _, c := range commands {
		b.Run("command="+c.name, func(b *testing.B) {
			rss := make([]map[int][]float64, len(cs))
			walls := make([]map[int][]float64, len(cs))
			for k := range cs {
				rss[k], walls[k] = map[int][]float64{}, map[int][]float64{}
			}
			for i := 0; b.Loop(); i++ {
				if i >= uploadRuns {
					continue
				}
				for _, mb := range archiveSizes {
					if c.setup != nil {
						runMeasured(b, elemctlBinary(b), envs[0], append(c.setup, projects[mb])...)
					}
					for k, cl := range cs {
						m := runMeasured(b, cl.path, envs[k], c.args(mb)...)
						rss[k][mb] = append(rss[k][mb], m.rssMiB())
						walls[k][mb] = append(walls[k][mb], m.ms())
					}
				}
			}
			for k, cl := range cs {
				small := median(rss[k][1])
				if small == 0 {
					continue // no memory figures on this system
				}
				for _, mb := range archiveSizes {
					b.ReportMetric(median(rss[k][mb]), fmt.Sprintf("%srss-%dMB-MB", cl.prefix, mb))
					if mb > 1 {
						b.ReportMetric(median(rss[k][mb])-small, fmt.Sprintf("%sover-%dMB-MiB", cl.prefix, mb))
					}
				}
				largest := archiveSizes[len(archiveSizes)-1]
				b.ReportMetric(median(walls[k][largest]), fmt.Sprintf("%sms-%dMB", cl.prefix, largest))
			}
			for _, mb := range archiveSizes[1:] {
				b.ReportMetric(30, fmt.Sprintf("target-over-%dMB-MiB", mb))
			}
		})
	}
}

// resourcefulProject is the demo project with mb MiB of random resources,
// at most 10 MiB a file.
func resourcefulProject(b *testing.B, mb int) string {
	b.Helper()
	dir := copyDemo(b)
	res := filepath.Join(dir, "Ресурсы")
	if err := os.MkdirAll(res, 0o755); err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(int64(mb)))
	for i, left := 0, mb; left > 0; i++ {
		n := min(left, 10)
		data := make([]byte, n<<20)
		rnd.Read(data)
		if err := os.WriteFile(filepath.Join(res, fmt.Sprintf("blob%02d.bin", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
		left -= n
	}
	return dir
}
