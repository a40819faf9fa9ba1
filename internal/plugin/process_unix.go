//go:build unix

package plugin

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup stops every process of the group the plugin leads. The group's
// id stays reserved while it has members, so after the plugin was reaped
// this reaches only what it left behind.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
