// Command benchtable runs elemctl's benchmarks and prints one table of
// named figures beside their targets. Each benchmark reports the median of
// its own runs (see package bench), so the table shows medians.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"text/tabwriter"
)

type row struct {
	name   string
	value  float64
	unit   string
	target float64
	hasTgt bool
}

func main() {
	runs := flag.Int("runs", 7, "runs per figure (the median is shown)")
	pattern := flag.String("bench", ".", "benchmark name pattern")
	pkgs := flag.String("pkgs", "./bench/... ./internal/platform/... ./internal/ops/... ./internal/dap/... ./internal/mcp/... ./internal/lsp/... ./internal/plugin/...", "packages holding benchmarks")
	flag.Parse()

	// -p 1: packages run one after another, so no benchmark shares the
	// machine with another.
	args := []string{"test", "-p", "1", "-run", "^$", "-bench", *pattern, "-benchtime", fmt.Sprintf("%dx", *runs), "-count", "1"}
	args = append(args, existing(strings.Fields(*pkgs))...)
	cmd := exec.Command("go", args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	rows := parse(out.String())
	print(rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, out.String())
		fmt.Fprintln(os.Stderr, "benchmarks failed:", err)
		os.Exit(1)
	}
}

// existing keeps the package patterns whose directory exists.
func existing(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		dir := strings.TrimSuffix(strings.TrimSuffix(p, "/..."), "/")
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, p)
		}
	}
	return out
}

// parse reads `go test -bench` lines: name, N, then value/unit pairs.
func parse(text string) []row {
	var rows []row
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndex(name, "-"); i > 0 {
			name = name[:i]
		}
		metrics := map[string]float64{}
		var order []string
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			metrics[f[i+1]] = v
			order = append(order, f[i+1])
		}
		for _, unit := range order {
			if strings.HasPrefix(unit, "target-") || unit == "ns/op" && len(order) > 1 {
				continue
			}
			if unit == "B/op" || unit == "allocs/op" || unit == "MB/s" && metrics["target-MB/s"] == 0 {
				continue
			}
			r := row{name: name, value: metrics[unit], unit: unit}
			r.target, r.hasTgt = metrics["target-"+unit]
			rows = append(rows, r)
		}
	}
	return rows
}

func print(rows []row) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tmedian\tunit\ttarget\tmet")
	for _, r := range rows {
		target, met := "-", "-"
		if r.hasTgt {
			target = trim(r.target)
			higherIsBetter := strings.HasSuffix(r.unit, "/s")
			ok := r.value <= r.target
			if higherIsBetter {
				ok = r.value >= r.target
				target = "≥ " + target
			} else {
				target = "≤ " + target
			}
			met = map[bool]string{true: "yes", false: "NO"}[ok]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.name, trim(r.value), r.unit, target, met)
	}
	tw.Flush()
}

func trim(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
