//go:build unix

package plugin

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is a started plugin program. On Unix it is forked directly
// rather than through os/exec, which before its first start in a process
// checks pidfd support by forking a throwaway child: for the CLI, which
// starts one plugin per run, that is a millisecond of every plugin call on
// a virtual machine.
type process struct {
	pid    int
	stderr *os.File // our end of the plugin's stderr, nil when inherited
	copied chan struct{}

	startWait sync.Once
	exited    chan struct{}
	status    string // how it ended, once exited is closed: "exit status 3"

	mu   sync.Mutex
	gone bool // it has exited: its pid may be another process's soon
}

// startProcess starts argv in dir with env, its stdin and stdout on the
// given pipe ends and its stderr copied to w (handed over when w is a file,
// elemctl's own stderr when w is nil, as os/exec does). It gets a process
// group of its own, so stopping it also stops whatever it started (a shell
// wrapper's child, an interpreter's worker), and a Ctrl-C in the terminal
// reaches elemctl, which decides.
func startProcess(argv []string, dir string, env []string, stdin, stdout *os.File, w io.Writer) (*process, error) {
	path := argv[0]
	if !strings.Contains(path, "/") {
		found, err := exec.LookPath(path)
		if err != nil {
			return nil, err
		}
		path = found
	}
	p := &process{exited: make(chan struct{})}
	var stderrFd uintptr
	var stderrW *os.File
	if w == nil {
		stderrFd = os.Stderr.Fd()
	} else if f, ok := w.(*os.File); ok {
		stderrFd = f.Fd()
	} else {
		r, wr, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		p.stderr, stderrW, stderrFd = r, wr, wr.Fd()
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Dir:   dir,
		Env:   env,
		Files: []uintptr{stdin.Fd(), stdout.Fd(), stderrFd},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if stderrW != nil {
		stderrW.Close()
	}
	if err != nil {
		if p.stderr != nil {
			p.stderr.Close()
		}
		return nil, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	p.pid = pid
	if p.stderr != nil {
		p.copied = make(chan struct{})
		go func() {
			defer close(p.copied)
			_, _ = io.Copy(w, p.stderr)
		}()
	}
	return p, nil
}

// done is closed once the process has exited and been reaped. The reaping
// goroutine starts on the first call: until a session needs to know, no
// thread sits blocked in wait4.
func (p *process) done() <-chan struct{} {
	p.startWait.Do(func() { go p.reap() })
	return p.exited
}

func (p *process) reap() {
	if awaitExit(p.pid) {
		// The plugin is gone, still unreaped; whatever it left running in
		// its group goes too, now rather than after the stderr copy times
		// out on it.
		p.mu.Lock()
		p.gone = true
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		p.mu.Unlock()
	}
	var ws syscall.WaitStatus
	var err error
	for {
		_, err = syscall.Wait4(p.pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	p.mu.Lock()
	if !p.gone {
		// Reaped without waiting first (not Linux): the group's id stays
		// reserved while it has members, so its leftovers can still go.
		p.gone = true
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	}
	p.mu.Unlock()
	switch {
	case err != nil:
		p.status = "wait: " + err.Error()
	case ws.Exited():
		p.status = fmt.Sprintf("exit status %d", ws.ExitStatus())
	case ws.Signaled():
		p.status = "signal: " + ws.Signal().String()
	default:
		p.status = fmt.Sprintf("wait status %#x", uint32(ws))
	}
	if p.stderr != nil {
		// Something the plugin started may still hold its stderr; give the
		// copy a moment to finish, then stop it.
		select {
		case <-p.copied:
		case <-time.After(waitDelay):
		}
		p.stderr.Close()
		<-p.copied
	}
	close(p.exited)
}

// kill stops the plugin's whole process group, unless it has exited (its
// leftovers are stopped then, see reap).
func (p *process) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return
	}
	if err := syscall.Kill(-p.pid, syscall.SIGKILL); err != nil {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}
