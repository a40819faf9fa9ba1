//go:build !unix

package plugin

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing where there are no process groups; the plugin
// itself is killed by its process handle.
func killGroup(int) {}
