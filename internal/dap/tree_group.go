//go:build unix

package dap

import (
	"os/exec"
	"syscall"
)

// killGroup kills the adapter's process group, or the adapter alone when
// the group cannot be signalled.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
