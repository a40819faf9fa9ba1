//go:build !unix

package plugin

import (
	"io"
	"os"
	"os/exec"
	"sync"
)

// process is a started plugin program.
type process struct {
	cmd       *exec.Cmd
	startWait sync.Once
	exited    chan struct{}
	status    string // how it ended, once exited is closed: "exit status 3"
}

// startProcess starts argv in dir with env, its stdin and stdout on the
// given pipe ends and its stderr copied to w (inherited when w is nil).
func startProcess(argv []string, dir string, env []string, stdin, stdout *os.File, w io.Writer) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = stdin
	cmd.Stdout = stdout
	cmd.Stderr = w
	if w == nil {
		cmd.Stderr = os.Stderr
	}
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &process{cmd: cmd, exited: make(chan struct{})}, nil
}

// done is closed once the process has exited and been reaped.
func (p *process) done() <-chan struct{} {
	p.startWait.Do(func() {
		go func() {
			err := p.cmd.Wait()
			p.status = "exit status 0"
			if err != nil {
				p.status = err.Error()
			}
			close(p.exited)
		}()
	})
	return p.exited
}

// kill stops the plugin process.
func (p *process) kill() {
	_ = p.cmd.Process.Kill()
}
