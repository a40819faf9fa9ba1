package upload_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/upload"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// zipFile writes a ZIP of the given entries (deflated) to a file.
func zipFile(t *testing.T, name string, entries map[string][]byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	// The fastest compression: the bombs are megabytes of one byte.
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) { return flate.NewWriter(out, flate.BestSpeed) })
	for n, data := range entries {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUploadRefusesWhatInspectRefusesBeforeSendingAnything(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)

	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.xasm")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a zip "), 300), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file past the size limit, sparse: nothing of it is read.
	huge := filepath.Join(dir, "huge.xasm")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else {
		if err := f.Truncate(upload.MaxArchiveSize + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	manifestBomb := zipFile(t, "bomb.xasm", map[string][]byte{"Assembly.yaml": bytes.Repeat([]byte(" "), 17<<20)})
	descriptorBomb := zipFile(t, "bomb2.xasm", map[string][]byte{
		"Assembly.yaml":          []byte("ManifestVersion: 1.0\nVendor: Acme\nName: Tasks\nVersion: 1.0-1\n"),
		"Acme/Tasks/Проект.yaml": bytes.Repeat([]byte("#"), 17<<20),
	})
	noManifest := zipFile(t, "bare.xasm", map[string][]byte{"Acme/Tasks/Проект.yaml": []byte("Ид: x\n")})
	demoManifest := []byte("ManifestVersion: 1.0\nVendor: Acme\nName: Tasks\nVersion: 1.0-1\n")
	outside := zipFile(t, "outside.xasm", map[string][]byte{"Assembly.yaml": demoManifest, "../Задача.xbsl": []byte("метод А()\n;\n")})

	for _, c := range []struct{ file, want string }{
		{garbage, "the file is not a build archive: " + garbage + ". Nothing was uploaded"},
		{huge, "is too large: 268435457 bytes, the limit is 268435456. Nothing was uploaded"},
		{manifestBomb, "the entry Assembly.yaml is too large to read (17825792 bytes, the limit is 16777216)"},
		{descriptorBomb, "the entry Acme/Tasks/Проект.yaml is too large to read (17825792 bytes, the limit is 16777216)"},
		{noManifest, "has no manifest Assembly.yaml. Nothing was uploaded"},
		{outside, "entries whose paths point outside the archive's folder (../, an absolute path, a drive or a backslash) (1): ../Задача.xbsl – the platform does not take such an archive. Nothing was uploaded"},
	} {
		for _, project := range []string{demo.ProjectID, ""} {
			_, err := upload.Upload(ctx, cl, upload.Options{File: c.file, ProjectID: project, GuardRename: true})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s (project %q): want a refusal with %q, got %v", filepath.Base(c.file), project, c.want, err)
			}
		}
	}
	if calls := s.Calls(); len(calls) != 0 {
		t.Errorf("refused archives reached the stand: %d call(s), first %s %s", len(calls), calls[0].Method, calls[0].Path)
	}
}

// How much the platform unpacks of an archive is not recorded: an archive
// is sent whatever it unpacks to, and the platform's refusal (here the
// stand's own limit) is what the user reads.
func TestWhatAnArchiveUnpacksToIsThePlatformsToJudge(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-1",
		ID: stand.DemoConfigurationID, Presentation: stand.DemoPresentation})
	// 65 MiB of zeros in five resources, a few kilobytes packed.
	data, err := standtest.WithZeros(data, 5, 13<<20)
	if err != nil {
		t.Fatal(err)
	}
	zeros := filepath.Join(t.TempDir(), "zeros.xasm")
	if err := os.WriteFile(zeros, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit int64
		want  string // "" : taken
	}{
		{0, ""},
		{32 << 20, "Console API responded 400 to POST"},
	} {
		s := standtest.Start(t, stand.Options{Limits: stand.Limits{UnpackedSize: c.limit}})
		project, err := s.SeedDemo()
		if err != nil {
			t.Fatal(err)
		}
		res, err := upload.Upload(ctx, newClient(t, s), upload.Options{File: zeros, ProjectID: project.ProjectID})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("an archive of 65 MiB unpacked, on a stand that takes it: %v", err)
		case c.want == "" && res.AssemblyID == "":
			t.Errorf("an archive of 65 MiB unpacked, on a stand that takes it: no build in %+v", res)
		case c.want != "":
			var api *platform.APIError
			if !errors.As(err, &api) || !strings.Contains(err.Error(), c.want) ||
				!strings.Contains(fmt.Sprint(api.Body), "Invalid assembly: ") || !strings.Contains(fmt.Sprint(api.Body), "past the limit of 33554432 bytes") {
				t.Errorf("an archive of 65 MiB unpacked, on a stand of a 32 MiB limit: want the stand's refusal, got %v", err)
			}
		}
		uploads := 0
		for _, call := range s.Calls() {
			if call.Method == "POST" && strings.HasSuffix(call.Path, "/assemblies") {
				uploads++
			}
		}
		if uploads != 1 {
			t.Errorf("the archive was sent %d times, want once", uploads)
		}
	}
}

func TestAnArchiveWithoutAVersionIsNotRenumbered(t *testing.T) {
	s := standtest.Start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClient(t, s)
	data := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-1",
		ID: stand.DemoConfigurationID, Presentation: stand.DemoPresentation})
	data = withoutManifestVersion(t, data)
	res, err := upload.Upload(context.Background(), cl, upload.Options{File: "noversion.xasm", Data: data, ProjectID: demo.ProjectID})
	if err != nil {
		t.Fatal(err)
	}
	if res.ArchiveVersion != "" || res.ServerVersion == "" {
		t.Fatalf("archive %q, server %q", res.ArchiveVersion, res.ServerVersion)
	}
	if res.Renumbered() {
		t.Error("a build whose archive names no version counts as renumbered (the warning would name an empty version)")
	}
}

// withoutManifestVersion rewrites an archive with the Version line of its
// manifest dropped.
func withoutManifestVersion(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(rc)
		rc.Close()
		content := b.Bytes()
		if f.Name == "Assembly.yaml" {
			var kept []string
			for _, line := range strings.Split(string(content), "\n") {
				if !strings.HasPrefix(line, "Version:") {
					kept = append(kept, line)
				}
			}
			content = []byte(strings.Join(kept, "\n"))
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(content)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
