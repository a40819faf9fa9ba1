// Package bench holds elemctl's end-to-end benchmarks: the real binary
// against a real emulated stand. `make bench` runs them several times and
// prints the median of each figure beside its target (internal/benchtable).
//
// Each benchmark reports its figure with b.ReportMetric(value, unit) and its
// target with b.ReportMetric(target, "target-"+unit); lower is better
// unless the unit ends in "/s".
package bench
