package stand_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/json"
	"hash/crc32"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
)

// zeroDeflate is a raw deflate stream of n zero bytes (n a multiple of
// 1 MiB), made by repeating the compressed form of one MiB: a gigabyte
// unpacked costs a megabyte of archive and no time to build.
func zeroDeflate(t testing.TB, n int64) []byte {
	t.Helper()
	const chunk = 1 << 20
	var one bytes.Buffer
	fw, err := flate.NewWriter(&one, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(make([]byte, chunk)); err != nil {
		t.Fatal(err)
	}
	// A sync flush ends the blocks on a byte boundary without ending the
	// stream, so copies of them follow one another.
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	out := bytes.Repeat(one.Bytes(), int(n/chunk))
	// The final block: stored, empty.
	return append(out, 0x01, 0x00, 0x00, 0xff, 0xff)
}

// zeroCRC is the CRC-32 of n zero bytes.
func zeroCRC(n int64) uint32 {
	zero := make([]byte, 1<<20)
	var crc uint32
	for ; n > 0; n -= int64(len(zero)) {
		crc = crc32.Update(crc, crc32.IEEETable, zero[:min(n, int64(len(zero)))])
	}
	return crc
}

// bombEntry is an entry of zeros: size unpacked, declared as declared.
type bombEntry struct {
	name           string
	size, declared int64
}

// zipBomb is a build archive of the demo project (a valid manifest and
// descriptor first) followed by entries of zeros.
func zipBomb(t testing.TB, entries []bombEntry) []byte {
	t.Helper()
	demo := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-77",
		ID: stand.DemoConfigurationID, Presentation: stand.DemoPresentation})
	zr, err := zip.NewReader(bytes.NewReader(demo), int64(len(demo)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	deflated := map[int64][]byte{}
	crcs := map[int64]uint32{}
	for _, e := range entries {
		if deflated[e.size] == nil {
			deflated[e.size], crcs[e.size] = zeroDeflate(t, e.size), zeroCRC(e.size)
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Deflate, CRC32: crcs[e.size],
			CompressedSize64: uint64(len(deflated[e.size])), UncompressedSize64: uint64(e.declared)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(deflated[e.size]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestZipBombsAreRefusedWithBoundedMemory(t *testing.T) {
	s, c := start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	const mib, gib = 1 << 20, 1 << 30
	many := func(n int, ext string) []bombEntry {
		var out []bombEntry
		for i := range n {
			out = append(out, bombEntry{name: "Acme/Tasks/Основное/part" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ext, size: 15 * mib, declared: 15 * mib})
		}
		return out
	}
	cases := []struct {
		name    string
		entries []bombEntry
		want    string
	}{
		{"one source of half a gigabyte", []bombEntry{{"Acme/Tasks/Основное/bomb.xbsl", gib / 2, gib / 2}}, "past the limit of 16777216 bytes – a damaged archive or a zip bomb"},
		{"a gigabyte declared as a kilobyte", []bombEntry{{"Acme/Tasks/Основное/liar.yaml", gib, 1024}}, "entry Acme/Tasks/Основное/liar.yaml: zip: not a valid zip file"},
		{"five YAML files of 15 MiB", many(5, ".yaml"), "the manifest, YAML and sources unpack past the limit of 67108864 bytes"},
		{"eighty pictures of 15 MiB", many(80, ".png"), "the archive unpacks past the limit of 1073741824 bytes"},
		{"a picture of a gigabyte declared as a kilobyte", []bombEntry{{"Acme/Tasks/Ресурсы/liar.png", gib, 1024}}, "entry Acme/Tasks/Ресурсы/liar.png: zip: not a valid zip file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := zipBomb(t, tc.entries)
			var unpacked int64
			for _, e := range tc.entries {
				unpacked += e.size
			}
			for _, path := range []string{"/projects/" + demo.ProjectID + "/assemblies", "/projects"} {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				status, answer := c.do("POST", path, body)
				runtime.ReadMemStats(&after)
				allocated := after.TotalAlloc - before.TotalAlloc
				t.Logf("%s: %d KiB sent, %d MiB inside, %d MiB allocated while answering", path, len(body)>>10, unpacked>>20, allocated>>20)
				if status != http.StatusBadRequest {
					t.Fatalf("POST %s: HTTP %d %s, want 400", path, status, answer)
				}
				var refusal map[string]string
				if err := json.Unmarshal(answer, &refusal); err != nil || refusal["error_code"] != "invalid_request" ||
					!strings.HasPrefix(refusal["error_description"], "Invalid assembly: ") || !strings.Contains(refusal["error_description"], tc.want) {
					t.Errorf("POST %s: the refusal %s does not say %q", path, answer, tc.want)
				}
				// Everything the request cost, client and server: the upload,
				// at most what the stand reads into memory and the
				// decompressors' buffers.
				if limit := uint64(len(body)) + 2*uint64(stand.DefaultLimits.ReadSize); allocated > limit {
					t.Errorf("POST %s: %d MiB allocated for a %d KiB upload; the bound is %d MiB", path, allocated>>20, len(body)>>10, limit>>20)
				}
			}
		})
	}
	for _, b := range s.Snapshot().Builds {
		if b.Version == "1.0-77" || b.ArchiveSize > 1<<20 {
			t.Errorf("a refused archive was kept as build %s", b.Version)
		}
	}
}

// An archive of resources that unpack to more than the stand's limit of
// what it reads into memory (the platform's limits of unpacking are not
// recorded) is taken, applied and exported: its resources are checked and
// repacked as streams, not held.
func TestLargeArchivesAreTakenWithBoundedMemory(t *testing.T) {
	s, c := start(t, stand.Options{Speed: 0.01})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	var entries []bombEntry
	const picture = 20 << 20
	for i := range 4 {
		entries = append(entries, bombEntry{name: "Acme/Tasks/Ресурсы/picture" + string(rune('a'+i)) + ".png", size: picture, declared: picture})
	}
	body := zipBomb(t, entries)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	began := time.Now()
	status, answer := c.do("POST", "/projects/"+demo.ProjectID+"/assemblies", body)
	runtime.ReadMemStats(&after)
	t.Logf("upload: %v, %d MiB allocated", time.Since(began), (after.TotalAlloc-before.TotalAlloc)>>20)
	if status != http.StatusOK {
		t.Fatalf("an archive that unpacks to 80 MiB: HTTP %d %s, want 200", status, answer)
	}
	if allocated, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(body))+16<<20; allocated > limit {
		t.Errorf("%d MiB allocated taking an archive of %d KiB that unpacks to 80 MiB; the bound is %d MiB", allocated>>20, len(body)>>10, limit>>20)
	}
	var up map[string]any
	if err := json.Unmarshal(answer, &up); err != nil {
		t.Fatal(err)
	}
	c.apply(demo.AppID, up["id"].(string))
	c.waitStatus(demo.AppID, "Running")

	runtime.GC()
	runtime.ReadMemStats(&before)
	began = time.Now()
	status, exported := c.do("POST", "/applications/"+demo.AppID+"/project/export", nil)
	runtime.ReadMemStats(&after)
	t.Logf("export: %v, %d MiB allocated", time.Since(began), (after.TotalAlloc-before.TotalAlloc)>>20)
	if status != http.StatusOK {
		t.Fatalf("export: HTTP %d %s", status, exported)
	}
	// The answer is held whole (a fault may cut it); what it unpacks to
	// is not.
	if allocated, limit := after.TotalAlloc-before.TotalAlloc, 4*uint64(len(exported))+32<<20; allocated > limit {
		t.Errorf("%d MiB allocated exporting an archive of %d KiB that unpacks to 80 MiB; the bound is %d MiB", allocated>>20, len(exported)>>10, limit>>20)
	}
	zr, err := zip.NewReader(bytes.NewReader(exported), int64(len(exported)))
	if err != nil {
		t.Fatal(err)
	}
	pictures := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "Acme/Tasks/Ресурсы/picture") && f.UncompressedSize64 == picture {
			pictures++
		}
	}
	if pictures != len(entries) {
		t.Errorf("the export holds %d of the %d pictures of 20 MiB", pictures, len(entries))
	}
}

func TestOversizedUploadsAreRefused(t *testing.T) {
	s, c := start(t, stand.Options{Limits: stand.Limits{UploadSize: 64 << 10}})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 65<<10)
	for _, path := range []string{"/projects/" + demo.ProjectID + "/assemblies", "/projects", "/spaces/" + demo.SpaceID + "/projects"} {
		status, answer := c.do("POST", path, body)
		if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(answer), `"message":"Request body is too large: the limit is 65536 bytes"`) {
			t.Errorf("POST %s: HTTP %d %s, want 413 naming the limit", path, status, answer)
		}
	}
	// A body without a declared length is cut at the limit too.
	req := c.request("POST", "/v2/projects", nil)
	req.Body, req.ContentLength = readCloser{bytes.NewReader(body)}, -1
	if status, answer := c.send(req); status != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked upload: HTTP %d %s, want 413", status, answer)
	}
	if stand.DefaultLimits.UploadSize != 256<<20 {
		t.Errorf("the default upload limit changed to %d: the package documentation says 256 MiB", stand.DefaultLimits.UploadSize)
	}
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

