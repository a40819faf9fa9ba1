//go:build !windows

package dap

import "os/exec"

func hideWindow(*exec.Cmd) {}
