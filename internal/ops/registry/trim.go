package registry

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"time"
)

// maxCarryRounds bounds how often the trim goes back for lines other
// processes appended while it wrote the temporary file.
const maxCarryRounds = 3

var (
	errReplaced = errors.New("the registry was replaced meanwhile")
	errShrank   = errors.New("the registry shrank meanwhile")
)

// trim keeps the newest limit lines once the file holds more than
// limit + max(limit/10, 1) complete lines. The slack makes trimming
// occasional instead of a rewrite on every upload.
//
// There is no lock: other processes may append at any time. The newest
// lines go to uploads.jsonl.<pid>.tmp, whatever was appended meanwhile is
// carried over (a line still being written is waited for and carried
// whole, never cut), and the temporary file then replaces the registry.
// If the registry shrank or was replaced meanwhile (another process
// trimmed it), a line stays unfinished, or the replace is refused (on
// Windows while another process has the file open), the registry is left
// as it is and the temporary file removed; the next upload tries again.
func (r *Registry) trim(limit int) {
	data, origin, err := readWithInfo(r.path)
	if err != nil {
		return
	}
	complete := bytes.LastIndexByte(data, '\n') + 1
	lines := bytes.Count(data[:complete], []byte{'\n'})
	if lines <= limit+max(limit/10, 1) {
		return
	}
	start := newestLinesStart(data[:complete], limit)

	tmpPath := r.path + "." + strconv.Itoa(r.pid) + ".tmp"
	tmp, err := os.OpenFile(tmpPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return
	}
	replaced := false
	defer func() {
		if !replaced {
			tmp.Close() // a second Close after a failed replace is harmless
			os.Remove(tmpPath)
		}
	}()
	if _, err := tmp.Write(data[start:complete]); err != nil {
		return
	}
	if r.afterSnapshot != nil {
		r.afterSnapshot()
	}
	offset := int64(complete)
	tailComplete := true
	for round := 1; ; round++ {
		if r.beforeRound != nil {
			r.beforeRound(round)
		}
		chunk, err := readSince(r.path, origin, offset)
		if err != nil {
			return
		}
		if len(chunk) == 0 && tailComplete {
			break
		}
		if len(chunk) > 0 {
			if _, err := tmp.Write(chunk); err != nil {
				return
			}
			offset += int64(len(chunk))
			tailComplete = chunk[len(chunk)-1] == '\n'
		}
		if round == maxCarryRounds {
			if !tailComplete {
				return
			}
			break
		}
		if !tailComplete {
			time.Sleep(r.roundPause)
		}
	}
	if tmp.Sync() != nil || tmp.Close() != nil {
		return
	}
	if r.replace(tmpPath, r.path) != nil {
		return
	}
	replaced = true
}

// newestLinesStart is the offset where the newest n lines of text begin;
// text ends with a newline and holds more than n lines.
func newestLinesStart(text []byte, n int) int {
	end := len(text) - 1 // the final newline
	for i := 0; i < n && end >= 0; i++ {
		end = bytes.LastIndexByte(text[:end], '\n')
	}
	return end + 1
}

// readWithInfo reads the whole file and returns its identity as well, so
// later reads can tell whether another process replaced it.
func readWithInfo(path string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	return data, info, nil
}

// readSince reads what was appended to the file after offset, provided it
// is still the same file and has not shrunk. The handle is closed before
// returning: Windows refuses to replace a file that is open.
func readSince(path string, origin os.FileInfo, offset int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(origin, info) {
		return nil, errReplaced
	}
	if info.Size() < offset {
		return nil, errShrank
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}
