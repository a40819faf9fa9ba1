package stand

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The store is the stand's own directory: every stored build's archive
// lives there as <sha256>.zip (one file for builds of one content), and
// request bodies larger than spoolInMemory are spooled there. Only what
// answers need stays in memory; the archive is read from disk when a
// create, an apply or an export needs it.
const (
	// spoolPrefix starts the names of spooled bodies in the store.
	spoolPrefix = "spool-"
	// archiveSuffix ends the names of stored archives.
	archiveSuffix = ".zip"
)

// storeDir is the store, made on first use: beside the state file
// (<state>.store) when there is one, else a temporary directory Close
// removes.
func (s *Stand) storeDir() (string, error) {
	s.storeMu.Lock()
	defer s.storeMu.Unlock()
	if s.store != "" {
		return s.store, nil
	}
	if s.storeClosed {
		return "", errStandClosing
	}
	if s.opts.StateFile != "" {
		dir := s.opts.StateFile + ".store"
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		s.store = dir
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "elemctl-stand-")
	if err != nil {
		return "", err
	}
	s.store, s.storeTemp = dir, true
	return dir, nil
}

// removeStore removes a temporary store (Close); a store beside the state
// file stays for the next start.
func (s *Stand) removeStore() error {
	s.storeMu.Lock()
	defer s.storeMu.Unlock()
	s.storeClosed = true
	if !s.storeTemp || s.store == "" {
		return nil
	}
	err := os.RemoveAll(s.store)
	s.store, s.storeTemp = "", false
	return err
}

// spoolOf makes a spool of bytes the stand made itself (seeds).
func spoolOf(data []byte) *spool {
	sum := sha256.Sum256(data)
	return &spool{mem: data, size: int64(len(data)), sum: sum[:]}
}

// keepArchive stores a spooled archive under its key and returns the key;
// content already stored is kept once. A spooled file is moved, not copied.
// The stand's lock is held.
func (s *Stand) keepArchive(sp *spool) (string, error) {
	key := sp.key()
	if _, ok := s.archives[key]; ok {
		return key, nil
	}
	dir, err := s.storeDir()
	if err != nil {
		return "", err
	}
	dst := filepath.Join(dir, key+archiveSuffix)
	if sp.file != nil {
		name := sp.file.Name()
		if err := sp.file.Close(); err != nil {
			return "", err
		}
		sp.file = nil
		if err := os.Rename(name, dst); err != nil {
			os.Remove(name)
			return "", err
		}
	} else if err := writeNew(dir, dst, sp.mem); err != nil {
		return "", err
	}
	s.archives[key] = sp.size
	return key, nil
}

// writeNew writes a file of the store whole under its name: a reader
// never sees part of it. It is no state to survive a power loss, so it is
// not synced.
func writeNew(dir, dst string, data []byte) error {
	f, err := os.CreateTemp(dir, spoolPrefix+"*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if e := f.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// storedArchive is a stored archive open for reading.
type storedArchive struct {
	*os.File
	size int64
}

// openArchive opens the archive of a build.
func (s *Stand) openArchive(b *Build) (*storedArchive, error) {
	size, ok := s.archives[b.ArchiveKey]
	if !ok {
		return nil, fmt.Errorf("stand: the archive of build %s is not in the store", b.Version)
	}
	dir, err := s.storeDir()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, b.ArchiveKey+archiveSuffix))
	if err != nil {
		return nil, err
	}
	return &storedArchive{f, size}, nil
}

// readBuild parses the stored archive of a build.
func (s *Stand) readBuild(b *Build) (*archive, error) {
	f, err := s.openArchive(b)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readArchive(f, f.size, s.opts.Limits, false)
}

// buildBytes reads the stored archive of a build whole (tests, seeds).
func (s *Stand) buildBytes(b *Build) ([]byte, error) {
	f, err := s.openArchive(b)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.NewSectionReader(f, 0, f.size))
}

// BuildArchive returns the archive of a build as it was uploaded.
func (s *Stand) BuildArchive(buildID string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.st.buildByID[buildID]
	if b == nil {
		return nil, errors.New("stand: no build " + buildID)
	}
	return s.buildBytes(b)
}

// archivesFreed marks that a build or an application went, so the next
// collection may remove archives.
func (s *Stand) archivesFreed() { s.collectDue = true }

// collectArchives removes the stored archives no build needs any more: a
// build needs its archive while it is not deleted, or while a live
// application runs it, was created from it or is being updated to it.
// The stand's lock is held.
func (s *Stand) collectArchives() {
	if !s.collectDue {
		return
	}
	s.collectDue = false
	needed := map[string]bool{}
	for _, b := range s.st.builds {
		if !b.Deleted {
			needed[b.ArchiveKey] = true
		}
	}
	need := func(id string) {
		if b := s.st.buildByID[id]; b != nil {
			needed[b.ArchiveKey] = true
		}
	}
	for _, a := range s.st.apps {
		if a.Status == statusDeleted {
			continue
		}
		need(a.BuildID)
		need(a.CreatedFromBuildID)
		need(a.ExportBuildID)
		if a.Op != nil {
			need(a.Op.BuildID)
		}
		for _, e := range a.Extensions {
			need(e.BuildID)
		}
	}
	dir := s.store
	for key := range s.archives {
		if needed[key] {
			continue
		}
		if dir != "" {
			if err := os.Remove(filepath.Join(dir, key+archiveSuffix)); err != nil && !os.IsNotExist(err) {
				s.note("removing an archive no build needs: %v", err)
				continue
			}
		}
		delete(s.archives, key)
	}
}

// openStore takes over the store of a state file at start: the archives
// found there, leftover spools removed, the archives a version 1 state file
// held inline (by build id) moved in, archives no build needs collected.
func (s *Stand) openStore(inline map[string][]byte) error {
	dir := s.opts.StateFile + ".store"
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("stand: reading the store: %w", err)
	}
	if err == nil {
		s.store = dir
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, spoolPrefix) || strings.HasPrefix(name, "."):
			// A spool or an atomic write a stopped stand left behind.
			os.Remove(filepath.Join(dir, name))
		case strings.HasSuffix(name, archiveSuffix) && e.Type().IsRegular():
			if info, err := e.Info(); err == nil {
				s.archives[strings.TrimSuffix(name, archiveSuffix)] = info.Size()
			}
		}
	}
	for id, data := range inline {
		b := s.st.buildByID[id]
		if b == nil {
			continue
		}
		key, err := s.keepArchive(spoolOf(data))
		if err != nil {
			return fmt.Errorf("stand: moving the archives of the state file into the store: %w", err)
		}
		b.ArchiveKey, b.ArchiveSize = key, int64(len(data))
		s.changed()
	}
	s.collectDue = true
	s.collectArchives()
	return nil
}
