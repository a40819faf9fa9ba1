package plugin

import (
	"syscall"
	"unsafe"
)

// awaitExit blocks until process pid has exited, leaving it unreaped: as a
// zombie it keeps its process group's id reserved, so the group can still
// be killed safely. It reports whether it could wait that way.
func awaitExit(pid int) bool {
	const pPID = 1     // idtype P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])),
			syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return errno == 0
		}
	}
}
