//go:build windows

package dap

import (
	"os/exec"
	"syscall"

	"github.com/elemctl/elemctl/internal/proctree"
)

// beforeStart keeps the JVM from opening a console window.
func beforeStart(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
}

// underReaper does nothing on Windows: the job object already ends the
// whole tree with the proxy.
func underReaper(*exec.Cmd, string) {}

// afterStart puts the started adapter into a job object (see proctree):
// the JVM and whatever it starts end with the proxy, however the proxy
// ends. stop terminates the job; release closes it once the adapter
// exited. A job that cannot be made leaves stop to kill the adapter alone.
func afterStart(cmd *exec.Cmd) (stop, release func(), err error) {
	t, err := proctree.Adopt(cmd)
	return t.Kill, t.Release, err
}
