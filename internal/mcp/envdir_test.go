package mcp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/elemctl/elemctl/internal/platform"
)

// TestEnvFileConfinement: the rule of --env-dir on the file system itself.
// A ".." that climbs out and a link that leads out are refused by the
// rule, whether or not their target exists; a ".." or a link that stays
// inside is followed; a missing file or a directory inside is "not
// found".
func TestEnvFileConfinement(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	dir := filepath.Join(base, "stands")
	inside := writeFile(t, filepath.Join(dir, "team", "a.env"), "ELEMENT_BASE_URL=http://inside\n")
	outsideFile := writeFile(t, filepath.Join(base, "outside.env"), "ELEMENT_CLIENT_SECRET=s\n")
	if err := os.MkdirAll(filepath.Join(base, "secrets"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(base, "secrets", "b.env"), "ELEMENT_CLIENT_SECRET=s\n")

	allowed := map[string]string{
		inside:               inside,
		"team/a.env":         inside,
		"team/../team/a.env": inside,
		"./team/a.env":       inside,
		filepath.Join(dir, "x", "..", "team", "a.env"): inside,
	}
	refused := []string{
		outsideFile, "../outside.env", "team/../../outside.env", filepath.Join(dir, "..", "outside.env"),
		"../secrets/b.env", "../missing.env", dir, ".", "team/..",
	}
	missing := []string{"team/none.env", "team", "none/a.env"}
	if runtime.GOOS != "windows" { // symlinks need privileges there
		link := func(target, name string) {
			t.Helper()
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		link(outsideFile, "abs.env")                    // absolute link out
		link("../outside.env", "rel.env")               // relative link out
		link(filepath.Join(base, "secrets"), "secrets") // a directory link out
		link("../nothing.env", "dangling.env")          // out, to nothing
		link("rel.env", "chain.env")                    // in, then out
		link("team/a.env", "good.env")                  // stays inside
		link("team", "teamlink")                        // a directory link inside
		refused = append(refused, "abs.env", "rel.env", "secrets/b.env", "dangling.env", "chain.env")
		allowed["good.env"] = filepath.Join(dir, "good.env")
		allowed["teamlink/a.env"] = filepath.Join(dir, "teamlink", "a.env")
	}

	for name, want := range allowed {
		got, err := confineEnvFile(ctx, dir, name)
		if err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", name, got, err, want)
		}
	}
	for _, name := range refused {
		want := platform.ConfigErrorf(ctx, "mcp.http.env-file-outside", "path", name).Error()
		if got, err := confineEnvFile(ctx, dir, name); err == nil || err.Error() != want {
			t.Errorf("%s: %q %v, want the refusal %q", name, got, err, want)
		}
	}
	for _, name := range missing {
		want := platform.ConfigErrorf(ctx, "mcp.http.env-file-missing", "path", name).Error()
		if got, err := confineEnvFile(ctx, dir, name); err == nil || err.Error() != want {
			t.Errorf("%s: %q %v, want %q", name, got, err, want)
		}
	}
}
