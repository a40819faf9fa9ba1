//go:build linux

package versionflag

// On Linux the arguments are read from /proc/self/cmdline: package os,
// which holds them otherwise, initialises late (after the whole crypto
// stack that net/http pulls in), and importing it would hold this package
// back as long. On amd64 and arm64 the system calls are made without
// package syscall too (sys_linux_*.s): Go initialises the packages that
// sort before syscall and are ready first (internal/godebug, hash/crc32,
// encoding/base64, crypto, ...), a millisecond of a --version. Anything
// unexpected leaves --version to the CLI.
func init() {
	earlyArgs, earlyArgsOK = commandLine()
	if earlyArgsOK && Asked(earlyArgs) {
		line := []byte(Line())
		for len(line) > 0 {
			n, errno := rawSyscall3(sysWrite, 1, bufAddr(line), uintptr(len(line)))
			if errno == errEINTR {
				continue
			}
			if errno != 0 {
				break
			}
			line = line[n:]
		}
		rawSyscall3(sysExitGroup, 0, 0, 0)
	}
}

// earlyArgs is the command line as read in init, for EarlyArgs.
var (
	earlyArgs   []string
	earlyArgsOK bool
)

// EarlyArgs is the program's arguments after its name, for other packages
// that act during initialisation; false when they could not be read.
func EarlyArgs() ([]string, bool) { return earlyArgs, earlyArgsOK }

const (
	atFDCWD   = ^uintptr(99) // -100: the current directory
	oRDONLY   = 0x0
	oCLOEXEC  = 0x80000
	errEINTR  = 4
	cmdlineAt = "/proc/self/cmdline\x00"
)

// commandLine is the program's arguments after its name.
func commandLine() ([]string, bool) {
	path := []byte(cmdlineAt)
	fd, errno := rawSyscall3(sysOpenat, atFDCWD, bufAddr(path), oRDONLY|oCLOEXEC)
	if errno != 0 {
		return nil, false
	}
	defer rawSyscall3(sysClose, fd, 0, 0)
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
		}
		free := buf[len(buf):cap(buf)]
		n, errno := rawSyscall3(sysRead, fd, bufAddr(free), uintptr(len(free)))
		if errno == errEINTR {
			continue
		}
		if errno != 0 {
			return nil, false
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+int(n)]
	}
	// NUL-terminated words; the first is the program.
	var words []string
	start := 0
	for i, c := range buf {
		if c == 0 {
			words = append(words, string(buf[start:i]))
			start = i + 1
		}
	}
	if len(words) == 0 {
		return nil, false
	}
	return words[1:], true
}
