//go:build unix

package proctree

import (
	"os/exec"
	"syscall"
)

// Prepare makes the command, before it starts, lead a process group of
// its own: what it starts joins that group, and a Ctrl-C in the terminal
// reaches elemctl alone, which decides.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Adopt returns the tree of a command Prepare set up and that started.
// The group's id stays reserved while it has members, so after the program
// was reaped a kill reaches only what it left behind.
func Adopt(cmd *exec.Cmd) (*Tree, error) {
	pid := cmd.Process.Pid
	return &Tree{cmd: cmd, kill: func() error { return syscall.Kill(-pid, syscall.SIGKILL) }}, nil
}
