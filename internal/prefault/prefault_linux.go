//go:build linux

package prefault

import "syscall"

const (
	madvPopulateRead  = 22
	madvPopulateWrite = 23
)

// Program maps the executable's code and its writable data, read from
// /proc/self/maps: the executable's file comes first there, its code
// (r-x) and data (rw-) mappings follow one another. It imports only
// syscall, so it can run from the first packages to initialise.
func Program() {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	buf := make([]byte, 4096) // the executable's lines come first
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return
	}
	for _, m := range executableMappings(buf[:n]) {
		if m.executable || m.writable {
			populate(m)
		}
	}
}

// populate maps m in: code for reading, data for writing (each page gets
// its private copy now rather than on its first write). An error (an old
// kernel, a locked-down sandbox) leaves the pages to be mapped on first
// touch, as without this call.
func populate(m mapping) {
	advice := madvPopulateRead
	if m.writable {
		advice = madvPopulateWrite
	}
	syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, uintptr(advice))
}

type mapping struct {
	start, end           uintptr
	executable, writable bool
}

// executableMappings reads the leading lines of /proc/self/maps that
// belong to the same file as the first one. Lines look like
// "00400000-00a80000 r-xp 00000000 fe:00 10020625   /path/to/exe".
func executableMappings(maps []byte) []mapping {
	var out []mapping
	var inode []byte
	for len(maps) > 0 {
		line := maps
		rest := []byte(nil)
		for i, c := range maps {
			if c == '\n' {
				line, rest = maps[:i], maps[i+1:]
				break
			}
		}
		if rest == nil && len(out) > 0 {
			break // a cut-off last line
		}
		maps = rest
		var f [5][]byte
		if fieldsInto(line, f[:]) < len(f) {
			break
		}
		if inode == nil {
			if string(f[4]) == "0" {
				return nil // not a file: no executable to find
			}
			inode = f[4]
		} else if string(f[4]) != string(inode) {
			break
		}
		start, end, ok := addressRange(f[0])
		if !ok || len(f[1]) < 3 {
			break
		}
		out = append(out, mapping{start: start, end: end, executable: f[1][2] == 'x', writable: f[1][1] == 'w'})
	}
	return out
}

// fieldsInto splits a line at spaces into out, returning how many fields
// it filled.
func fieldsInto(line []byte, out [][]byte) int {
	n := 0
	for i := 0; i < len(line) && n < len(out); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if j > i {
			out[n] = line[i:j]
			n++
		}
		i = j
	}
	return n
}

// addressRange parses "start-end" in hexadecimal.
func addressRange(s []byte) (start, end uintptr, ok bool) {
	cur, seenDash := &start, false
	for _, c := range s {
		switch {
		case c == '-' && !seenDash:
			cur, seenDash = &end, true
		case c >= '0' && c <= '9':
			*cur = *cur<<4 | uintptr(c-'0')
		case c >= 'a' && c <= 'f':
			*cur = *cur<<4 | uintptr(c-'a'+10)
		default:
			return 0, 0, false
		}
	}
	return start, end, seenDash && end > start
}
