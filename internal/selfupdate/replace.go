package selfupdate

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// fileSystem is what replacing a binary does to files; tests give a fake
// that behaves as Windows does with a running executable.
type fileSystem interface {
	Rename(from, to string) error
	Remove(name string) error
	Glob(pattern string) ([]string, error)
}

type osFileSystem struct{}

func (osFileSystem) Rename(from, to string) error          { return os.Rename(from, to) }
func (osFileSystem) Remove(name string) error              { return os.Remove(name) }
func (osFileSystem) Glob(pattern string) ([]string, error) { return filepath.Glob(pattern) }

// asideSuffix ends the name of an old binary renamed aside on Windows:
// <exe>.<random>.old, removed at the next start once nothing runs it.
const asideSuffix = ".old"

// stagePrefix starts the name of a new binary being written next to the
// old one.
const stagePrefix = ".elemctl-update-"

// replaceBinary puts the staged binary in place of exe atomically: a
// reader sees the old file or the new one, never a mix.
//
// Elsewhere than on Windows a rename over the running file does it: the
// processes that run the old binary keep its (now nameless) file.
//
// Windows refuses to overwrite or delete a running executable but lets
// one be renamed, so the old binary moves aside first, the new one takes
// its name, and the aside file is removed when possible – at once if
// nothing runs it, else by RemoveLeftovers at a later start. If the new
// one cannot take the name, the old one moves back.
func replaceBinary(fs fileSystem, goos, exe, staged string) error {
	if goos != "windows" {
		return fs.Rename(staged, exe)
	}
	aside := exe + "." + randomHex() + asideSuffix
	if err := fs.Rename(exe, aside); err != nil {
		return err
	}
	if err := fs.Rename(staged, exe); err != nil {
		if back := fs.Rename(aside, exe); back != nil {
			return &restoreError{err: err, restore: back, aside: aside}
		}
		return err
	}
	_ = fs.Remove(aside) // held by a running process: left for RemoveLeftovers
	return nil
}

// restoreError: the new binary could not take the name and the old one
// could not move back either; the message names where the old one is.
type restoreError struct {
	err, restore error
	aside        string
}

func (e *restoreError) Error() string {
	return e.err.Error() + "; the old binary is at " + e.aside + " (" + e.restore.Error() + ")"
}
func (e *restoreError) Unwrap() error { return e.err }

// removeLeftovers removes the old binaries an update on Windows renamed
// aside. One still running stays until a later start.
func removeLeftovers(fs fileSystem, exe string) {
	matches, err := fs.Glob(globEscape(exe) + ".*" + asideSuffix)
	if err != nil {
		return
	}
	for _, m := range matches {
		_ = fs.Remove(m)
	}
}

// RemoveLeftovers is called at every start: on Windows it removes the old
// binaries an earlier self-update renamed aside; elsewhere there are none
// and it does nothing.
func RemoveLeftovers() {
	if runtime.GOOS != "windows" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	removeLeftovers(osFileSystem{}, exe)
}

// globEscape quotes the characters filepath.Glob treats as patterns (a
// path such as C:\Tools[x64]\elemctl.exe). On Windows the backslash is the
// separator, not an escape, so brackets are quoted as classes there.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		switch r {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
