//go:build linux

package versionflag

import "syscall"

// On Linux the arguments are read from /proc/self/cmdline: package os,
// which holds them otherwise, initialises late (after the whole crypto
// stack that net/http pulls in), and importing it would hold this package
// back as long. Anything unexpected leaves --version to the CLI.
func init() {
	earlyArgs, earlyArgsOK = commandLine()
	if earlyArgsOK && Asked(earlyArgs) {
		line := Line()
		syscall.Write(1, []byte(line))
		syscall.Exit(0)
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

// commandLine is the program's arguments after its name.
func commandLine() ([]string, bool) {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, len(buf))...)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
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
