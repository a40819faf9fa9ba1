// Package proctree keeps a started program and whatever it starts
// together, so that stopping it stops all of them: a process group of its
// own on Unix, a job object on Windows (which also ends the tree when
// elemctl itself ends, however it ends). The debug adapter and plugins run
// this way.
package proctree

import "os/exec"

// Tree is a started program's process tree.
type Tree struct {
	cmd  *exec.Cmd
	kill func() error
	free func()
}

// Kill stops every process of the tree at once. After the program exited
// and was reaped it reaches only what it left running.
func (t *Tree) Kill() {
	if t.kill == nil || t.kill() != nil {
		if t.cmd.Process != nil {
			_ = t.cmd.Process.Kill()
		}
	}
}

// Release frees what ties the tree to elemctl; call it once the program
// exited and its leftovers were killed.
func (t *Tree) Release() {
	if t.free != nil {
		t.free()
	}
}
