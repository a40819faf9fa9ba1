package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
	"github.com/elemctl/elemctl/internal/plugin/manifest"
	"github.com/elemctl/elemctl/plugin/protocol"
)

// ExitGrace is how long a plugin may take to exit once its answer is in
// and its stdin is closed, before it is killed.
var ExitGrace = 2 * time.Second

// waitDelay is how long the copy of a plugin's stderr may go on after it
// exited (something it started may still hold the pipe).
const waitDelay = time.Second

// host runs the commands of one plugin: a process per call.
type host struct {
	p       *manifest.Plugin
	catalog *command.Catalog
	stderr  io.Writer
	version string
}

func pluginError(ctx context.Context, key string, args ...any) error {
	return platform.NewError(ctx, platform.KindPlugin, key, args...)
}

// argv is the command line that starts the plugin.
func (h *host) argv(ctx context.Context) ([]string, error) {
	argv := []string{h.p.Executable}
	if len(h.p.Interpreter) > 0 {
		var interp string
		for _, name := range h.p.Interpreter {
			if path, err := exec.LookPath(name); err == nil || errors.Is(err, exec.ErrDot) && path != "" {
				interp = path
				break
			}
		}
		if interp == "" {
			return nil, pluginError(ctx, "plugins.interpreter-missing", "source", h.p.Name, "names", strings.Join(h.p.Interpreter, ", "))
		}
		argv = []string{interp, h.p.Executable}
	}
	return append(argv, h.p.Args...), nil
}

// processEnv is elemctl's environment less the client secret: the plugin
// reaches the platform through the host, never with credentials of its own.
func processEnv(p *manifest.Plugin) []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(name, "ELEMENT_CLIENT_SECRET") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "ELEMCTL_PLUGIN_DIR="+p.Dir, "ELEMCTL_PLUGIN_NAME="+p.Name)
}

// event is one thing the reader saw on the plugin's stdout.
type event struct {
	msg  *protocol.Message
	err  error  // the stream ended (io.EOF) or broke
	junk []byte // a line that is not a protocol message
}

// session is one running plugin process.
type session struct {
	h      *host
	proc   *process
	out    *os.File // our end of the plugin's stdout
	in     *os.File // our end of the plugin's stdin
	w      *protocol.Writer
	events chan event
	calls  sync.WaitGroup
}

// run starts the plugin, runs one command and returns its answer. Whatever
// happens, the process is gone and reaped when run returns.
func (h *host) run(ctx context.Context, cc *command.Context, c *manifest.Command, args *jsonx.Object) (any, error) {
	argv, err := h.argv(ctx)
	if err != nil {
		return nil, err
	}
	s, err := h.start(ctx, cc, argv)
	if err != nil {
		return nil, err
	}
	callCtx, cancelCalls := context.WithCancel(ctx)
	answer, err := s.converse(ctx, callCtx, cc, c, args)
	cancelCalls()
	s.stop(err == nil)
	return answer, err
}

func (h *host) start(ctx context.Context, cc *command.Context, argv []string) (*session, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	proc, err := startProcess(argv, cc.Dir, processEnv(h.p), inR, outW, h.stderr)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, pluginError(ctx, "plugins.start-failed", "source", h.p.Name, "program", argv[0], "error", err)
	}
	s := &session{h: h, proc: proc, out: outR, in: inW, w: protocol.NewWriter(inW),
		events: make(chan event, 64)}
	go s.read()
	return s, nil
}

// read turns the plugin's stdout into events until it ends.
func (s *session) read() {
	defer close(s.events)
	r := protocol.NewReader(s.out)
	for {
		line, err := r.ReadLine()
		if err != nil {
			s.events <- event{err: err}
			return
		}
		m, err := protocol.Decode(line)
		if err != nil {
			s.events <- event{junk: line, err: err}
			return
		}
		s.events <- event{msg: m}
	}
}

// stop ends the process: after a clean answer it gets ExitGrace to exit on
// its own once its stdin is closed; otherwise it is killed at once. Either
// way it is reaped before stop returns.
func (s *session) stop(clean bool) {
	s.in.Close()
	if clean {
		select {
		case <-s.proc.done():
		case <-time.After(ExitGrace):
		}
	}
	s.proc.kill()
	<-s.proc.done()
	// A grandchild may still hold the pipe; closing our end frees the
	// reader either way.
	s.out.Close()
	s.calls.Wait()
	go func() {
		for range s.events {
		}
	}()
}

const (
	idInitialize = "1"
	idRun        = "2"
)

