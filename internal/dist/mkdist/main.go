// Command mkdist builds elemctl's release (make dist), one binary (the
// platform packages of the VS Code extension), or a new signing key:
//
//	go run ./internal/dist/mkdist [-version V] [-out dist] [-targets linux/amd64,windows/amd64] [-binaries DIR] [-unsigned]
//	go run ./internal/dist/mkdist -binary linux/amd64 -o editors/vscode/bin/elemctl [-version V]
//	go run ./internal/dist/mkdist -keygen FILE
//
// A release is signed with the key in ELEMCTL_SIGNING_KEY (or the file
// ELEMCTL_SIGNING_KEY_FILE) and its password ELEMCTL_SIGNING_PASSWORD, and
// refused without one unless -unsigned is given. With -binaries the
// release packs binaries built (and perhaps code-signed or notarized)
// elsewhere instead of building them. It runs from the module's root.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/dist"
)

func main() {
	version := flag.String("version", "", "the version stamped into the binaries (default: cmd/elemctl/VERSION)")
	outDir := flag.String("out", "dist", "the directory of the release")
	targets := flag.String("targets", "", "comma-separated GOOS/GOARCH list (default: every release platform)")
	unsigned := flag.Bool("unsigned", false, "leave SHA256SUMS unsigned (a local build; self-update refuses it)")
	binaries := flag.String("binaries", "", "pack the binaries in this folder, DIR/<goos>-<goarch>/elemctl[.exe], instead of building them")
	binary := flag.String("binary", "", "build only the binary of this GOOS/GOARCH")
	output := flag.String("o", "", "with -binary: the file to write")
	keygen := flag.String("keygen", "", "write a new signing key to this file (encrypted with ELEMCTL_SIGNING_PASSWORD when set) and print its public key")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch {
	case *keygen != "":
		err = generateKey(*keygen)
	case *binary != "":
		err = buildOne(ctx, *version, *binary, *output)
	default:
		err = release(ctx, *version, *outDir, *targets, *binaries, *unsigned)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkdist:", err)
		os.Exit(1)
	}
}

func generateKey(file string) error {
	secret, public, err := dist.GenerateSigningKey(os.Getenv(dist.SigningPasswordVariable))
	if err != nil {
		return err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(secret); err == nil {
		err = f.Close()
	} else {
		f.Close()
	}
	if err != nil {
		return err
	}
	fmt.Println(public)
	return nil
}

func buildOne(ctx context.Context, version, binary, output string) error {
	t, err := dist.ParseTarget(binary)
	if err != nil {
		return err
	}
	if output == "" {
		return fmt.Errorf("-binary needs -o FILE")
	}
	return dist.BuildBinary(ctx, dist.BuildOptions{ModuleDir: ".", Target: t, Version: version, Stderr: os.Stderr}, output)
}

func release(ctx context.Context, version, outDir, targetList, binaries string, unsigned bool) error {
	if version == "" {
		data, err := os.ReadFile("cmd/elemctl/VERSION")
		if err != nil {
			return err
		}
		version = strings.TrimSpace(string(data))
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
	if len(targets) == 0 {
		targets = dist.Targets
	}
	// The given binaries are checked before anything is written: a
	// release with one missing is not built.
	var given func(context.Context, dist.Target) ([]byte, error)
	if binaries != "" {
		var missing []string
		for _, t := range targets {
			if st, err := os.Stat(t.BinaryPath(binaries)); err != nil || !st.Mode().IsRegular() {
				missing = append(missing, t.BinaryPath(binaries))
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("-binaries %s lacks the binaries %s", binaries, strings.Join(missing, ", "))
		}
		given = func(_ context.Context, t dist.Target) ([]byte, error) { return os.ReadFile(t.BinaryPath(binaries)) }
	}
	// The key is checked first: a release that cannot be signed is not
	// built.
	var key *minisign.PrivateKey
	if !unsigned {
		var err error
		if key, err = dist.SigningKeyFromEnv(os.Getenv); err != nil {
			return err
		}
	}
	mtime, err := dist.EntryTime(".", os.Getenv)
	if err != nil {
		return err
	}
	paths, err := dist.Release(ctx, dist.ReleaseOptions{
		ModuleDir: ".", OutDir: outDir, Version: version, Targets: targets, Time: mtime, SigningKey: key, Binary: given,
		Progress: func(line string) { fmt.Println(line) }, Stderr: os.Stderr,
	})
	if err != nil {
		return err
	}
	if unsigned {
		fmt.Printf("%d files in %s, UNSIGNED: for local tests only; self-update refuses this release\n", len(paths), outDir)
	} else {
		fmt.Printf("%d files in %s, SHA256SUMS signed\n", len(paths), outDir)
	}
	return nil
}
