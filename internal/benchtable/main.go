// Command benchtable runs elemctl's benchmarks and prints one table of
// named figures beside their targets. Each benchmark reports the median of
// its own runs (see package bench), so the table shows medians.
//
// With -before REV it builds elemctl at git revision REV as well, and the
// benchmarks that compare run both binaries in turn on the same load: the
// table then has a column of REV's figures beside this tree's.
//
// The table opens with the load it ran under: the cores, the processor,
// the load average before and after, and (among the rows) the start of a
// Go program that does nothing, the machine's own share of every start.
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

type row struct {
	name      string
	value     float64
	unit      string
	target    float64
	hasTgt    bool
	before    float64
	hasBefore bool
}

// beforeVar is bench.BeforeVar: the earlier binary the benchmarks compare
// with.
const beforeVar = "ELEMCTL_BENCH_BEFORE"

func main() {
	runs := flag.Int("runs", 7, "runs per figure (the median is shown)")
	pattern := flag.String("bench", ".", "benchmark name pattern")
	pkgs := flag.String("pkgs", "./bench/... ./internal/jsonx/... ./internal/platform/... ./internal/ops/... ./internal/stand/... ./internal/dap/... ./internal/mcp/... ./internal/lsp/... ./internal/plugin/...", "packages holding benchmarks")
	before := flag.String("before", "", "a git revision to compare with (e.g. main): its binary runs beside this tree's")
	flag.Parse()

	env := os.Environ()
	if *before != "" {
		dir, err := os.MkdirTemp("", "elemctl-bench-before-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		bin, err := buildRevision(*before, dir)
		if err != nil {
			fail(err)
		}
		env = append(env, beforeVar+"="+bin)
	}

	fmt.Println(loadLine("before"))
	// -p 1: packages run one after another, so no benchmark shares the
	// machine with another.
	args := []string{"test", "-p", "1", "-run", "^$", "-bench", *pattern, "-benchtime", fmt.Sprintf("%dx", *runs), "-count", "1", "-timeout", "3h"}
	args = append(args, existing(strings.Fields(*pkgs))...)
	cmd := exec.Command("go", args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	fmt.Println(loadLine("after"))
	rows := parse(out.String())
	print(rows, *before)
	if err != nil {
		fmt.Fprintln(os.Stderr, out.String())
		fmt.Fprintln(os.Stderr, "benchmarks failed:", err)
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchtable:", err)
	os.Exit(1)
}

// loadLine tells the machine and its load at the moment: cores, processor,
// load average (where the system tells it).
func loadLine(when string) string {
	load := "unknown"
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) >= 3 {
			load = strings.Join(f[:3], " ")
		}
	}
	return fmt.Sprintf("load %s the benchmarks: %s (1, 5, 15 min) on %d cores, %s, %s, %s/%s, %s",
		when, load, runtime.NumCPU(), cpuModel(), runtime.Version(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format(time.RFC3339))
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "processor unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "processor unknown"
}

// buildRevision builds elemctl at rev into dir, from the revision's files
// as git has them, and returns the binary's path.
func buildRevision(rev, dir string) (string, error) {
	src := filepath.Join(dir, "src")
	archive := exec.Command("git", "archive", "--format=tar", rev)
	archive.Stderr = os.Stderr
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := archive.Start(); err != nil {
		return "", err
	}
	if err := untar(pipe, src); err != nil {
		return "", err
	}
	if err := archive.Wait(); err != nil {
		return "", fmt.Errorf("git archive %s: %w", rev, err)
	}
	bin := filepath.Join(dir, "elemctl-before")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./cmd/elemctl")
	build.Dir = src
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("building %s: %w", rev, err)
	}
	fmt.Printf("before: %s, built from %s\n", rev, revisionName(rev))
	return bin, nil
}

func revisionName(rev string) string {
	out, err := exec.Command("git", "rev-parse", "--short", rev).Output()
	if err != nil {
		return rev
	}
	return strings.TrimSpace(string(out))
}

// untar writes a tar stream of plain files and directories under dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, filepath.Clean(dir)+string(filepath.Separator)) {
			continue // a name that leaves dir is no source of ours
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o755|0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
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

// parse reads `go test -bench` lines: name, N, then value/unit pairs. A
// unit "before-X" is the earlier binary's figure of unit X, "target-X"
// its target.
func parse(text string) []row {
	var rows []row
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
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
			if strings.HasPrefix(unit, "target-") || strings.HasPrefix(unit, "before-") || unit == "ns/op" && len(order) > 1 {
				continue
			}
			if unit == "B/op" || unit == "allocs/op" || unit == "MB/s" && metrics["target-MB/s"] == 0 {
				continue
			}
			r := row{name: name, value: metrics[unit], unit: unit}
			r.target, r.hasTgt = metrics["target-"+unit]
			r.before, r.hasBefore = metrics["before-"+unit]
			rows = append(rows, r)
		}
	}
	return rows
}

func print(rows []row, before string) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	if before != "" {
		fmt.Fprintf(tw, "figure\t%s\tmedian\tunit\ttarget\tmet\n", before)
	} else {
		fmt.Fprintln(tw, "figure\tmedian\tunit\ttarget\tmet")
	}
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
		if before != "" {
			was := "-"
			if r.hasBefore {
				was = trim(r.before)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.name, was, trim(r.value), r.unit, target, met)
			continue
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
