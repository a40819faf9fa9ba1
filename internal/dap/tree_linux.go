//go:build linux

package dap

import (
	"os/exec"
	"syscall"

	"github.com/elemctl/elemctl/internal/proctree"
)

// beforeStart ties the adapter about to start to the proxy's life: the
// kernel kills it when the proxy dies, however it dies (SIGKILL
// included), and it leads a process group of its own, so whatever the JVM
// starts is stopped with it. The parent-death signal follows the thread
// that started the child; startAdapter keeps that thread for the child's
// whole life.
func beforeStart(cmd *exec.Cmd) {
	proctree.Prepare(cmd)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// underReaper starts the adapter under the reaper (elemctl itself, see
// RunReaper) when there is one. The parent-death signal alone ends the
// JVM, not what the JVM started: those would outlive a proxy killed
// outright, adopted by init. The reaper leads the adapter's process group
// instead and gets the parent-death signal as SIGTERM, which it answers by
// killing the whole group; the proxy's own stop kills that group as
// before.
func underReaper(cmd *exec.Cmd, reaper string) {
	if reaper == "" {
		return
	}
	cmd.Args = append([]string{reaper, ReaperArg, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = reaper
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}

// afterStart returns how to stop the adapter's process group and what to
// release once it exited.
func afterStart(cmd *exec.Cmd) (stop, release func(), err error) {
	t, err := proctree.Adopt(cmd)
	return t.Kill, t.Release, err
}