func (s *session) converse(ctx, callCtx context.Context, cc *command.Context, c *manifest.Command, args *jsonx.Object) (any, error) {
	p := s.h.p
	features := manifest.Features
	if err := s.w.Request(1, protocol.MethodInitialize, protocol.InitializeParams{
		Protocol: protocol.Version, Host: "elemctl", Version: s.h.version, Features: features,
	}); err != nil {
		return nil, s.broken(ctx, nil)
	}
	timer := time.NewTimer(p.StartupTimeout)
	defer timer.Stop()
	running := false
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			if !running {
				return nil, pluginError(ctx, "plugins.startup-timeout", "source", p.Name, "seconds", seconds(p.StartupTimeout))
			}
			return nil, pluginError(ctx, "plugins.run-timeout", "source", p.Name, "command", c.Name, "seconds", seconds(c.Timeout))
		case ev, ok := <-s.events:
			if !ok {
				return nil, s.broken(ctx, io.EOF)
			}
			if ev.junk != nil {
				return nil, pluginError(ctx, "plugins.garbage", "source", p.Name, "text", quote(ev.junk), "error", ev.err)
			}
			if ev.err != nil {
				return nil, s.broken(ctx, ev.err)
			}
			m := ev.msg
			switch {
			case m.IsNotification():
				var lp protocol.LogParams
				_ = json.Unmarshal(m.Params, &lp)
				switch m.Method {
				case protocol.MethodLog:
					cc.Log(lp.Message)
				case protocol.MethodStatus:
					cc.Status(lp.Message)
				}
			case m.IsRequest():
				if !running {
					_ = s.w.ReplyError(m.ID, &protocol.Error{Code: protocol.CodeInvalidRequest, Message: "no command is running yet"})
					continue
				}
				s.calls.Add(1)
				go func() {
					defer s.calls.Done()
					s.answer(callCtx, cc, m)
				}()
			default:
				id := string(m.ID)
				switch {
				case !running && id == idInitialize:
					if m.Error != nil {
						return nil, pluginError(ctx, "plugins.refused", "source", p.Name, "error", m.Error.Message)
					}
					var res protocol.InitializeResult
					_ = json.Unmarshal(m.Result, &res)
					if res.Protocol > protocol.Version {
						return nil, pluginError(ctx, "plugins.protocol-newer", "source", p.Name, "version", res.Protocol)
					}
					raw, err := jsonx.Compact(args)
					if err != nil {
						return nil, err
					}
					if err := s.w.Request(2, protocol.MethodRun, protocol.RunParams{
						Command: c.Name, Arguments: raw, Surface: string(surfaceOf(cc)), Features: features,
					}); err != nil {
						return nil, s.broken(ctx, nil)
					}
					running = true
					if !timer.Stop() {
						select {
						case <-timer.C:
						default:
						}
					}
					timer.Reset(c.Timeout)
				case running && id == idRun:
					if m.Error != nil {
						return nil, runError(ctx, m.Error)
					}
					v, err := jsonx.Decode(m.Result)
					if err != nil {
						return nil, pluginError(ctx, "plugins.garbage", "source", p.Name, "text", quote(m.Result), "error", err)
					}
					return v, nil
				default:
					return nil, pluginError(ctx, "plugins.protocol-error", "source", p.Name, "error", fmt.Sprintf("an answer to an unknown request %s", id))
				}
			}
		}
	}
}

func surfaceOf(cc *command.Context) command.Surface {
	if cc.Surface == "" {
		return command.CLI
	}
	return cc.Surface
}

// broken explains why the conversation ended early: the plugin exited (or
// closed its stdout) before answering.
func (s *session) broken(ctx context.Context, err error) error {
	p := s.h.p
	if err != nil && !errors.Is(err, io.EOF) {
		if errors.Is(err, protocol.ErrLineTooLong) {
			return pluginError(ctx, "plugins.protocol-error", "source", p.Name, "error", err)
		}
	}
	select {
	case <-s.proc.done():
	case <-time.After(500 * time.Millisecond):
		return pluginError(ctx, "plugins.closed-stdout", "source", p.Name)
	}
	return pluginError(ctx, "plugins.exited-early", "source", p.Name, "status", s.proc.status)
}

// runError is the error a plugin answered "run" with. An elemctl error
// object in its data (a failed host call passed on) keeps its shape.
func runError(ctx context.Context, e *protocol.Error) error {
	if len(e.Data) > 0 {
		if v, err := jsonx.Decode(e.Data); err == nil {
			if o, ok := v.(*jsonx.Object); ok && o.Str("error") != "" {
				ae := &platform.APIError{Message: o.Str("error"), Method: o.Str("method"), URL: o.Str("url"), Body: o.Value("body"), Hint: o.Str("hint")}
				if n, ok := o.Int("status"); ok {
					ae.Status = int(n)
				}
				if ae.Status != 0 || ae.Method != "" || ae.URL != "" || ae.Body != nil || ae.Hint != "" {
					return ae
				}
				return &platform.Error{Kind: platform.KindPlugin, Message: ae.Message}
			}
		}
	}
	msg := e.Message
	if strings.TrimSpace(msg) == "" {
		msg = i18n.T(ctx, "plugins.failed-no-message", "code", e.Code)
	}
	return &platform.Error{Kind: platform.KindPlugin, Message: msg}
}

func seconds(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".")
}

// quote shows the start of what the plugin wrote.
func quote(b []byte) string {
	s := string(b)
	if len([]rune(s)) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
