package dap

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// proxy is one debug session: the client on our stdio, the adapter on its.
type proxy struct {
	opts    Options
	stderr  *lockedWriter
	client  *frameWriter // frames to the client (our stdout)
	seq     atomic.Int64 // seqs of messages the proxy originates
	vars    *variableFix
	secrets *secrets

	adapter     *adapterProcess // owned by the client loop
	startErr    string          // owned by the client loop
	started     chan *adapterProcess
	startFailed atomic.Bool

	clientGone    atomic.Bool
	sawTerminated atomic.Bool
	sawDisconnect atomic.Bool
	// disconnected is closed at the client's first disconnect request.
	disconnected   chan struct{}
	disconnectOnce sync.Once

	// lang is the language of the session's messages: the one elemctl
	// started with, or the client's once its initialize names a locale.
	lang atomic.Value // i18n.Lang
}

func newProxy(ctx context.Context, opts Options) *proxy {
	p := &proxy{
		opts:    opts,
		stderr:  &lockedWriter{w: opts.Stderr},
		client:  newFrameWriter(opts.Stdout),
		vars:    newVariableFix(),
		secrets: &secrets{},
		started: make(chan *adapterProcess, 1),

		disconnected: make(chan struct{}),
	}
	base := syntheticSeqBase
	if len(opts.JVMArgs) > 0 {
		base = standInSeqBase
	}
	p.seq.Store(int64(base) - 1)
	p.lang.Store(i18n.LangOf(ctx))
	return p
}

// withLang is ctx in the language of the session's messages.
func (p *proxy) withLang(ctx context.Context) context.Context {
	return i18n.WithLang(ctx, p.lang.Load().(i18n.Lang))
}

func (p *proxy) nextSeq() int { return int(p.seq.Add(1)) }

// logf writes a localized diagnostic line to stderr, secrets masked.
func (p *proxy) logf(ctx context.Context, key string, args ...any) {
	p.logText(i18n.T(p.withLang(ctx), key, args...))
}

func (p *proxy) logText(text string) {
	fmt.Fprintf(p.stderr, "elemctl dap: %s\n", p.secrets.redact(text))
}

// clientLoop reads the client until its stream ends.
func (p *proxy) clientLoop(ctx context.Context) {
	p.relayLoop(ctx, p.opts.Stdin, "dap.side-client", func(env envelope, body []byte) { p.fromClient(ctx, env, body) })
}

// relayLoop reads the frames of one side (side names it in the log) until
// its stream ends and hands each message to handle. A frame that is not a
// message is dropped and said; a message whose handling panics is said,
// and the next one read.
func (p *proxy) relayLoop(ctx context.Context, r io.Reader, side string, handle func(envelope, []byte)) {
	fr := newFrameReader(r)
	fr.onDropped = func() { p.logf(ctx, "dap.dropped-header", "side", i18n.T(p.withLang(ctx), side)) }
	for {
		body, err := fr.next()
		if err != nil {
			return
		}
		env, err := peek(body)
		if err != nil {
			p.logf(ctx, "dap.dropped-frame", "side", i18n.T(p.withLang(ctx), side), "size", len(body))
			continue
		}
		func() {
			defer p.recoverMessage(ctx, side, env)
			handle(env, body)
		}()
	}
}

// recoverMessage, deferred around the handling of one message, turns a
// panic there into the loss of that message only, as delve's DAP server
// does per request: the panic is logged with its stack, and the request
// the message is, or the client's request it answers, gets an
// ErrorResponse. The log shows the panic's text only when the Go runtime
// wrote it (an index out of range, a nil dereference): any other value
// may hold what the message carried, a debug token the proxy has not seen
// yet included, so only its type is shown.
func (p *proxy) recoverMessage(ctx context.Context, side string, env envelope) {
	r := recover()
	if r == nil {
		return
	}
	ctx = p.withLang(ctx)
	what := env.Command
	if env.Type == "event" {
		what = env.Event
	}
	p.logText(i18n.T(ctx, "dap.panic", "side", i18n.T(ctx, side), "type", env.Type, "message", what, "seq", env.Seq,
		"panic", panicText(ctx, r)) + "\n" + string(debug.Stack()))
	switch {
	case env.Type == "request" && side == "dap.side-client":
		p.replyError(env, i18n.T(ctx, "dap.panic-reply", "command", env.Command))
	case env.Type == "response" && side == "dap.side-adapter" && env.RequestSeq < syntheticSeqBase:
		p.replyError(envelope{Seq: env.RequestSeq, Command: env.Command}, i18n.T(ctx, "dap.panic-reply", "command", env.Command))
	}
}

