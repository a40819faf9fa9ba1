package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// listSizes are the numbers of cards the long-list figures are taken at.
var listSizes = []int{5000, 50000}

// BenchmarkAppsListBriefLong: `apps list --brief` over 5,000 and 50,000
// applications of which a tenth are live (the platform keeps listing
// deleted ones, so a long list is mostly tombstones), end to end, beside
// the floor: a plain GET of the same list that reads it and keeps nothing.
//
// The stand: elemctl stand --apps 5000 --deleted-apps 45000
//
// Figures (see listFigures): ms beside floor-ms, x-floor (target ≤ 1.5),
// answer-MB, rss-MB and rss-x-answer (target ≤ 1.5).
func BenchmarkAppsListBriefLong(b *testing.B) {
	for _, n := range listSizes {
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			s := benchStand(b, "--apps", fmt.Sprint(n/10), "--deleted-apps", fmt.Sprint(n-n/10))
			listFigures(b, s, "/applications", n, "apps", "list", "--brief")
		})
	}
}

// BenchmarkAppsFindLong: `apps find` of a name no application has – the
// whole list read for it, as `apps ensure` reads it and a deploy to an
// application given by name – over the lists of BenchmarkAppsListBriefLong,
// beside the floor. Figures as there.
//
// The stand: elemctl stand --apps 5000 --deleted-apps 45000
func BenchmarkAppsFindLong(b *testing.B) {
	for _, n := range listSizes {
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			s := benchStand(b, "--apps", fmt.Sprint(n/10), "--deleted-apps", fmt.Sprint(n-n/10))
			listFigures(b, s, "/applications", n, "apps", "find", "no-such-application")
		})
	}
}

// BenchmarkBuildsListLong: `builds list` (the newest ten builds, as the
// command shows by default, with the summary line over all of them) of a
// project of 5,000 and 50,000 builds, beside the floor.
//
// The stand: elemctl stand --seed demo --builds 50000
func BenchmarkBuildsListLong(b *testing.B) {
	for _, n := range listSizes {
		b.Run(fmt.Sprintf("builds=%d", n), func(b *testing.B) {
			s := benchStand(b, "--seed", "demo", "--builds", fmt.Sprint(n))
			listFigures(b, s, "/projects/"+s.ProjectID+"/assemblies", n, "builds", "list", "--project-id", s.ProjectID)
		})
	}
}

// listRounds is how many times a list figure's programs run in turn per
// iteration of the benchmark (-benchtime 7x), for a list of that many
// cards: 40 for 5,000 (280 runs of each), 10 for 50,000 (70 runs). The
// runs of a list of 5,000 cards (ten milliseconds or so) scatter by a
// third of their time on a shared machine, and by more than the figure's
// margin from one median of 35 to the next (1.34 to 1.63 × the floor, the
// same binary); a median of 280 moves by about 0.03. A list of 50,000
// takes ten times as long and scatters less.
func listRounds(cards int) int { return max(10, 200000/cards) }

