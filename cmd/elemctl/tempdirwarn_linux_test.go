package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunSaysWhenItsFolderStays: when the temporary build folder cannot
// be deleted (here TMPDIR is append-only: entries can be made in it, not
// removed), deploy --dry-run warns on stderr naming the folder and does not
// claim the archive was removed.
func TestDryRunSaysWhenItsFolderStays(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("an append-only folder needs root (chattr +a)")
	}
	b := newCLIBed(t)
	if out, err := exec.Command("chattr", "+a", b.tmp).CombinedOutput(); err != nil {
		t.Skipf("chattr +a is not available here: %v %s", err, out)
	}
	t.Cleanup(func() {
		exec.Command("chattr", "-a", b.tmp).Run()
		for _, l := range b.leftovers() {
			os.RemoveAll(filepath.Join(b.tmp, l))
		}
	})
	_, stderr, code := b.run("deploy", "--dry-run", "--project-dir", b.good)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	left := b.leftovers()
	if len(left) != 1 || !strings.HasPrefix(left[0], "elemctl-build-") {
		t.Fatalf("left in TMPDIR: %v", left)
	}
	folder := filepath.Join(b.tmp, left[0])
	if !strings.Contains(stderr, "warning: could not delete the temporary build folder "+folder) {
		t.Errorf("no warning naming %s:\n%s", folder, stderr)
	}
	if strings.Contains(stderr, "removed; to keep it") {
		t.Errorf("the dry run claims the archive was removed:\n%s", stderr)
	}
}
