//go:build linux || darwin

package selfupdate

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/dist"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/releasekey"
	"github.com/elemctl/elemctl/internal/selfupdate/updatetest"
)

// These tests stand a shell script in for the binary: it answers
// --version as elemctl does. The tests of cmd/elemctl run the real one.
func script(version string) []byte {
	return []byte("#!/bin/sh\necho 'elemctl " + version + "'\n")
}

func packed(t *testing.T, version string, binary []byte) updatetest.Release {
	return updatetest.PackRelease(t, version, runtime.GOOS, runtime.GOARCH, binary)
}

// installed writes the "running" binary of a version into a fresh folder.
func installed(t *testing.T, version string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "elemctl")
	if err := os.WriteFile(exe, script(version), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

func fetcher(t *testing.T) *platform.Fetcher {
	ctx := english()
	f, err := platform.NewFetcher(ctx, &platform.Config{TLSVerify: true, Timeout: 10 * time.Second},
		platform.ClientOptions{MaxBody: MaxDownload, ReadRetryPauses: []time.Duration{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func runOptions(t *testing.T, srv *updatetest.Server, exe, current string) Options {
	return Options{
		Current: current, Feed: srv.FeedURL(), Get: fetcher(t), Executable: exe,
		list:    func() ([]process, error) { return nil, nil },
		trusted: []minisign.PublicKey{updatetest.PublicKey},
	}
}

// assertUntouched checks that the binary is the old one and nothing else
// lies in its folder.
func assertUntouched(t *testing.T, exe, version string) {
	t.Helper()
	data, err := os.ReadFile(exe)
	if err != nil || string(data) != string(script(version)) {
		t.Fatalf("the binary changed: %q %v", data, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(exe))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("files left beside the binary: %v", names)
	}
}

func downloads(srv *updatetest.Server) int {
	n := 0
	for _, p := range srv.Requests() {
		if strings.HasPrefix(p, "/download/") {
			n++
		}
	}
	return n
}

func TestRunChecksThenUpdates(t *testing.T) {
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")), packed(t, "1.0.0", script("1.0.0")))
	exe := installed(t, "1.0.0")

	o := runOptions(t, srv, exe, "1.0.0")
	o.Check = true
	res, err := Run(english(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated || !res.Available || res.From != "1.0.0" || res.To != "1.1.0" || res.Latest != "1.1.0" || res.Path != exe {
		t.Fatalf("check: %+v", res)
	}
	if got := compact(t, res.Answer()); !strings.Contains(got, `"check":true`) || strings.Contains(got, `"stopped"`) {
		t.Fatalf("check answer %s", got)
	}
	assertUntouched(t, exe, "1.0.0")
	if n := downloads(srv); n != 0 {
		t.Fatalf("--check downloaded %d files", n)
	}

	var log []string
	o = runOptions(t, srv, exe, "1.0.0")
	o.Log = func(s string) { log = append(log, s) }
	res, err = Run(english(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Updated || res.To != "1.1.0" || res.Archive != dist.ArchiveName(runtime.GOOS, runtime.GOARCH) {
		t.Fatalf("update: %+v", res)
	}
	data, _ := os.ReadFile(exe)
	if string(data) != string(script("1.1.0")) {
		t.Fatalf("the binary is %q", data)
	}
	st, _ := os.Stat(exe)
	if st.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v", st.Mode())
	}
	if entries, _ := os.ReadDir(filepath.Dir(exe)); len(entries) != 1 {
		t.Fatalf("%d files beside the binary", len(entries))
	}
	if !slices.ContainsFunc(log, func(s string) bool { return strings.Contains(s, "1.0.0 → 1.1.0") }) {
		t.Fatalf("log %q", log)
	}

	// Once more: nothing to do.
	res, err = Run(english(), runOptions(t, srv, exe, "1.1.0"))
	if err != nil || res.Updated || res.To != "1.1.0" {
		t.Fatalf("second run: %+v %v", res, err)
	}
}

func TestRunRefusesWhatDoesNotCheckOut(t *testing.T) {
	good := packed(t, "1.1.0", script("1.1.0"))
	archive := dist.ArchiveName(runtime.GOOS, runtime.GOARCH)
	cases := []struct {
		name   string
		tamper func(*updatetest.Server)
		want   string
	}{
		{"tampered archive", func(s *updatetest.Server) {
			bad := slices.Clone(good.Files[archive])
			bad[len(bad)/2] ^= 0xff
			s.Replace("1.1.0", archive, bad)
		}, "SHA256SUMS says"},
		{"no line in SHA256SUMS", func(s *updatetest.Server) {
			sums := dist.Sums(map[string][]byte{"elemctl-plan9-386.zip": nil})
			s.Replace("1.1.0", dist.SumsName, sums)
			s.Replace("1.1.0", releasekey.SignatureName, releasekey.Sign(updatetest.Key, sums, "1.1.0"))
		}, "has no line for " + archive},
		{"no SHA256SUMS", func(s *updatetest.Server) { s.Replace("1.1.0", dist.SumsName, nil) }, "has no SHA256SUMS"},
		{"unsigned", func(s *updatetest.Server) { s.Replace("1.1.0", releasekey.SignatureName, nil) },
			"has no signature SHA256SUMS.minisig: its SHA256SUMS cannot be trusted"},
		{"a malformed signature", func(s *updatetest.Server) {
			s.Replace("1.1.0", releasekey.SignatureName, []byte("untrusted comment: x\nnot base64 at all\n"))
		}, "is no minisign signature"},
		{"signed by another key", func(s *updatetest.Server) {
			sums := good.Files[dist.SumsName]
			s.Replace("1.1.0", releasekey.SignatureName, releasekey.Sign(updatetest.ForeignKey, sums, "1.1.0"))
		}, "is signed by key " + releasekey.KeyID(updatetest.ForeignKey.ID()) + ", which this elemctl does not trust (it trusts " + releasekey.KeyID(updatetest.PublicKey.ID()) + ")"},
		{"SHA256SUMS changed after signing", func(s *updatetest.Server) {
			r := packed(t, "1.1.0", script("1.0.9"))
			s.Replace("1.1.0", archive, r.Files[archive])
			s.Replace("1.1.0", dist.SumsName, r.Files[dist.SumsName])
		}, "the file was changed after it was signed"},
		{"the signature of another release", func(s *updatetest.Server) {
			sums := good.Files[dist.SumsName]
			s.Replace("1.1.0", releasekey.SignatureName, releasekey.Sign(updatetest.Key, sums, "1.0.0"))
		}, "was made for another release (elemctl 1.0.0 SHA256SUMS)"},
		{"no archive for this platform", func(s *updatetest.Server) { s.Replace("1.1.0", archive, nil) }, "has no archive for " + runtime.GOOS},
		{"a binary that is another version", func(s *updatetest.Server) {
			r := packed(t, "1.1.0", script("1.0.9"))
			s.Replace("1.1.0", archive, r.Files[archive])
			s.Replace("1.1.0", dist.SumsName, r.Files[dist.SumsName])
			s.Replace("1.1.0", releasekey.SignatureName, r.Files[releasekey.SignatureName])
		}, "does not run as elemctl 1.1.0"},
		{"a binary that does not run", func(s *updatetest.Server) {
			r := packed(t, "1.1.0", []byte("\x7fELF not really"))
			s.Replace("1.1.0", archive, r.Files[archive])
			s.Replace("1.1.0", dist.SumsName, r.Files[dist.SumsName])
			s.Replace("1.1.0", releasekey.SignatureName, r.Files[releasekey.SignatureName])
		}, "does not run as elemctl 1.1.0"},
		{"a feed that refuses", func(s *updatetest.Server) {
			s.FailFeed(403, `{"message": "API rate limit exceeded for 10.0.0.1."}`)
		}, "answered 403: API rate limit exceeded"},
		{"a feed that is no feed", func(s *updatetest.Server) { s.FailFeed(200, "<html>hello</html>") }, "is not a list of releases"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rel := updatetest.Release{Version: "1.1.0", Files: map[string][]byte{}}
			for k, v := range good.Files {
				rel.Files[k] = v
			}
			srv := updatetest.NewServer(t, rel)
			c.tamper(srv)
			exe := installed(t, "1.0.0")
			_, err := Run(english(), runOptions(t, srv, exe, "1.0.0"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			assertUntouched(t, exe, "1.0.0")
		})
	}
}

func TestRunDowngradesOnlyWhenAskedByVersion(t *testing.T) {
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")), packed(t, "1.0.0", script("1.0.0")))
	exe := installed(t, "1.2.0")
	res, err := Run(english(), runOptions(t, srv, exe, "1.2.0"))
	if err != nil || res.Updated || res.To != "1.2.0" || res.Latest != "1.1.0" {
		t.Fatalf("newest is older: %+v %v", res, err)
	}
	assertUntouched(t, exe, "1.2.0")

	o := runOptions(t, srv, exe, "1.2.0")
	o.Want = "v1.0.0"
	res, err = Run(english(), o)
	if err != nil || !res.Updated || res.To != "1.0.0" {
		t.Fatalf("--version 1.0.0: %+v %v", res, err)
	}

	o.Want = "1.5.0"
	if _, err := Run(english(), o); err == nil || !strings.Contains(err.Error(), "no version 1.5.0 (the newest: 1.1.0)") {
		t.Fatalf("--version 1.5.0: %v", err)
	}
	o.Want = "latest"
	if _, err := Run(english(), o); err == nil || !strings.Contains(err.Error(), "not a version number") {
		t.Fatalf("--version latest: %v", err)
	}
}

func TestRunStopsTheHoldersAsked(t *testing.T) {
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")))
	for _, mode := range []StopMode{StopNone, StopServers, StopAll} {
		t.Run(string(mode), func(t *testing.T) {
			exe := installed(t, "1.0.0")
			var stopped []int
			o := runOptions(t, srv, exe, "1.0.0")
			o.Stop, o.self = mode, 50
			o.list = func() ([]process, error) {
				return []process{
					{PID: 40, PPID: 1, Exe: exe + " (deleted)", Args: []string{"elemctl", "--client-secret", "S3CR3T", "mcp"}},
					{PID: 41, PPID: 1, Exe: exe, Args: []string{"elemctl", "deploy"}},
					{PID: 50, PPID: 1, Exe: exe, Args: []string{"elemctl", "self-update"}},
				}, nil
			}
			o.stop = func(pid int, _ time.Duration) error { stopped = append(stopped, pid); return nil }
			res, err := Run(english(), o)
			if err != nil {
				t.Fatal(err)
			}
			want := map[StopMode][]int{StopNone: nil, StopServers: {40}, StopAll: {40, 41}}[mode]
			if !slices.Equal(stopped, want) || len(res.Stopped) != len(want) || len(res.Holders) != 2-len(want) {
				t.Fatalf("stopped %v, answer %+v", stopped, res)
			}
			if answer := compact(t, res.Answer()); strings.Contains(answer, "S3CR3T") || !strings.Contains(answer, "--client-secret ***") {
				t.Fatalf("answer %s", answer)
			}
		})
	}
}

// TestRunRepeatedStopsTheOldHolders: the run an update advised ("repeat
// with --stop-holders") has nothing to update, yet stops the servers that
// still run the replaced binary – and only those where the system tells
// old from current.
func TestRunRepeatedStopsTheOldHolders(t *testing.T) {
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")))
	for goos, want := range map[string][]int{"linux": {40}, "darwin": {40, 41}} {
		t.Run(goos, func(t *testing.T) {
			exe := installed(t, "1.1.0")
			var stopped []int
			var log []string
			o := runOptions(t, srv, exe, "1.1.0")
			o.Stop, o.self, o.goos, o.goarch = StopServers, 50, goos, runtime.GOARCH
			o.Log = func(s string) { log = append(log, s) }
			oldExe := exe
			if goos == "linux" {
				oldExe += " (deleted)"
			}
			o.list = func() ([]process, error) {
				return []process{
					{PID: 40, PPID: 1, Exe: oldExe, Args: []string{"elemctl", "mcp"}},
					{PID: 41, PPID: 1, Exe: exe, Args: []string{"elemctl", "lsp"}},
					{PID: 50, PPID: 1, Exe: exe, Args: []string{"elemctl", "self-update", "--stop-holders"}},
				}, nil
			}
			o.stop = func(pid int, _ time.Duration) error { stopped = append(stopped, pid); return nil }
			res, err := Run(english(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Updated || !slices.Equal(stopped, want) || len(res.Stopped) != len(want) || len(res.Holders) != 2-len(want) {
				t.Fatalf("stopped %v, answer %+v", stopped, res)
			}
			if got := compact(t, res.Answer()); !strings.Contains(got, `"stopped":[{"pid":40`) {
				t.Fatalf("answer %s", got)
			}
			if slices.ContainsFunc(log, func(s string) bool { return strings.Contains(s, "--stop-holders") }) {
				t.Fatalf("it advises --stop-holders again: %q", log)
			}
			assertUntouched(t, exe, "1.1.0")
		})
	}
}

func TestRunFailsEarlyWhereItCannotWrite(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	srv := updatetest.NewServer(t, packed(t, "1.1.0", script("1.1.0")))
	exe := installed(t, "1.0.0")
	dir := filepath.Dir(exe)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	_, err := Run(english(), runOptions(t, srv, exe, "1.0.0"))
	if err == nil || !strings.Contains(err.Error(), "with the rights to change") {
		t.Fatalf("err = %v", err)
	}
	if n := downloads(srv); n != 0 {
		t.Fatalf("downloaded %d files before finding it cannot write", n)
	}
	assertUntouched(t, exe, "1.0.0")
}

func compact(t *testing.T, o *jsonx.Object) string {
	b, err := jsonx.Compact(o)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
