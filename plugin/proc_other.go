//go:build !unix

package plugin

import "os/exec"

// isolate has nothing to add where process groups are not POSIX ones.
func isolate(cmd *exec.Cmd) {}

// kill stops the plugin process.
func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
