//go:build !unix && !windows

package proctree

import "os/exec"

// Prepare does nothing where there are neither process groups nor jobs.
func Prepare(*exec.Cmd) {}

// Adopt returns a tree whose Kill kills the program alone.
func Adopt(cmd *exec.Cmd) (*Tree, error) { return &Tree{cmd: cmd}, nil }