// panicText is what the log may show of a recovered value.
func panicText(ctx context.Context, r any) string {
	if err, ok := r.(runtime.Error); ok {
		return err.Error()
	}
	return i18n.T(ctx, "dap.panic-withheld", "type", fmt.Sprintf("%T", r))
}

func (p *proxy) fromClient(ctx context.Context, env envelope, body []byte) {
	isRequest := env.Type == "request"
	if isRequest && env.Command == "initialize" && p.opts.AdoptClientLocale {
		p.adoptClientLocale(body)
	}
	ctx = p.withLang(ctx)
	if isRequest && env.Command == "initialize" && p.adapter == nil {
		ad, err := p.startAdapter(ctx)
		if err != nil {
			p.startFailed.Store(true)
			p.startErr = err.Error()
			p.logText(err.Error())
			p.replyError(env, err.Error())
			return
		}
		p.startFailed.Store(false)
		p.adapter = ad
		p.started <- ad
	}
	ad := p.adapter
	if ad == nil {
		if isRequest {
			p.answerWithoutAdapter(ctx, env)
		}
		return
	}
	if isRequest {
		switch env.Command {
		case "attach":
			p.forwardAttach(ctx, ad, env, body)
			return
		case "variables":
			if frames := p.vars.rewrite(body, p.nextSeq); frames != nil {
				for _, f := range frames {
					_ = ad.in.write(f)
				}
				return
			}
		case "disconnect", "terminate":
			p.sawDisconnect.Store(true)
		}
	}
	_ = ad.in.write(body) // a dead adapter is noticed when its stdout ends
	if isRequest && env.Command == "disconnect" {
		p.clientDisconnected()
	}
}

// clientDisconnected starts the end of the session (see Run).
func (p *proxy) clientDisconnected() {
	p.disconnectOnce.Do(func() { close(p.disconnected) })
}

// answerWithoutAdapter keeps a client that goes on after a failed start
// from waiting forever: disconnect succeeds, anything else fails.
func (p *proxy) answerWithoutAdapter(ctx context.Context, env envelope) {
	if env.Command == "disconnect" || env.Command == "terminate" {
		p.replySuccess(env)
		if env.Command == "disconnect" {
			p.clientDisconnected()
		}
		return
	}
	msg := p.startErr
	if msg == "" {
		msg = i18n.T(ctx, "dap.not-initialized")
	}
	p.replyError(env, msg)
}

func (p *proxy) forwardAttach(ctx context.Context, ad *adapterProcess, env envelope, body []byte) {
	plan := p.prepareAttach(ctx, body)
	if plan.body == nil {
		p.logText(plan.errMsg)
		p.replyError(env, plan.errMsg)
		return
	}
	_ = ad.in.write(plan.body)
	for _, w := range plan.warnings {
		p.logText(w)
		p.sendOutput("console", w+"\n")
	}
	if plan.url != "" {
		p.sendOutput("console", i18n.T(ctx, "dap.debuggee-url", "url", plan.url)+"\n")
		p.sendDebuggeeURL(plan)
	}
}

// adapterProcess is the running Java adapter.
type adapterProcess struct {
	cmd      *exec.Cmd
	in       *frameWriter
	stdin    io.Closer
	done     chan struct{} // closed once it exited and its output is relayed
	exitCode int
	closeIn  sync.Once
	// stop kills the adapter and whatever it started (its process group,
	// or its job object on Windows); release frees what ties it to the
	// proxy once it exited. Both are set right after the start.
	stop, release func()
}

func (a *adapterProcess) closeInput() { a.closeIn.Do(func() { _ = a.stdin.Close() }) }

func (a *adapterProcess) kill() { a.stop() }

// drainTimeout bounds how long the adapter's pipes are read after it
// exited; a grandchild that inherited them must not keep us alive.
const drainTimeout = time.Second

// findAdapter resolves the adapter directory and the JVM.
func (p *proxy) findAdapter(ctx context.Context) (dir, java string, err error) {
	if dir, err = findAdapterDir(ctx, &p.opts); err != nil {
		return "", "", err
	}
	if java, err = findJava(ctx, &p.opts); err != nil {
		return "", "", err
	}
	return dir, java, nil
}

