package plugin

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/elemctl/elemctl/internal/proctree"
)

// process is a started plugin program.
type process struct {
	cmd    *exec.Cmd
	stderr *os.File // our end of the plugin's stderr, nil when handed over
	copied chan struct{}

	startWait sync.Once
	exited    chan struct{}
	status    string // how it ended, once exited is closed: "exit status 3"

	mu   sync.Mutex
	gone bool // it has exited and been reaped
	// tree is the plugin with whatever it started: its process group on
	// Unix, its job object on Windows.
	tree *proctree.Tree
}

// startProcess starts argv in dir with env, its stdin and stdout on the
// given pipe ends and its stderr copied to w (handed over when w is a file,
// elemctl's own stderr when w is nil). It leads a process tree of its own
// (see proctree: a process group on Unix, a job object on Windows), so
// stopping it also stops whatever it started (a shell wrapper's child, an
// interpreter's worker), and on Unix a Ctrl-C in the terminal reaches
// elemctl, which decides.
func startProcess(argv []string, dir string, env []string, stdin, stdout *os.File, w io.Writer) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin, cmd.Stdout = stdin, stdout
	proctree.Prepare(cmd)
	p := &process{cmd: cmd, exited: make(chan struct{})}
	var stderrW *os.File
	switch f, isFile := w.(*os.File); {
	case w == nil:
		cmd.Stderr = os.Stderr
	case isFile:
		cmd.Stderr = f
	default:
		// Our own pipe and copy, so that waiting for the plugin never
		// waits for something it left holding the pipe.
		r, wr, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		p.stderr, stderrW, cmd.Stderr = r, wr, wr
	}
	err := cmd.Start()
	if stderrW != nil {
		stderrW.Close()
	}
	if err != nil {
		if p.stderr != nil {
			p.stderr.Close()
		}
		return nil, err
	}
	// A tree that cannot be made (a job object refused) still kills the
	// plugin itself.
	p.tree, _ = proctree.Adopt(cmd)
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
// goroutine starts on the first call.
func (p *process) done() <-chan struct{} {
	p.startWait.Do(func() { go p.reap() })
	return p.exited
}

func (p *process) reap() {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.gone = true
	// Whatever the plugin left running in its tree goes too, now rather
	// than after the stderr copy gives up on it.
	p.tree.Kill()
	p.tree.Release()
	p.mu.Unlock()
	p.status = "exit status 0"
	if err != nil {
		p.status = err.Error()
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

// kill stops the plugin and its process group, unless it has exited (its
// leftovers are stopped then, see reap).
func (p *process) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return
	}
	p.tree.Kill()
	_ = p.cmd.Process.Kill()
}
