// Package atomicfile replaces a file so that a reader sees the old content
// or the new one, never a half: the data goes into a temporary file beside
// the target, which is synced (unless the reader checks what it reads),
// given its mode and renamed over it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, with the permission bits perm. On a
// failure the target is untouched and the temporary file removed.
func Write(path string, data []byte, perm os.FileMode) error {
	p, err := Create(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		p.Discard()
		return err
	}
	return p.Commit(path, perm)
}

// Pending is a file written in a folder before it takes its place there,
// for content that arrives as a stream or whose name is known only at the
// end (a download). Commit puts it in place, Discard removes it; until
// then the target keeps its old content.
type Pending struct {
	*os.File
}

// Create starts a pending file in dir, named after pattern as
// os.CreateTemp names it.
func Create(dir, pattern string) (*Pending, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &Pending{f}, nil
}

// Commit syncs and closes the file, gives it the permission bits perm and
// renames it over path. On a failure path is untouched and the pending
// file removed.
func (p *Pending) Commit(path string, perm os.FileMode) error {
	return p.commit(path, perm, true)
}

// CommitUnsynced is Commit without the sync, for a file that may be lost
// or cut short by a crash because its reader checks it whole (a cache):
// the sync would only cost time.
func (p *Pending) CommitUnsynced(path string, perm os.FileMode) error {
	return p.commit(path, perm, false)
}

func (p *Pending) commit(path string, perm os.FileMode, sync bool) error {
	name := p.Name()
	var err error
	if sync {
		err = p.Sync()
	}
	if cErr := p.Close(); err == nil {
		err = cErr
	}
	if err == nil {
		err = os.Chmod(name, perm)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// Discard closes and removes the pending file.
func (p *Pending) Discard() {
	p.Close()
	os.Remove(p.Name())
}
