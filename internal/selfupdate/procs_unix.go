//go:build linux || darwin

package selfupdate

import (
	"syscall"
	"time"
)

// signalStop sends SIGTERM – elemctl's servers end cleanly on it – and
// SIGKILL to a process that still runs after grace.
func signalStop(pid int, grace time.Duration, running func(int) bool) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if err == syscall.ESRCH {
			return nil
		}
		return err
	}
	if waitGone(pid, grace, running) {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return err
	}
	waitGone(pid, 2*time.Second, running)
	return nil
}

func waitGone(pid int, limit time.Duration, running func(int) bool) bool {
	deadline := time.Now().Add(limit)
	for running(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
