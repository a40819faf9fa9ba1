//go:build !windows

package dap

import (
	"errors"
	"syscall"
	"testing"
)

// assertProcessGone checks that pid is neither running nor a zombie: a
// zombie still accepts signal 0, a reaped process does not exist.
func assertProcessGone(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("adapter process %d is still there (kill 0: %v)", pid, err)
	}
}
