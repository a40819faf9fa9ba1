// Package atomicfile replaces a file so that a reader sees the old content
// or the new one, never a half: the data goes into a temporary file beside
// the target, which is synced, given its mode and renamed over it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, with the permission bits perm. On a
// failure the target is untouched and the temporary file removed.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cErr := tmp.Close(); err == nil {
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
