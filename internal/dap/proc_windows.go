//go:build windows

package dap

import (
	"os/exec"
	"syscall"
)

// hideWindow keeps the JVM from opening a console window.
func hideWindow(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
}