// listFigures times a list command against the floor, the plain GET of
// path, in turn, and reports for each binary (before- for the earlier one)
//
//	ms            the median wall time of the command, with target ≤ 1.5 ×
//	              floor-ms
//	floor-ms      the median wall time of the plain GET
//	x-floor       ms / floor-ms (target ≤ 1.5)
//	base-ms       the wall time of a command that reads a small answer
//	              (spaces list): elemctl's own start, configuration and
//	              token, which the floor program does not have
//	answer-MB     the size of the list as the platform sends it
//	rss-MB        the command's peak resident memory (median)
//	base-rss-MB   the same for a command that reads a small answer
//	              (spaces list): the process's own share
//	rss-x-answer  (rss-MB − base-rss-MB) / answer-MB: what the list
//	              costs in memory, per byte of answer (target ≤ 1.5)
//	curl-ms       the median wall time of curl reading the same list,
//	              the floor the issue that set the target measured
//	              (curl starts slower than a Go program: the Go GET stays
//	              the stricter floor); left out where curl is not installed
//	x-curl        ms / curl-ms (target ≤ 1.5)
func listFigures(b *testing.B, s *standProcess, path string, cards int, args ...string) {
	env := standEnv(b, s)
	url := s.URL + "/console/api/v2" + path
	token := s.token(b)
	floorEnv := append(os.Environ(), "FLOOR_TOKEN="+token)
	floorRun := func() (measured, int64) {
		m := runMeasured(b, floorBinary(b), floorEnv, url)
		size, err := strconv.ParseInt(strings.TrimSpace(m.head), 10, 64)
		if err != nil {
			b.Fatalf("the floor GET printed %q", m.head)
		}
		return m, size
	}
	_, size := floorRun()
	curlRun := curlFloor(b, token, url, size)
	cs := clients(b)
	for _, c := range cs {
		runMeasured(b, c.path, env, args...) // the token into the cache, the page cache warm
	}
	var floors, curls []float64
	walls := make([][]float64, len(cs))
	rss := make([][]float64, len(cs))
	base := make([][]float64, len(cs))
	baseWalls := make([][]float64, len(cs))
	// A round: the floor, then each binary's list and small command, the
	// binaries in turn (see inTurn).
	listRound := func() {
		round := len(floors)
		f, _ := floorRun()
		floors = append(floors, f.ms())
		if curlRun != nil {
			curls = append(curls, curlRun())
		}
		for _, k := range inTurn(round, len(cs)) {
			c := cs[k]
			m := runMeasured(b, c.path, env, args...)
			walls[k] = append(walls[k], m.ms())
			rss[k] = append(rss[k], m.rssMiB())
			small := runMeasured(b, c.path, env, "spaces", "list")
			base[k] = append(base[k], small.rssMiB())
			baseWalls[k] = append(baseWalls[k], small.ms())
		}
	}
	// b.Loop runs the benchmark function once: the stand is not set up
	// again for a ramp-up. Each of its iterations times listRounds rounds.
	for b.Loop() {
		for range listRounds(cards) {
			listRound()
		}
	}
	answerMB := float64(size) / (1 << 20)
	floorMS := median(floors)
	b.ReportMetric(floorMS, "floor-ms")
	b.ReportMetric(answerMB, "answer-MB")
	b.ReportMetric(float64(cards), "cards")
	for k, c := range cs {
		ms := median(walls[k])
		b.ReportMetric(ms, c.prefix+"ms")
		b.ReportMetric(ms/floorMS, c.prefix+"x-floor")
		b.ReportMetric(median(baseWalls[k]), c.prefix+"base-ms")
		if len(curls) > 0 {
			b.ReportMetric(ms/median(curls), c.prefix+"x-curl")
		}
		if r := median(rss[k]); r > 0 {
			b.ReportMetric(r, c.prefix+"rss-MB")
			b.ReportMetric(median(base[k]), c.prefix+"base-rss-MB")
			b.ReportMetric((r-median(base[k]))/answerMB, c.prefix+"rss-x-answer")
		}
	}
	if len(curls) > 0 {
		b.ReportMetric(median(curls), "curl-ms")
		b.ReportMetric(1.5, "target-x-curl")
	}
	b.ReportMetric(1.5*floorMS, "target-ms")
	b.ReportMetric(1.5, "target-x-floor")
	b.ReportMetric(1.5, "target-rss-x-answer")
}

// curlFloor is a run of curl reading the list at url whole into nothing,
// timed as the commands are, which fails the benchmark unless it read
// size bytes; nil, said in the log, where curl is not installed. The
// token goes in a header file, not on curl's command line; curl goes
// straight to the stand, as the Go GET does to a loopback address, not
// through a proxy the environment names.
func curlFloor(b *testing.B, token, url string, size int64) func() float64 {
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Log("curl is not installed: the list is timed against the Go GET alone (no curl-ms)")
		return nil
	}
	header := filepath.Join(b.TempDir(), "header")
	if err := os.WriteFile(header, []byte("Authorization: Bearer "+token+"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	return func() float64 {
		m := runMeasured(b, curl, os.Environ(), "-sS", "--noproxy", "*", "-o", os.DevNull, "-w", "%{http_code} %{size_download}", "-H", "@"+header, url)
		var code, got int64
		if _, err := fmt.Sscan(m.head, &code, &got); err != nil || code != 200 || got != size {
			b.Fatalf("curl read %q (status and bytes), the floor GET %d bytes", m.head, size)
		}
		return m.ms()
	}
}
