package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/elemctl/elemctl/internal/testio"
)

// An export is written to disk as it arrives: the peak memory of `apps
// export` of an application whose build holds 48 MiB of random resources
// stays within a few MiB of the export of the small demo (Linux: the
// peak is the process's VmHWM).
func TestAppsExportIsNotHeldInMemory(t *testing.T) {
	b := newCLIBed(t)
	out := t.TempDir()
	export := func() (peakMiB float64, size int64) {
		t.Helper()
		cmd := exec.Command(b.bin, "apps", "export", "--output", out+"/")
		cmd.Env, cmd.Dir = b.env, b.work
		var text testio.Buffer
		cmd.Stdout, cmd.Stderr = &text, &text
		peakKB, err := testio.RunPeakKB(cmd)
		if err != nil {
			t.Fatalf("apps export: %v\n%s", err, text.String())
		}
		files, _ := filepath.Glob(filepath.Join(out, "*.xasm"))
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				size = max(size, st.Size())
			}
			os.Remove(f)
		}
		return float64(peakKB) / 1024, size
	}
	small, _ := export()

	res := filepath.Join(b.good, "Acme", "Tasks", "Ресурсы")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	rnd := rand.NewChaCha8([32]byte{1})
	for i := range 3 {
		data := make([]byte, 16<<20)
		rnd.Read(data)
		if err := os.WriteFile(filepath.Join(res, "blob"+string(rune('a'+i))+".bin"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := b.run("deploy", "--project-dir", b.good); code != 0 {
		t.Fatalf("deploy of the demo with 48 MiB of resources: exit %d\n%s", code, stderr)
	}
	large, size := export()
	if size < 48<<20 {
		t.Fatalf("the export is %d bytes, not the 48 MiB build", size)
	}
	if large-small > 24 {
		t.Errorf("apps export of %d MiB peaked at %.1f MiB, %.1f MiB over the small export's %.1f MiB: the answer was held in memory",
			size>>20, large, large-small, small)
	}
	// The exports were removed as they were read: nothing else is there.
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("the exports left %v beside them", entries)
	}
}
