package bench

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkBuildPack2000Files50MB: `elemctl build` of a generated project
// of 2,000 source files, 50 MB in all, end to end (target ≤ 1 s), with the
// size of the archive it makes beside the time ("archive-MB", and
// "archive-%" of the project's bytes): the archive is what every deploy
// uploads.
func BenchmarkBuildPack2000Files50MB(b *testing.B) {
	dir := generateProject(b, 2000, 25*1024)
	out := b.TempDir()
	env := append(os.Environ(), "ELEMCTL_NO_PLUGINS=1")
	args := []string{"build", "--project-dir", dir, "--output", out, "--build-version", "1.0-1"}
	runTimed(b, env, args...) // warm the page cache
	b.ResetTimer()
	reportMedian(b, "ms", 1000, time.Millisecond, func() time.Duration { return runTimed(b, env, args...) })
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

// verdictSpeed is the stand speed of the verdict benchmark, and the scale
// of elemctl's poll pauses with it (ELEMCTL_POLL_SCALE): a 30 s apply
// takes 3 s, and every pause of the wait shrinks alike, so the schedule is
// the one a real apply of that length gets.
const verdictSpeed = 0.1

// applySweep are the apply lengths (stand time) the verdict is measured
// after.
var applySweep = []time.Duration{2 * time.Second, 5 * time.Second, 10 * time.Second, 20 * time.Second, 30 * time.Second}

// BenchmarkDeployVerdictLatency: how long after the platform finished an
// apply the deploy's verdict is out, for applies of 2 to 30 s, and what the
// wait costs the platform. Each sub-benchmark is one apply length on a
// stand of its own; its first deploy has no history of the application's
// applies and its second a rough one, so the iterations measure the
// steady state of deploying a project again and again.
//
//	ms          the median latency: from the end of the apply to the exit
//	            of elemctl with its report (stand time for the wait, real
//	            time for the verification after it)
//	worst-ms    the worst of the iterations (target ≤ 500)
//	first-ms    the first deploy, without history (the plain backoff)
//	reads       card reads of the wait (median), beside backoff-reads,
//	            what the plain backoff makes for the same apply; reads/min
//	            per minute of apply
//
// The stand: elemctl stand --seed demo --speed 0.1 --apply-time 30s --log
// requests.jsonl; the figures are read from the request log.
func BenchmarkDeployVerdictLatency(b *testing.B) {
	for _, d := range applySweep {
		b.Run(fmt.Sprintf("apply=%v", d), func(b *testing.B) {
			s := benchStand(b, "--seed", "demo", "--speed", fmt.Sprint(verdictSpeed), "--apply-time", d.String(),
				"--log", filepath.Join(b.TempDir(), "requests.jsonl"))
			project := copyDemo(b)
			env := append(standEnv(b, s), "ELEMENT_APP_ID="+s.AppID, "ELEMENT_PROJECT_ID="+s.ProjectID,
				fmt.Sprintf("ELEMCTL_POLL_SCALE=%g", verdictSpeed))
			first := deployVerdict(b, s, env, project, s.AppID, d)
			deployVerdict(b, s, env, project, s.AppID, d) // rough history
			var latency, reads []float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := deployVerdict(b, s, env, project, s.AppID, d)
				latency = append(latency, r.latencyMS)
				reads = append(reads, float64(r.reads))
			}
			b.StopTimer()
			b.ReportMetric(median(latency), "ms")
			b.ReportMetric(slices.Max(latency), "worst-ms")
			b.ReportMetric(500, "target-worst-ms")
			b.ReportMetric(first.latencyMS, "first-ms")
			b.ReportMetric(median(reads), "reads")
			b.ReportMetric(float64(backoffReads(d)), "backoff-reads")
			budget := backoffReads(d)
			if d < 3500*time.Millisecond {
				budget += 2 // where the backoff itself polls every second or faster
			}
			b.ReportMetric(float64(budget), "target-reads")
			b.ReportMetric(median(reads)/d.Minutes(), "reads/min")
		})
	}
}

// verdict is one deploy as the stand saw it.
type verdict struct {
	latencyMS float64
	reads     int
}

// deployVerdict deploys once and measures, from the stand's request log,
// the reads of the wait and the latency of the verdict.
func deployVerdict(b *testing.B, s *standProcess, env []string, project, appID string, d time.Duration) verdict {
	b.Helper()
	from := len(requestLog(b, s))
	cmd := exec.Command(elemctlBinary(b), "deploy", "--project-dir", project, "--quiet")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	end := time.Now()
	if err != nil {
		b.Fatalf("deploy: %v\n%s", err, out)
	}
	card := "/console/api/v2/applications/" + appID
	var applied, seen time.Time
	reads := 0
	for _, c := range requestLog(b, s)[from:] {
		switch {
		case c.Method == "POST" && c.Path == card+"/project/update":
			applied = c.At
		case c.Method == "GET" && c.Path == card && !applied.IsZero() && seen.IsZero():
			reads++
			if !c.At.Before(applied.Add(time.Duration(float64(d) * verdictSpeed))) {
				seen = c.At
			}
		}
	}
	if applied.IsZero() || seen.IsZero() {
		b.Fatal("the stand saw no apply or no card read after its end")
	}
	due := applied.Add(time.Duration(float64(d) * verdictSpeed))
	wait := float64(seen.Sub(due)) / verdictSpeed
	tail := float64(end.Sub(seen))
	return verdict{latencyMS: (wait + tail) / float64(time.Millisecond), reads: reads}
}

// backoffReads is what the plain poll backoff (250 ms growing by half up
// to 5 s) reads over an apply of length d: the budget of the wait.
func backoffReads(d time.Duration) int {
	pause, n := 250*time.Millisecond, 1
	for at := time.Duration(0); at < d; n++ {
		at += pause
		pause = min(pause*3/2, 5*time.Second)
	}
	return n
}

// logged is a request of the stand's log.
type logged struct {
	Method, Path string
	At           time.Time
}

// requestLog reads the stand's request log: the arrival of every request.
func requestLog(b *testing.B, s *standProcess) []logged {
	b.Helper()
	data, err := os.ReadFile(s.Log)
	if err != nil {
		b.Fatal(err)
	}
	var out []logged
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var entry struct{ Time, Method, Path string }
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
		out = append(out, logged{entry.Method, entry.Path, at})
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