func TestNamesThePlatformRefuses(t *testing.T) {
	s, c := start(t, stand.Options{})
	demo, err := s.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	create := func(display, ctx string) (int, string) {
		body := map[string]any{"display-name": display, "source": map[string]any{"type": "repository", "image-id": demo.ProjectID}}
		if ctx != "" {
			body["publication-context"] = ctx
		}
		status, answer := c.do("POST", "/applications", body)
		return status, string(answer)
	}
	for _, ok := range [][2]string{{"crm", ""}, {"Задачи команды", "team-tasks"}, {"apps-x", "apps/x_2"}, {strings.Repeat("я", 128), "long-display"}} {
		if status, answer := create(ok[0], ok[1]); status != http.StatusOK {
			t.Errorf("create %q/%q: HTTP %d %s, want it taken", ok[0], ok[1], status, answer)
		}
	}
	for _, bad := range []struct{ display, ctx, want string }{
		{"   ", "", "display-name must not be empty"},
		{strings.Repeat("я", 129), "x129", "display-name must be at most 128 characters long"},
		{"a\tb", "tab", "display-name must not contain control characters"},
		{"Задачи", "", `publication-context \"Задачи\" must be 1 to 63 characters: Latin letters, digits`},
		{"spaced", "my app", "publication-context"},
		{"slashes", "apps//x", "publication-context"},
		{"trailing", "apps/", "publication-context"},
		{"long", strings.Repeat("a", 64), "publication-context"},
	} {
		status, answer := create(bad.display, bad.ctx)
		if status != http.StatusBadRequest || !strings.Contains(answer, `"error_code":"invalid_request"`) || !strings.Contains(answer, bad.want) {
			t.Errorf("create %q/%q: HTTP %d %s, want 400 invalid_request with %q", bad.display, bad.ctx, status, answer, bad.want)
		}
	}

	upload := func(spec stand.ArchiveSpec) (int, string) {
		status, answer := c.do("POST", "/projects", stand.MakeArchive(spec))
		return status, string(answer)
	}
	good := stand.ArchiveSpec{Vendor: "Globex", Name: "crm-next", Version: "1.0-1", ID: "0b1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f11", Presentation: "CRM"}
	if status, answer := upload(good); status != http.StatusOK {
		t.Fatalf("upload of a well-named project: HTTP %d %s", status, answer)
	}
	for _, bad := range []struct {
		edit func(*stand.ArchiveSpec)
		want string
	}{
		{func(a *stand.ArchiveSpec) { a.Vendor = "Globex Corp" }, `Vendor \"Globex Corp\" must be 1 to 64 characters`},
		{func(a *stand.ArchiveSpec) { a.Name = "1crm" }, `Name \"1crm\" must be`},
		{func(a *stand.ArchiveSpec) { a.Name = strings.Repeat("n", 65) }, "Name"},
		{func(a *stand.ArchiveSpec) { a.Presentation = strings.Repeat("П", 257) }, "Представление must be at most 256 characters long"},
	} {
		spec := good
		spec.ID, spec.Version = "0b1e5a40-3d2b-4f6a-9e81-0a4b6c2d8f12", "1.0-2"
		bad.edit(&spec)
		status, answer := upload(spec)
		if status != http.StatusBadRequest || !strings.Contains(answer, bad.want) {
			t.Errorf("upload %s/%s: HTTP %d %s, want 400 with %q", spec.Vendor, spec.Name, status, answer, bad.want)
		}
	}
}
