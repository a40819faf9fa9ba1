//go:build windows

package dap

import (
	"os"
	"testing"
)

// assertProcessGone checks that pid can no longer be opened.
func assertProcessGone(t *testing.T, pid int) {
	t.Helper()
	if p, err := os.FindProcess(pid); err == nil {
		p.Release()
		t.Errorf("adapter process %d is still there", pid)
	}
}
