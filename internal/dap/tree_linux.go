//go:build linux

package dap

import (
	"os/exec"
	"syscall"
)

// beforeStart ties the adapter about to start to the proxy's life: the
// kernel kills it when the proxy dies, however it dies (SIGKILL
// included), and it leads a process group of its own, so whatever the JVM
// starts is stopped with it. The parent-death signal follows the thread
// that started the child; startAdapter keeps that thread for the child's
// whole life.
func beforeStart(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// afterStart returns how to stop the adapter's process group and what to
// release once it exited.
func afterStart(cmd *exec.Cmd) (stop, release func(), err error) {
	return func() { killGroup(cmd) }, func() {}, nil
}
