//go:build unix && !linux

package dap

import (
	"os/exec"

	"github.com/elemctl/elemctl/internal/proctree"
)

// beforeStart puts the adapter about to start into a process group of its
// own, so whatever the JVM starts is stopped with it. These systems (macOS
// among them) have no parent-death signal: when the proxy is killed
// outright, the JVM is left to notice that its stdin, the proxy's pipe,
// has closed, which ends the platform's adapter. Every other ending of the
// proxy (disconnect, the client leaving, SIGINT, SIGTERM, SIGHUP) stops the
// group itself.
func beforeStart(cmd *exec.Cmd) { proctree.Prepare(cmd) }

// underReaper does nothing here: without a parent-death signal a reaper
// would not learn of the proxy's death either.
func underReaper(*exec.Cmd, string) {}

// afterStart returns how to stop the adapter's process group and what to
// release once it exited.
func afterStart(cmd *exec.Cmd) (stop, release func(), err error) {
	t, err := proctree.Adopt(cmd)
	return t.Kill, t.Release, err
}
