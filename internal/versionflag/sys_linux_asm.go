//go:build linux && (amd64 || arm64)

package versionflag

// rawSyscall3 makes a Linux system call directly (sys_linux_*.s), as
// syscall.RawSyscall does, without importing package syscall.
func rawSyscall3(trap, a1, a2, a3 uintptr) (r1, errno uintptr)
