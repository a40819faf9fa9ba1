//go:build linux && !amd64 && !arm64

package versionflag

import "syscall"

// Elsewhere package syscall makes the calls: its numbers, and an
// initialisation after syscall's.
const (
	sysRead      = syscall.SYS_READ
	sysWrite     = syscall.SYS_WRITE
	sysClose     = syscall.SYS_CLOSE
	sysOpenat    = syscall.SYS_OPENAT
	sysExitGroup = syscall.SYS_EXIT_GROUP
)

func rawSyscall3(trap, a1, a2, a3 uintptr) (r1, errno uintptr) {
	r, _, e := syscall.RawSyscall(trap, a1, a2, a3)
	return r, uintptr(e)
}
