// Command mkdist builds elemctl's release archives (make dist) or one
// binary (the platform packages of the VS Code extension):
//
//	go run ./internal/dist/mkdist [-version V] [-out dist] [-targets linux/amd64,windows/amd64]
//	go run ./internal/dist/mkdist -binary linux/amd64 -o editors/vscode/bin/elemctl [-version V]
//
// It runs from the module's root.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/elemctl/elemctl/internal/dist"
)

func main() {
	version := flag.String("version", "", "the version stamped into the binaries (default: cmd/elemctl/VERSION)")
	outDir := flag.String("out", "dist", "the directory of the archives and SHA256SUMS")
	targets := flag.String("targets", "", "comma-separated GOOS/GOARCH list (default: every release platform)")
	binary := flag.String("binary", "", "build only the binary of this GOOS/GOARCH")
	output := flag.String("o", "", "with -binary: the file to write")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *version, *outDir, *targets, *binary, *output); err != nil {
		fmt.Fprintln(os.Stderr, "mkdist:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, version, outDir, targetList, binary, output string) error {
	if binary != "" {
		t, err := dist.ParseTarget(binary)
		if err != nil {
			return err
		}
		if output == "" {
			return fmt.Errorf("-binary needs -o FILE")
		}
		return dist.BuildBinary(ctx, dist.BuildOptions{ModuleDir: ".", Target: t, Version: version, Stderr: os.Stderr}, output)
	}
	var targets []dist.Target
	for _, s := range strings.Split(targetList, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		t, err := dist.ParseTarget(s)
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	mtime, err := dist.EntryTime(".", os.Getenv)
	if err != nil {
		return err
	}
	paths, err := dist.Release(ctx, dist.ReleaseOptions{
		ModuleDir: ".", OutDir: outDir, Version: version, Targets: targets, Time: mtime,
		Progress: func(line string) { fmt.Println(line) }, Stderr: os.Stderr,
	})
	if err != nil {
		return err
	}
	fmt.Println(paths[len(paths)-1])
	return nil
}
