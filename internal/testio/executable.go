package testio

import (
	"os"
	"path/filepath"
	"testing"
)

// InstallExecutable puts the program at from also at to, as a hard link
// where it can: a program this process wrote itself can fail to start with
// "text file busy" while a parallel test forks (the child holds the written
// file open until its exec), and a link is never open for writing. Where no
// link can be made (another file system) it is copied.
func InstallExecutable(t testing.TB, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Link(from, to) == nil {
		return
	}
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
