//go:build linux

package prefault

import (
	"syscall"
	"time"
	"unsafe"
)

const (
	madvHugePage      = 14
	madvPopulateRead  = 22
	madvPopulateWrite = 23
	madvCollapse      = 25

	hugePage = 2 << 20

	// faultWindow is the stretch a fault on file-backed code maps with its
	// page (the kernel's fault-around, 64 KiB by default): probes are set
	// further apart, so each takes a fault of its own unless faults map
	// more (large folios). Then later probes find their page mapped and
	// take next to no time, which is right: so do the first touches that
	// populating would spare.
	faultWindow = 64 << 10
	// probes is how many first touches of code are timed.
	probes = 5
	// dearFault is the median first touch from which mapping all code in
	// ahead pays. Measured: 4–6 µs on a virtual machine with nested paging,
	// where populating costs a short run some 0.7 ms more than it saves;
	// tens of µs on one that exits to its hypervisor on faults, where
	// populating code and data saved about 1 ms of a plugin round trip.
	dearFault = 8 * time.Microsecond
)

// Program maps the executable's writable data in, its code too where page
// faults are dear, and backs the part of the Go heap that allocation goes
// on into with a huge page. It reads where they are from /proc/self/maps,
// and imports only syscall and time (and unsafe), so it can run from the
// first packages to initialise.
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
		if m.writable || m.executable && faultsDear(m) {
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

// faultsDear tells whether mapping all of m in ahead pays. Populating walks
// every page of it, most of which a short run never reaches; that pays
// only where each fault is dear. It times the first touch of a few pages
// of m's later half, which start-up has not reached yet (the linker lays
// packages out dependencies first, the program's own last).
func faultsDear(m mapping) bool {
	addrs, ok := probeAddresses(m)
	if !ok || !m.readable {
		return false
	}
	var took [probes]time.Duration
	for i, addr := range addrs {
		start := time.Now()
		touch(addr)
		took[i] = time.Since(start)
	}
	return median(took) >= dearFault
}

// probeAddresses spreads the probes over the later half of m, a fault
// window or more apart; a mapping too small for that is not probed.
func probeAddresses(m mapping) (addrs [probes]uintptr, ok bool) {
	half := (m.end - m.start) / 2
	step := half / probes &^ (faultWindow - 1)
	if step < faultWindow {
		return addrs, false
	}
	for i := range addrs {
		addrs[i] = m.start + half&^(faultWindow-1) + uintptr(i)*step
	}
	return addrs, true
}

// probeSink keeps the probes' reads from being left out.
var probeSink byte

// touch reads the byte at addr, an address in a mapping of the program's
// own, so the page gets mapped if it is not.
func touch(addr uintptr) {
	probeSink += **(**byte)(unsafe.Pointer(&addr))
}

func median(took [probes]time.Duration) time.Duration {
	for i := 1; i < len(took); i++ {
		for j := i; j > 0 && took[j] < took[j-1]; j-- {
			took[j], took[j-1] = took[j-1], took[j]
		}
	}
	return took[len(took)/2]
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
	start, end                     uintptr
	readable, executable, writable bool
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
		out = append(out, mapping{start: start, end: end, readable: f[1][0] == 'r', executable: f[1][2] == 'x', writable: f[1][1] == 'w'})
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
