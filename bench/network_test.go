package bench

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// networkLatencies are the round trips BenchmarkDeployOverNetwork sweeps:
// loopback, a cloud a country away, one a continent away.
var networkLatencies = []time.Duration{0, 50 * time.Millisecond, 150 * time.Millisecond}

// networkApply is the apply of BenchmarkDeployOverNetwork, in real time.
const networkApply = 2 * time.Second

// BenchmarkDeployOverNetwork: what a deploy costs besides the apply when
// every answer of the platform comes a network's round trip after its
// request, as on a real cloud and never on loopback. For each round trip a
// stand of its own:
//
//	elemctl stand --seed demo --apply-time 2s --latency 50ms --log requests.jsonl
//
// and a new application of the demo project; a deploy to it first (the
// token, the apply's length learnt), then laterDeploys measured, each
// binary's in turn. Figures, at each round trip of L ms (medians):
//
//	atLms-to-apply-ms      from the command's start to the apply's request
//	                       reaching the stand: the reads, the build and
//	                       the upload before it
//	atLms-verdict-ms       from the apply's end to the exit with the
//	                       report (as BenchmarkDeployVerdictLatency)
//	atLms-ms               the whole deploy, the 2 s apply included
//	atLms-requests         every request of the deploy
//
// and the round trips the user waits for one after another, from the
// figures' growth between loopback and the longest round trip:
//
//	to-apply-trips, verdict-trips
func BenchmarkDeployOverNetwork(b *testing.B) {
	deploy := func(r *verdictRun) verdict { return r.deploy(b, r.newEnv, r.newProject, r.newAppID) }
	sweepNetwork(b, func(c client, latency time.Duration) *verdictRun {
		return newVerdictRun(b, c, applyCase{apply: networkApply, speed: 1}, "--latency", latency.String())
	}, deploy, []networkFigure[verdict]{
		{"to-apply-ms", "to-apply-trips", func(v verdict) float64 { return v.beforeApplyMS }},
		{"verdict-ms", "verdict-trips", func(v verdict) float64 { return v.latencyMS }},
		{"ms", "", func(v verdict) float64 { return v.totalMS }},
		{"requests", "", func(v verdict) float64 { return float64(v.requests) }},
	})
}

// networkFigure is a figure of a sweep of round trips: its unit, the
// unit of its growth from the shortest round trip to the longest in round
// trips ("" none), and how it is taken from one run's outcome.
type networkFigure[V any] struct {
	unit, trips string
	of          func(V) float64
}

