//go:build linux

package prefault

import (
	"syscall"
	"unsafe"
)

const (
	madvHugePage      = 14
	madvPopulateRead  = 22
	madvPopulateWrite = 23
	madvCollapse      = 25

	hugePage = 2 << 20
)

// Program maps the executable's code and its writable data, and backs the
// part of the Go heap that allocation goes on into with a huge page. It
// reads where they are from /proc/self/maps, and imports only syscall (and
// unsafe), so it can run from the first packages to initialise.
func Program() {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	buf := make([]byte, 8192) // the executable and the heap come first
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return
	}
	maps := buf[:n]
	for _, m := range executableMappings(maps) {
		if m.executable || m.writable {
			populate(m)
		}
	}
	if !hugePagesDisabled() {
		heapAnchor = new([64]byte)
		if from, to, ok := hugePageSpan(maps, uintptr(unsafe.Pointer(heapAnchor))); ok {
			collapse(from, to)
		}
	}
}

// heapAnchor is an allocation whose address tells where the heap is.
var heapAnchor *[64]byte

// hugePageSpan is the stretch of whole, aligned huge pages in the mapping
// that holds addr, from the one holding addr on: the heap allocates
// upwards from there.
func hugePageSpan(maps []byte, addr uintptr) (from, to uintptr, ok bool) {
	for len(maps) > 0 {
		var line []byte
		line, maps = cut(maps, '\n')
		var f [1][]byte
		if fieldsInto(line, f[:]) == 0 {
			continue
		}
		start, end, valid := addressRange(f[0])
		if !valid || addr < start || addr >= end {
			continue
		}
		from = addr &^ (hugePage - 1)
		if from < start {
			from += hugePage
		}
		to = end &^ (hugePage - 1)
		if to <= from {
			return 0, 0, false
		}
		return from, to, true
	}
	return 0, 0, false
}

// collapse backs [from, to) with huge pages now (MADV_COLLAPSE, Linux 6.1):
// a short run of elemctl takes a page fault per 4 KiB of heap it touches
// otherwise, some hundred of them, each dear on a virtual machine.
// It answers the system's refusal, if any (an older kernel, huge pages
// turned off), which leaves the heap as it was.
func collapse(from, to uintptr) syscall.Errno {
	syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvHugePage)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvCollapse)
	return errno
}

// hugePagesDisabled honours GODEBUG=disablethp=1, the Go runtime's own
// switch for keeping the heap off huge pages.
func hugePagesDisabled() bool {
	v, _ := syscall.Getenv("GODEBUG")
	rest := []byte(v)
	for len(rest) > 0 {
		var item []byte
		item, rest = cut(rest, ',')
		if string(item) == "disablethp=1" {
			return true
		}
	}
	return false
}

// cut splits s at the first sep: before it, and after it (nil when s has
// no sep, empty when sep ends s).
func cut(s []byte, sep byte) (before, after []byte) {
	for i, c := range s {
		if c == sep {
			return s[:i], s[i+1:]
		}
	}
	return s, nil
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
		line, rest := cut(maps, '\n')
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
