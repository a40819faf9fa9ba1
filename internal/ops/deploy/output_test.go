package deploy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTempOutputSaysWhatItCouldNotDelete: a temporary build folder that
// cannot be deleted is named in a warning, and remove reports false so no
// caller claims the archive is gone; one that can is deleted.
func TestTempOutputSaysWhatItCouldNotDelete(t *testing.T) {
	ctx := context.Background()
	var warnings []string
	warn := func(s string) { warnings = append(warnings, s) }

	dir, remove, err := TempOutput(ctx, TempBuildPrefix, warn)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.xasm"), []byte("archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	removeAll = func(string) error { return errors.New("the folder is in use") }
	removed := remove()
	removeAll = os.RemoveAll
	if removed {
		t.Fatal("remove said the folder is gone")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], dir) || !strings.Contains(warnings[0], "the folder is in use") {
		t.Fatalf("warnings %q, want one naming %s", warnings, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.xasm")); err != nil {
		t.Fatalf("the archive went: %v", err)
	}

	warnings = nil
	if !remove() || len(warnings) != 0 {
		t.Fatalf("a removable folder: warnings %q", warnings)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the folder is still there: %v", err)
	}
}
