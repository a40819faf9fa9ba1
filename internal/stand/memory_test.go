package stand_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
)

// bulkyArchive is a build archive of about size bytes that does not
// compress: a project with a large data file beside its sources.
func bulkyArchive(t testing.TB, version string, size int) []byte {
	t.Helper()
	noise := make([]byte, size)
	if _, err := rand.Read(noise); err != nil {
		t.Fatal(err)
	}
	spec := demoSpec(version)
	spec.Files = map[string]string{"Данные/data.bin": string(noise), "Основное/Модуль.xbsl": "метод А()\n;\n"}
	return stand.MakeArchive(spec)
}

// storedHeap uploads n archives into the demo project of a new stand and
// returns the heap the stand keeps per stored build.
func storedHeap(t testing.TB, archive []byte, n int) float64 {
	s, c := start(t, stand.Options{})
	defer s.Close()
	d := c.createDemo()
	var before, after runtime.MemStats
	settledHeap(&before)
	for range n {
		c.obj("POST", "/projects/"+d.ProjectID+"/assemblies", archive)
	}
	settledHeap(&after)
	if got := len(c.versions(d.ProjectID)); got != 3+n {
		t.Fatalf("%d builds stored, want %d", got, 3+n)
	}
	runtime.KeepAlive(s)
	return (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(n)
}

// BenchmarkStoredBuildMemory: the heap the stand keeps per stored build,
// after 8 uploads of a 10 MB archive (target ≤ 64 KiB: a build's memory is
// bounded by the stand's limits, not by its archive, which stays on disk).
func BenchmarkStoredBuildMemory(b *testing.B) {
	archive := bulkyArchive(b, "1.0-9", 10<<20)
	var samples []float64
	for range b.N {
		samples = append(samples, storedHeap(b, archive, 8)/1024)
	}
	slices.Sort(samples)
	b.ReportMetric(samples[len(samples)/2], "KiB/build")
	b.ReportMetric(64, "target-KiB/build")
	b.ReportMetric(float64(len(archive))/1024, "KiB/archive")
}

// TestStoredBuildsKeepTheirArchivesOnDisk: six uploads of a 4 MB archive
// grow the stand's heap by less than one archive in all.
func TestStoredBuildsKeepTheirArchivesOnDisk(t *testing.T) {
	archive := bulkyArchive(t, "1.0-9", 4<<20)
	const uploads = 6
	perBuild := storedHeap(t, archive, uploads)
	t.Logf("%.0f KiB of heap per stored build of a %d KiB archive", perBuild/1024, len(archive)/1024)
	if perBuild*uploads >= float64(len(archive)) {
		t.Fatalf("the stand keeps %.0f KiB per stored build of a %d KiB archive", perBuild/1024, len(archive)/1024)
	}
}

// settledHeap reads the heap after two collections: pooled buffers survive
// the first one.
func settledHeap(m *runtime.MemStats) {
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(m)
}

// storeFiles lists the names in a stand's store beside its state file.
func storeFiles(t *testing.T, state string) []string {
	t.Helper()
	entries, err := os.ReadDir(state + ".store")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestStoreHoldsOneFilePerContentAndLetsGo(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	s, c := start(t, stand.Options{StateFile: state})
	d := c.createDemo()
	base := len(storeFiles(t, state))
	archive := bulkyArchive(t, "1.0-9", 2<<20)
	first := c.obj("POST", "/projects/"+d.ProjectID+"/assemblies", archive)
	second := c.obj("POST", "/projects/"+d.ProjectID+"/assemblies", archive)
	if got := storeFiles(t, state); len(got) != base+1 {
		t.Fatalf("two uploads of one archive: %v in the store, want %d files", got, base+1)
	}
	if got, err := s.BuildArchive(second["id"].(string)); err != nil || !bytes.Equal(got, archive) {
		t.Fatalf("the stored archive differs from the upload: %v", err)
	}
	// A refused upload, spooled to disk, leaves nothing.
	if st, _ := c.do("POST", "/projects", bytes.Repeat([]byte("not a zip "), 300_000)); st != 400 {
		t.Fatalf("a body that is no archive: HTTP %d", st)
	}
	c.must(204, "DELETE", "/projects/"+d.ProjectID+"/assemblies/"+first["assembly-version"].(string), nil)
	if got := storeFiles(t, state); len(got) != base+1 {
		t.Fatalf("a build of the same content remains, yet the store holds %v", got)
	}
	c.must(204, "DELETE", "/projects/"+d.ProjectID+"/assemblies/"+second["assembly-version"].(string), nil)
	if got := storeFiles(t, state); len(got) != base {
		t.Fatalf("after deleting both builds the store holds %v, want %d files", got, base)
	}
	// A build an application runs keeps its archive after its deletion:
	// the export still answers.
	run := c.uploadInto(d.ProjectID, demoSpec("1.0-20"))
	c.apply(d.AppID, run["id"].(string))
	c.waitStatus(d.AppID, "Running")
	c.must(204, "DELETE", "/projects/"+d.ProjectID+"/assemblies/"+run["assembly-version"].(string), nil)
	if m := manifestOf(t, c.must(200, "POST", "/applications/"+d.AppID+"/project/export", nil)); m["Version"] != run["assembly-version"] {
		t.Fatalf("export of a deleted build an application runs: %v", m)
	}
}

func TestTemporaryStoreGoesWithClose(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s, err := stand.New(stand.Options{Speed: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, s: s, base: s.URL(), plain: (&client{}).plainClient()}
	c.tok = c.newToken()
	d := c.createDemo()
	c.obj("POST", "/projects/"+d.ProjectID+"/assemblies", bulkyArchive(t, "1.0-9", 2<<20))
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 {
		t.Fatalf("the stand's store in TMPDIR: %v", entries)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("left in TMPDIR after Close: %v", entries)
	}
}

func TestStateFileOfLayoutOneMovesItsArchivesIntoTheStore(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	first, err := stand.New(stand.Options{StateFile: state})
	if err != nil {
		t.Fatal(err)
	}
	demo, err := first.SeedDemo()
	if err != nil {
		t.Fatal(err)
	}
	archives := map[string][]byte{}
	for _, b := range first.Snapshot().Builds {
		if archives[b.ID], err = first.BuildArchive(b.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// Rewrite the file as the first layout kept it: archives inline.
	var file map[string]any
	data, _ := os.ReadFile(state)
	json.Unmarshal(data, &file)
	file["Version"] = 1
	for _, b := range file["State"].(map[string]any)["Builds"].([]any) {
		card := b.(map[string]any)
		card["Archive"] = archives[card["ID"].(string)]
		delete(card, "ArchiveKey")
		delete(card, "ArchiveSize")
	}
	data, _ = json.Marshal(file)
	os.WriteFile(state, data, 0o600)
	os.RemoveAll(state + ".store")

	s, c := start(t, stand.Options{StateFile: state})
	for id, want := range archives {
		if got, err := s.BuildArchive(id); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("build %s after the move: %v", id, err)
		}
	}
	if m := manifestOf(t, c.must(200, "POST", "/applications/"+demo.AppID+"/project/export", nil)); m["Version"] == "" {
		t.Fatalf("export after the move: %v", m)
	}
	if data, _ := os.ReadFile(state); bytes.Contains(data, []byte(`"Archive"`)) {
		t.Fatal("the state file still holds archives")
	}
}
