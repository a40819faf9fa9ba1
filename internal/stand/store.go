package stand

import (
	"os"
)

// spoolPrefix starts the names of spooled bodies in the store.
const spoolPrefix = "spool-"

// storeDir is the stand's own directory for spooled bodies and stored
// archives, made on first use: beside the state file (<state>.store) when
// there is one, else a temporary directory Close removes.
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

// removeStore removes a temporary store (Close).
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