// adapterCommand is the JVM and the argument vector to start it with: the
// vector the editor gave when elemctl stands in for java, else the one
// built from the adapter directory.
func (p *proxy) adapterCommand(ctx context.Context) (java string, args []string, err error) {
	if len(p.opts.JVMArgs) > 0 {
		if java, err = standInJava(ctx, &p.opts); err != nil {
			return "", nil, err
		}
		p.logf(ctx, "dap.stand-in-java", "java", java)
		return java, append([]string(nil), p.opts.JVMArgs...), nil
	}
	dir, java, err := p.findAdapter(ctx)
	if err != nil {
		return "", nil, err
	}
	return java, AdapterArgs(dir), nil
}

func (p *proxy) startAdapter(ctx context.Context) (*adapterProcess, error) {
	java, args, err := p.adapterCommand(ctx)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(java, args...)
	if len(p.opts.JVMArgs) > 0 {
		markStandIn(cmd)
	}
	beforeStart(cmd)
	underReaper(cmd, p.opts.Reaper)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW

	ad := &adapterProcess{cmd: cmd, in: newFrameWriter(stdin), stdin: stdin, done: make(chan struct{})}
	stdoutDone := make(chan struct{})
	stderrDone := make(chan struct{})
	started := make(chan error, 1)
	guarded := make(chan struct{}) // closed once stop and release are set
	go func() {
		// The thread that starts the adapter stays until it exited: on
		// Linux its parent-death signal follows that thread, not the
		// process, and must not fire while the proxy lives.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		for _, pipe := range []struct {
			done <-chan struct{}
			r    *os.File
		}{{stdoutDone, outR}, {stderrDone, errR}} {
			select {
			case <-pipe.done:
			case <-time.After(drainTimeout):
				pipe.r.Close()
				<-pipe.done
			}
			pipe.r.Close()
		}
		<-guarded
		ad.release()
		ad.exitCode = cmd.ProcessState.ExitCode()
		if ad.exitCode < 0 { // killed by a signal
			ad.exitCode = 1
		}
		p.adapterExited(ctx, ad)
		close(ad.done)
	}()
	if err := <-started; err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		return nil, &startError{i18n.T(ctx, "dap.adapter-start-failed", "java", java, "error", err.Error())}
	}
	outW.Close()
	errW.Close()
	var guardErr error
	ad.stop, ad.release, guardErr = afterStart(cmd)
	close(guarded)
	if guardErr != nil {
		p.logf(ctx, "dap.adapter-unguarded", "error", guardErr)
	}
	go func() {
		p.adapterLoop(ctx, outR)
		close(stdoutDone)
	}()
	go func() {
		copyRedacted(p.stderr, errR, p.secrets)
		close(stderrDone)
	}()
	return ad, nil
}

// adapterLoop relays the adapter's messages to the client.
func (p *proxy) adapterLoop(ctx context.Context, r io.Reader) {
	p.relayLoop(ctx, r, "dap.side-adapter", p.fromAdapter)
}

// fromAdapter relays one message of the adapter.
func (p *proxy) fromAdapter(env envelope, body []byte) {
	switch env.Type {
	case "response":
		p.vars.record(body)
		if merged, swallowed := p.vars.answer(env, body, p.nextSeq); swallowed {
			if merged != nil {
				_ = p.client.write(merged)
			}
			return
		}
	case "event":
		if env.Event == "terminated" {
			p.sawTerminated.Store(true)
		}
		// Events carry the adapter's log lines (output); an adapter
		// that echoes its attach arguments must not show the token.
		body = p.secrets.redactBytes(body)
	}
	_ = p.client.write(body) // a gone client still lets the adapter drain
}

// adapterExited tells a client that is still there that the session is
// over, when the adapter did not say so itself.
func (p *proxy) adapterExited(ctx context.Context, ad *adapterProcess) {
	if p.clientGone.Load() {
		return
	}
	if ad.exitCode != 0 {
		p.logf(ctx, "dap.adapter-exited", "code", ad.exitCode)
		p.sendOutput("stderr", i18n.T(ctx, "dap.adapter-exited", "code", ad.exitCode)+"\n")
	}
	if !p.sawTerminated.Load() && !p.sawDisconnect.Load() {
		p.sendTerminated()
	}
}

// adoptClientLocale switches the session's messages to the language of the
// locale an initialize request names ("ru", "en-US", "de"), by the rule the
// user's own locale follows: Russian for ru*, English for any other.
func (p *proxy) adoptClientLocale(body []byte) {
	var req struct {
		Arguments struct {
			Locale string `json:"locale"`
		} `json:"arguments"`
	}
	if json.Unmarshal(body, &req) != nil {
		return
	}
	if l, ok := i18n.FromLocale(req.Arguments.Locale); ok {
		p.lang.Store(l)
	}
}
