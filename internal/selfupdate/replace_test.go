package selfupdate

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
)

// windowsFS is a file system that behaves as Windows does with running
// executables: a held file can be renamed (the hold moves with it) but
// neither removed nor overwritten by a rename.
type windowsFS struct {
	files map[string]string // name → content
	held  map[string]bool
	// failRename makes renames of this source fail.
	failRename string
}

// errAccessDenied is Windows' own text for a file held open.
//
//lint:ignore ST1005 the text is Windows', as a held file gives it
var errAccessDenied = errors.New("Access is denied.")

func newWindowsFS() *windowsFS {
	return &windowsFS{files: map[string]string{}, held: map[string]bool{}}
}

func (w *windowsFS) Rename(from, to string) error {
	if from == w.failRename {
		return errAccessDenied
	}
	content, ok := w.files[from]
	if !ok {
		return errors.New("The system cannot find the file specified.")
	}
	if w.held[to] {
		return errAccessDenied
	}
	delete(w.files, from)
	w.files[to] = content
	if w.held[from] {
		delete(w.held, from)
		w.held[to] = true
	}
	return nil
}

func (w *windowsFS) Remove(name string) error {
	if w.held[name] {
		return errAccessDenied
	}
	if _, ok := w.files[name]; !ok {
		return errors.New("The system cannot find the file specified.")
	}
	delete(w.files, name)
	return nil
}

func (w *windowsFS) Glob(pattern string) ([]string, error) {
	var out []string
	for name := range w.files {
		if ok, _ := path.Match(strings.ReplaceAll(pattern, `\`, "/"), strings.ReplaceAll(name, `\`, "/")); ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (w *windowsFS) names() []string {
	var out []string
	for name := range w.files {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

const (
	winExe    = `C:/Users/u/AppData/Local/Programs/elemctl/elemctl.exe`
	winStaged = `C:/Users/u/AppData/Local/Programs/elemctl/.elemctl-update-0a1b.exe`
)

func TestWindowsReplaceMovesTheRunningBinaryAside(t *testing.T) {
	fs := newWindowsFS()
	fs.files[winExe], fs.files[winStaged] = "old", "new"
	fs.held[winExe] = true // this very process runs it

	// A plain rename over the running file is what Windows refuses.
	if err := fs.Rename(winStaged, winExe); err == nil {
		t.Fatal("the fake lets a running executable be overwritten")
	}
	if err := replaceBinary(fs, "windows", winExe, winStaged); err != nil {
		t.Fatal(err)
	}
	if fs.files[winExe] != "new" {
		t.Fatalf("%s holds %q", winExe, fs.files[winExe])
	}
	names := fs.names()
	if len(names) != 2 || !strings.HasPrefix(names[1], winExe+".") || !strings.HasSuffix(names[1], ".old") {
		t.Fatalf("files after the update: %v, want the new binary and the old one aside", names)
	}
	aside := names[1]
	if fs.files[aside] != "old" || !fs.held[aside] {
		t.Fatalf("the aside file %s: %q held=%v", aside, fs.files[aside], fs.held[aside])
	}

	// The next start while the old process still runs: the aside file stays.
	removeLeftovers(fs, winExe)
	if _, ok := fs.files[aside]; !ok {
		t.Fatal("a held aside file was removed")
	}
	// Once the old process ended, the next start removes it, and nothing else.
	delete(fs.held, aside)
	fs.files[winExe+".notes.txt"] = "mine"
	removeLeftovers(fs, winExe)
	if got := fs.names(); !slices.Equal(got, []string{winExe, winExe + ".notes.txt"}) {
		t.Fatalf("after the cleanup: %v", got)
	}
}

func TestWindowsReplaceRemovesTheOldBinaryWhenNothingRunsIt(t *testing.T) {
	fs := newWindowsFS()
	fs.files[winExe], fs.files[winStaged] = "old", "new"
	if err := replaceBinary(fs, "windows", winExe, winStaged); err != nil {
		t.Fatal(err)
	}
	if got := fs.names(); !slices.Equal(got, []string{winExe}) || fs.files[winExe] != "new" {
		t.Fatalf("files %v, %s holds %q", got, winExe, fs.files[winExe])
	}
}

func TestWindowsReplaceRestoresTheOldBinaryOnFailure(t *testing.T) {
	fs := newWindowsFS()
	fs.files[winExe], fs.files[winStaged] = "old", "new"
	fs.held[winExe] = true
	fs.failRename = winStaged // say, an antivirus holds the new file
	err := replaceBinary(fs, "windows", winExe, winStaged)
	if !errors.Is(err, errAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	if fs.files[winExe] != "old" || !fs.held[winExe] {
		t.Fatalf("the old binary is not back: %v", fs.names())
	}
	if got := fs.names(); !slices.Equal(got, []string{winStaged, winExe}) {
		t.Fatalf("files %v", got)
	}

	// The old binary cannot even move aside: nothing changes.
	fs.failRename = winExe
	if err := replaceBinary(fs, "windows", winExe, winStaged); err == nil || fs.files[winExe] != "old" {
		t.Fatalf("err = %v, exe holds %q", err, fs.files[winExe])
	}
}

func TestUnixReplaceRenamesOverTheBinary(t *testing.T) {
	fs := newWindowsFS() // without holds, a rename over a file is what Unix does
	fs.files["/usr/local/bin/elemctl"], fs.files["/usr/local/bin/.elemctl-update-1"] = "old", "new"
	if err := replaceBinary(fs, "linux", "/usr/local/bin/elemctl", "/usr/local/bin/.elemctl-update-1"); err != nil {
		t.Fatal(err)
	}
	if got := fs.names(); !slices.Equal(got, []string{"/usr/local/bin/elemctl"}) || fs.files["/usr/local/bin/elemctl"] != "new" {
		t.Fatalf("files %v", got)
	}
}

func TestGlobEscapeKeepsPatternCharactersOfThePath(t *testing.T) {
	fs := newWindowsFS()
	exe := `C:/Tools[x64]/elemctl.exe`
	fs.files[exe+".0a0b.old"] = "old"
	fs.files[`C:/Toolsx/elemctl.exe.0c0d.old`] = "not ours"
	removeLeftovers(fs, exe)
	if got := fs.names(); !slices.Equal(got, []string{`C:/Toolsx/elemctl.exe.0c0d.old`}) {
		t.Fatalf("files %v", got)
	}
}
