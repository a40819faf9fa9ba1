// Package dap is elemctl's Debug Adapter Protocol proxy. It sits between a
// DAP client (VS Code, nvim-dap, any editor) and the 1C:Element platform's
// Java debug adapter: it finds and starts the adapter, completes attach
// requests with a debug session looked up on the platform, and works
// around a platform hang on filterless variables requests. Everything else
// travels byte for byte.
//
// This is the only package that imports github.com/google/go-dap, and it
// does so only to build the few messages the proxy itself originates.
package dap

import (
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// Options configure one proxy run.
type Options struct {
	Stdin  io.Reader // DAP from the client
	Stdout io.Writer // DAP to the client; nothing else is ever written here
	Stderr io.Writer // diagnostics and the adapter's stderr

	AdapterDir string // --adapter DIR
	Java       string // --java PATH

	// JVMArgs, when set, is the exact argument vector the JVM is started
	// with: elemctl stands in for java (see IsAdapterLaunch) and was given
	// it by the editor. AdapterDir and LocateAdapter are then not used;
	// java is still Java, else JAVA_HOME, else PATH, never elemctl itself.
	JVMArgs []string

	// Getenv reads the environment (ELEMCTL_DEBUG_ADAPTER, JAVA_HOME);
	// nil means os.Getenv.
	Getenv func(string) string
	// LocateAdapter returns the adapter directory a plugin declares, or ""
	// when none does. It may be nil.
	LocateAdapter func() (dir string, err error)
	// Session looks a debug session up on the platform. Its errors are
	// shown to the user as they are.
	Session func(ctx context.Context, req SessionRequest) (*SessionInfo, error)
	// GracePeriod is how long the adapter may take to exit after the
	// client's disconnect request, or after the client closed our stdin,
	// before it is killed (default 3 s).
	GracePeriod time.Duration
	// AdoptClientLocale makes the messages follow the locale the client's
	// initialize request names (arguments.locale), for a user who chose no
	// language (neither --lang nor ELEMCTL_LANG).
	AdoptClientLocale bool
	// Reaper is an executable that runs RunReaper when its first argument
	// is ReaperArg – elemctl itself. On Linux the adapter then starts under
	// it, so that whatever the JVM starts ends with the proxy even when the
	// proxy is killed outright (see tree_linux.go). "" starts the adapter
	// directly.
	Reaper string
}

// SessionRequest names the application to debug, as the attach
// configuration gives it.
type SessionRequest struct {
	AppRef  string // an id or an exact name; "" means the configured default
	EnvFile string // absolute path, or "" for the default .env in Cwd
	Cwd     string // the directory relative paths and .env are taken from
}

// SessionInfo is a debug session on the platform.
type SessionInfo struct {
	AppID string
	// Card is the platform's application card with its kebab-case keys.
	Card               map[string]any
	DebugToken         string
	DebugAddress       string
	ClientDebugAddress string
	BaseURL            string
}

// DefaultGracePeriod is the adapter's time to exit after the client left.
const DefaultGracePeriod = 3 * time.Second

func (o *Options) getenv(key string) string {
	if o.Getenv == nil {
		return os.Getenv(key)
	}
	return o.Getenv(key)
}

// Run proxies one debug session and returns the exit code for the process:
// the adapter's own when it exited, 1 when it had to be killed or could not
// be started, 0 when the client left before asking for one. The session
// ends when the adapter exits, and at the latest a grace period after the
// client's disconnect request or the end of its stream. err is set
// only when the proxy itself failed or ctx ended. Run does not close
// Stdin, Stdout or Stderr.
func Run(ctx context.Context, opts Options) (exitCode int, err error) {
	if opts.Stdin == nil || opts.Stdout == nil {
		return 1, errors.New("dap: Stdin and Stdout are required")
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.GracePeriod <= 0 {
		opts.GracePeriod = DefaultGracePeriod
	}
	defer keepWritingOnBrokenPipe()()
	hangup, undoHangup := onHangup()
	defer undoHangup()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := newProxy(ctx, opts)
	clientDone := make(chan struct{})
	go func() {
		p.clientLoop(ctx)
		close(clientDone)
	}()

	var ad *adapterProcess
	disconnected := p.disconnected
	var graceOver <-chan time.Time // running from the client's disconnect
	for {
		var adapterDone <-chan struct{}
		if ad != nil {
			adapterDone = ad.done
		}
		select {
		case ad = <-p.started:
		case <-adapterDone:
			return ad.exitCode, nil
		case <-disconnected:
			// The session is over for the client, whether or not it
			// closes its end: the adapter gets the grace period to exit.
			disconnected = nil
			select {
			case ad = <-p.started:
			default:
			}
			if ad == nil {
				p.clientGone.Store(true)
				return p.noAdapterCode(), nil
			}
			timer := time.NewTimer(p.opts.GracePeriod)
			defer timer.Stop()
			graceOver = timer.C
		case <-graceOver:
			p.clientGone.Store(true)
			return p.stopAdapter(ctx, ad), nil
		case <-clientDone:
			p.clientGone.Store(true)
			select {
			case ad = <-p.started:
			default:
			}
			if ad == nil {
				return p.noAdapterCode(), nil
			}
			return p.letAdapterGo(ctx, ad, graceOver)
		case <-hangup:
			p.clientGone.Store(true)
			if ad != nil {
				ad.kill()
				<-ad.done
			}
			return 1, nil
		case <-ctx.Done():
			if ad != nil {
				ad.kill()
				<-ad.done
			}
			return 1, ctx.Err()
		}
	}
}

// noAdapterCode is the exit code of a session that ended without an
// adapter: 1 when starting it failed, 0 when none was asked for.
func (p *proxy) noAdapterCode() int {
	if p.startFailed.Load() {
		return 1
	}
	return 0
}

// stopAdapter kills an adapter that outstayed its grace period.
func (p *proxy) stopAdapter(ctx context.Context, ad *adapterProcess) int {
	ad.kill()
	<-ad.done
	p.logf(ctx, "dap.adapter-killed", "grace", p.opts.GracePeriod)
	return 1
}

// letAdapterGo closes the adapter's stdin, gives it the grace period to
// exit (what is left of it when a disconnect started it already) and
// kills it after that.
func (p *proxy) letAdapterGo(ctx context.Context, ad *adapterProcess, graceOver <-chan time.Time) (int, error) {
	ad.closeInput()
	if graceOver == nil {
		timer := time.NewTimer(p.opts.GracePeriod)
		defer timer.Stop()
		graceOver = timer.C
	}
	select {
	case <-ad.done:
		return ad.exitCode, nil
	case <-graceOver:
		return p.stopAdapter(ctx, ad), nil
	case <-ctx.Done():
		ad.kill()
		<-ad.done
		return 1, ctx.Err()
	}
}
