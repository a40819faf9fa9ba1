//go:build unix

package plugin

import (
	"os/exec"
	"syscall"
)

// isolate starts the plugin in its own process group, so stopping it also
// stops whatever it started (a shell wrapper's child, an interpreter's
// worker) and a Ctrl-C in the terminal reaches elemctl, which decides.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// kill stops the plugin's whole process group.
func kill(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
