package bench

import (
	"fmt"
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
//	atLms-before-apply-ms  from the command's start to the apply's request
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
//	before-apply-trips, verdict-trips
func BenchmarkDeployOverNetwork(b *testing.B) {
	cs := clients(b)
	type atLatency struct {
		latency time.Duration
		runs    []*verdictRun
	}
	var sweep []atLatency
	for _, l := range networkLatencies {
		at := atLatency{latency: l}
		for _, c := range cs {
			r := newVerdictRun(b, c, applyCase{apply: networkApply, speed: 1}, "--latency", l.String())
			r.first = r.deploy(b, r.newEnv, r.newProject, r.newAppID)
			at.runs = append(at.runs, r)
		}
		sweep = append(sweep, at)
	}
	// b.Loop runs the benchmark function once: the stands and the first
	// deploys are not repeated for a ramp-up.
	for i := 0; b.Loop(); i++ {
		if i >= laterDeploys {
			continue
		}
		for _, at := range sweep {
			for _, r := range at.runs {
				r.later = append(r.later, r.deploy(b, r.newEnv, r.newProject, r.newAppID))
			}
		}
	}
	figure := func(r *verdictRun, of func(verdict) float64) float64 {
		var v []float64
		for _, d := range r.later {
			v = append(v, of(d))
		}
		return median(v)
	}
	before := func(d verdict) float64 { return d.beforeApplyMS }
	verdictMS := func(d verdict) float64 { return d.latencyMS }
	for k, c := range cs {
		p := c.prefix
		for _, at := range sweep {
			r := at.runs[k]
			name := fmt.Sprintf("at%gms-", float64(at.latency)/float64(time.Millisecond))
			b.ReportMetric(figure(r, before), p+name+"before-apply-ms")
			b.ReportMetric(figure(r, verdictMS), p+name+"verdict-ms")
			b.ReportMetric(figure(r, func(d verdict) float64 { return d.totalMS }), p+name+"ms")
			b.ReportMetric(figure(r, func(d verdict) float64 { return float64(d.requests) }), p+name+"requests")
		}
		near, far := sweep[0], sweep[len(sweep)-1]
		span := float64(far.latency-near.latency) / float64(time.Millisecond)
		b.ReportMetric((figure(far.runs[k], before)-figure(near.runs[k], before))/span, p+"before-apply-trips")
		b.ReportMetric((figure(far.runs[k], verdictMS)-figure(near.runs[k], verdictMS))/span, p+"verdict-trips")
	}
}