// sweepNetwork starts a run of each binary against a stand per round
// trip of networkLatencies (start), runs each once (the token, what a
// forecast learns), then laterDeploys times, every run of every round
// trip in turn, and reports the figures' medians at each round trip
// (atLms-unit) and their growth in round trips.
func sweepNetwork[R, V any](b *testing.B, start func(c client, latency time.Duration) R, once func(R) V, figures []networkFigure[V]) {
	cs := clients(b)
	runs := make([][]R, len(networkLatencies)) // by round trip, then binary
	later := make([][][]V, len(networkLatencies))
	for i, l := range networkLatencies {
		for _, c := range cs {
			r := start(c, l)
			once(r)
			runs[i] = append(runs[i], r)
		}
		later[i] = make([][]V, len(cs))
	}
	// b.Loop runs the benchmark function once: the stands and the first
	// runs are not repeated for a ramp-up.
	for n := 0; b.Loop(); n++ {
		if n >= laterDeploys {
			continue
		}
		for i := range runs {
			for k, r := range runs[i] {
				later[i][k] = append(later[i][k], once(r))
			}
		}
	}
	figure := func(outcomes []V, f networkFigure[V]) float64 {
		var v []float64
		for _, o := range outcomes {
			v = append(v, f.of(o))
		}
		return median(v)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	near, far := 0, len(networkLatencies)-1
	span := ms(networkLatencies[far] - networkLatencies[near])
	for k, c := range cs {
		for i, l := range networkLatencies {
			for _, f := range figures {
				b.ReportMetric(figure(later[i][k], f), fmt.Sprintf("%sat%gms-%s", c.prefix, ms(l), f.unit))
			}
		}
		for _, f := range figures {
			if f.trips != "" {
				b.ReportMetric((figure(later[far][k], f)-figure(later[near][k], f))/span, c.prefix+f.trips)
			}
		}
	}
}

// BenchmarkProbeOverNetwork: a probe's whole run – build, upload, the
// throwaway application's creation (the compilation), and the cleanup
// that removes the application and the build – against stands whose
// answers come 0, 50 and 150 ms after their requests:
//
//	elemctl stand --seed demo --create-time 1s --delete-time 1s --latency 50ms --log requests.jsonl
//
// One probe first (the token), then laterDeploys measured, each binary's
// in turn. Figures, at each round trip of L ms (medians):
//
//	atLms-after-compile-ms  from the compilation's end (the creation's
//	                        task) to the exit: the verdict and the cleanup
//	atLms-ms                the whole probe, the 1 s creation and 1 s
//	                        deletion included
//	atLms-requests          every request of the probe
//
// and after-compile-trips, the round trips of the verdict and the cleanup
// the user waits for one after another (see BenchmarkDeployOverNetwork).
func BenchmarkProbeOverNetwork(b *testing.B) {
	type probeRun struct {
		client client
		stand  *standProcess
		env    []string
		dir    string
	}
	sweepNetwork(b, func(c client, latency time.Duration) *probeRun {
		s := benchStand(b, "--seed", "demo", "--speed", "1", "--create-time", "1s", "--delete-time", "1s", "--latency", latency.String(),
			"--log", filepath.Join(b.TempDir(), "requests.jsonl"))
		return &probeRun{client: c, stand: s, dir: copyDemo(b), env: append(standEnv(b, s), "ELEMENT_SPACE_ID="+s.SpaceID)}
	}, func(r *probeRun) probed { return probeOnce(b, r.client, r.stand, r.env, r.dir, 1) }, []networkFigure[probed]{
		{"after-compile-ms", "after-compile-trips", func(p probed) float64 { return p.afterCompileMS }},
		{"ms", "", func(p probed) float64 { return p.totalMS }},
		{"requests", "", func(p probed) float64 { return float64(p.requests) }},
	})
}

// probeLengths are the creations (compilations) of the probe verdict
// sweep, and the deletions of its cleanup, in platform time. The stand
// and elemctl's polls run at probeSpeed (see applySweep: the figures err
// on the slow side).
var probeLengths = []time.Duration{2 * time.Second, 5 * time.Second, 12 * time.Second, 30 * time.Second}

const probeSpeed = 0.25

// BenchmarkProbeVerdictLatency: how long after the platform finished
// compiling (the throwaway application's creation) a probe has its verdict
// – it asks for the application's deletion the moment it has – and how
// long after the deletion ended the probe is done, on a machine's first
// probe of the project and on later ones, for compilations and deletions
// of 2, 5, 12 and 30 s. Each length has a stand of its own (one per
// binary):
//
//	elemctl stand --seed demo --create-time 30s --delete-time 30s --speed 0.25 --log requests.jsonl
//
// Figures (from the end of the creation or deletion, as the stand's
// tasks record it):
//
//	first-ms, ms, worst-ms   the compilation's verdict: the first probe's,
//	                         the median and the worst of the later ones
//	                         (target ≤ 500)
//	first-reads, reads       card reads from the create to the read that
//	                         saw it end (target: a 10 s poll's reads)
//	first-cleanup-ms, cleanup-ms   from the deletion's end to the exit
//	                         (target ≤ 500 for the later ones)
func BenchmarkProbeVerdictLatency(b *testing.B) {
	for _, d := range probeLengths {
		b.Run(fmt.Sprintf("compile=%v", d), func(b *testing.B) {
			cs := clients(b)
			type run struct {
				client client
				stand  *standProcess
				env    []string
				dir    string
				first  probed
				later  []probed
			}
			runs := make([]*run, len(cs))
			for k, c := range cs {
				s := benchStand(b, "--seed", "demo", "--speed", fmt.Sprint(probeSpeed), "--create-time", d.String(),
					"--delete-time", d.String(), "--log", filepath.Join(b.TempDir(), "requests.jsonl"))
				runs[k] = &run{client: c, stand: s, dir: copyDemo(b),
					env: append(standEnv(b, s), "ELEMENT_SPACE_ID="+s.SpaceID, fmt.Sprintf("ELEMCTL_POLL_SCALE=%g", probeSpeed))}
			}
			for _, r := range runs {
				r.first = probeOnce(b, r.client, r.stand, r.env, r.dir, probeSpeed)
			}
			for i := 0; b.Loop(); i++ {
				if i >= laterDeploys {
					continue
				}
				for _, r := range runs {
					r.later = append(r.later, probeOnce(b, r.client, r.stand, r.env, r.dir, probeSpeed))
				}
			}
			for _, r := range runs {
				p := r.client.prefix
				var ms, reads, cleanup []float64
				for _, v := range r.later {
					ms, reads, cleanup = append(ms, v.compileMS), append(reads, float64(v.reads)), append(cleanup, v.cleanupMS)
				}
				b.ReportMetric(r.first.compileMS, p+"first-ms")
				b.ReportMetric(median(ms), p+"ms")
				b.ReportMetric(slices.Max(ms), p+"worst-ms")
				b.ReportMetric(float64(r.first.reads), p+"first-reads")
				b.ReportMetric(median(reads), p+"reads")
				b.ReportMetric(r.first.cleanupMS, p+"first-cleanup-ms")
				b.ReportMetric(median(cleanup), p+"cleanup-ms")
			}
			b.ReportMetric(500, "target-ms")
			b.ReportMetric(500, "target-worst-ms")
			b.ReportMetric(500, "target-cleanup-ms")
			b.ReportMetric(float64(tenSecondPollReads(d)), "target-reads")
		})
	}
}

// probeSeries is how many probes BenchmarkProbeCleanupOverProbes makes in
// a row on one stand, and probeSeriesEarly how many of the first are the
// early ones (the first, backing off, among them).
const (
	probeSeries      = 10
	probeSeriesEarly = 4
)

// BenchmarkProbeCleanupOverProbes: how long after the platform finished
// deleting a probe's throwaway application the probe is done, probe after
// probe on one stand. A deleted application answers 404 and nothing dates
// the deletion's end, so each probe's wait knows of the deletions only
// what the reads of the waits before it saw: over a series the figure
// tells whether the waits keep narrowing where the deletion ends, or
// drift. Deletions of 5 and 12 s after a short creation, a stand of its
// own per binary, the binaries' probes in turn:
//
//	elemctl stand --seed demo --create-time 1s --delete-time 12s --speed 0.25 --log requests.jsonl
//
// Figures (platform time, from the deletion's end as the stand's task
// records it to the probe's exit):
//
//	early-cleanup-ms             the median of probes 2 to 4 (target ≤ 500)
//	cleanup-ms, worst-cleanup-ms the median and the worst of probes 5 to 10
//	                             (target ≤ 500)
//	gone-reads                   the most card reads of a deletion wait of
//	                             probes 2 to 10, from the deletion's request
//	                             to the read that saw it gone (target: a
//	                             10 s poll's reads over the deletion)
func BenchmarkProbeCleanupOverProbes(b *testing.B) {
	for _, d := range []time.Duration{5 * time.Second, 12 * time.Second} {
		b.Run(fmt.Sprintf("delete=%v", d), func(b *testing.B) {
			cs := clients(b)
			type run struct {
				stand  *standProcess
				env    []string
				dir    string
				probes []probed
			}
			runs := make([]*run, len(cs))
			for k := range cs {
				s := benchStand(b, "--seed", "demo", "--speed", fmt.Sprint(probeSpeed), "--create-time", "1s",
					"--delete-time", d.String(), "--log", filepath.Join(b.TempDir(), "requests.jsonl"))
				runs[k] = &run{stand: s, dir: copyDemo(b),
					env: append(standEnv(b, s), "ELEMENT_SPACE_ID="+s.SpaceID, fmt.Sprintf("ELEMCTL_POLL_SCALE=%g", probeSpeed))}
			}
			for b.Loop() {
				for range probeSeries - len(runs[0].probes) {
					for k, r := range runs {
						r.probes = append(r.probes, probeOnce(b, cs[k], r.stand, r.env, r.dir, probeSpeed))
					}
				}
			}
			for k, r := range runs {
				p := cs[k].prefix
				cleanup := func(from, to int) []float64 {
					var out []float64
					for _, v := range r.probes[from:to] {
						out = append(out, v.cleanupMS)
					}
					return out
				}
				later := cleanup(probeSeriesEarly, probeSeries)
				goneReads := 0
				for _, v := range r.probes[1:] {
					goneReads = max(goneReads, v.goneReads)
				}
				b.ReportMetric(median(cleanup(1, probeSeriesEarly)), p+"early-cleanup-ms")
				b.ReportMetric(median(later), p+"cleanup-ms")
				b.ReportMetric(slices.Max(later), p+"worst-cleanup-ms")
				b.ReportMetric(float64(goneReads), p+"gone-reads")
			}
			b.ReportMetric(500, "target-early-cleanup-ms")
			b.ReportMetric(500, "target-cleanup-ms")
			b.ReportMetric(500, "target-worst-cleanup-ms")
			b.ReportMetric(float64(tenSecondPollReads(d)), "target-gone-reads")
		})
	}
}

// probed is one probe as the stand saw it, in platform time.
type probed struct {
	// totalMS is the whole probe; afterCompileMS runs from the
	// compilation's end (the creation's task) to the exit.
	totalMS, afterCompileMS float64
	// compileMS runs from the compilation's end to the probe asking for
	// the application's deletion, cleanupMS from the deletion's end to
	// the exit.
	compileMS, cleanupMS float64
	// reads are the card reads from the create to the one that saw it
	// end, goneReads those from the deletion's request to the one that
	// saw the application gone; requests all requests of the probe.
	reads, goneReads, requests int
}

// probeOnce probes the project in dir once and measures it from the
// stand's request log and its record of the creation's and the deletion's
// tasks. What the stand served between an operation's end and the read
// that saw it is scaled back to platform time by speed, the stand's and
// the polls' (see deployEnding).
func probeOnce(b *testing.B, c client, s *standProcess, env []string, dir string, speed float64) probed {
	b.Helper()
	from := len(requestLog(b, s))
	cmd := exec.Command(c.path, "probe", "--project-dir", dir, "--quiet")
	cmd.Env = env
	started := time.Now()
	out, err := cmd.CombinedOutput()
	exited := time.Now()
	if err != nil {
		b.Fatalf("probe: %v\n%s", err, out)
	}
	created := newestTaskEnd(b, s, "", "CreateApplication")
	deleted := newestTaskEnd(b, s, "", "DeleteApplication")
	var v probed
	var posted, seenCreated, deleteAsked, seenGone time.Time
	for _, r := range requestLog(b, s)[from:] {
		v.requests++
		switch {
		case r.Method == "POST" && r.Path == "/console/api/v2/applications":
			posted = r.At
		case r.Method == "DELETE" && strings.HasPrefix(r.Path, "/console/api/v2/applications/"):
			deleteAsked = r.At
		case r.Method != "GET" || !strings.HasPrefix(r.Path, "/console/api/v2/applications/") || posted.IsZero():
		case deleteAsked.IsZero():
			if seenCreated.IsZero() {
				v.reads++
				if r.Served.After(created) {
					seenCreated = r.Served
				}
			}
		case seenGone.IsZero():
			v.goneReads++
			if r.Served.After(deleted) {
				seenGone = r.Served
			}
		}
	}
	if seenCreated.IsZero() || deleteAsked.IsZero() || seenGone.IsZero() {
		b.Fatalf("the stand saw no read after the creation (%v), no deletion or no read after it (%v)", created, deleted)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	v.totalMS = ms(exited.Sub(started))
	v.afterCompileMS = ms(exited.Sub(created))
	v.compileMS = ms(seenCreated.Sub(created))/speed + ms(deleteAsked.Sub(seenCreated))
	v.cleanupMS = ms(seenGone.Sub(deleted))/speed + ms(exited.Sub(seenGone))
	return v
}
