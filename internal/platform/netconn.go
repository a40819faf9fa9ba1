package platform

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// The per-request timeout (--timeout) is what the reference tool's socket
// timeout is: it bounds connecting and every single network operation, not
// the whole exchange. A transfer that keeps flowing never hits it; a peer
// that stays silent (or stops reading) for that long does.
//
// How it is enforced:
//
//   - The dialer bounds the TCP connect by the timeout and wraps the
//     connection in a deadlineConn, armed at once, so the proxy CONNECT and
//     the TLS handshake (both done by the transport on top of that
//     connection) are bounded per operation too.
//   - When a request gets the connection (httptrace GotConn), the request
//     arms it with its own timeout and a cancel function of its context.
//     Before every Read and Write the connection's deadline (both
//     directions) moves to now + timeout; any activity thus also extends a
//     read that is waiting for the response headers while the body goes out.
//     Writes go out in pieces so that a large body is many operations.
//   - When a deadline fires, the owner's context is cancelled with the
//     timeout as its cause: net/http then does not repeat the request on a
//     new connection (it would, for a GET on a reused connection), so a
//     hung server costs one timeout, and the error names the timeout.
//   - When the answer has been read, the request disarms the connection:
//     back in the idle pool, it has no deadline, so the transport's
//     background read of an idle connection does not time out.
//
// HTTP/2 is not offered (see newHTTPClient): its connections are shared by
// requests and read in the background, which per-operation deadlines do
// not fit; the reference speaks HTTP/1.1 only.

// Network operations a timeout can hit.
const (
	opConnect = "connect"
	opSend    = "send"
	opReceive = "receive"
)

// writePiece is the largest single write on a connection: a deadline is
// set before each piece, so a large body is bounded per piece, not whole.
const writePiece = 32 << 10

// timeoutError is a network operation that made no progress within the
// timeout.
type timeoutError struct {
	op    string
	after time.Duration
	err   error
}

func (e *timeoutError) Error() string {
	return e.op + " timed out after " + seconds(e.after) + " s"
}
func (e *timeoutError) Unwrap() error   { return e.err }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return false }

// seconds formats a duration as a number of seconds: "60", "0.3".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// timeoutKey carries a request's timeout in its context, down to the dialer
// (net/http dials with a context that keeps the request's values).
type timeoutKey struct{}

func withTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, timeoutKey{}, d)
}

func timeoutOf(ctx context.Context, fallback time.Duration) time.Duration {
	if d, ok := ctx.Value(timeoutKey{}).(time.Duration); ok && d > 0 {
		return d
	}
	return fallback
}

// dialFunc dials TCP with the connect bounded by the request's timeout and
// returns an armed deadlineConn.
func dialFunc(fallback time.Duration) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := timeoutOf(ctx, fallback)
		conn, err := (&net.Dialer{Timeout: d, KeepAlive: 30 * time.Second}).DialContext(ctx, network, addr)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				return nil, &timeoutError{op: opConnect, after: d, err: err}
			}
			return nil, err
		}
		dc := &deadlineConn{Conn: conn}
		dc.arm(d, nil)
		return dc, nil
	}
}

// deadlineConn sets a fresh deadline before each operation while a request
// (or the dial) owns it; see the comment at the top of this file.
type deadlineConn struct {
	net.Conn

	mu         sync.Mutex
	timeout    time.Duration           // 0: disarmed, no deadline
	owner      context.CancelCauseFunc // the owning request's context; nil while dialing
	gen        uint64                  // bumped by every arm
	deadline   time.Time               // the deadline last set
	connecting bool                    // armed by the dial, not yet by a request
}

// arm gives the connection to an owner with its timeout and sets the first
// deadline (which also bounds an operation already waiting). The dial arms
// it without an owner. It returns the generation disarm needs.
func (c *deadlineConn) arm(d time.Duration, owner context.CancelCauseFunc) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.timeout, c.owner, c.connecting = d, owner, owner == nil
	c.deadline = time.Now().Add(d)
	_ = c.Conn.SetDeadline(c.deadline)
	return c.gen
}

// disarm takes the deadline away unless another owner has armed the
// connection since.
func (c *deadlineConn) disarm(gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	c.timeout, c.owner, c.deadline = 0, nil, time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
}

func (c *deadlineConn) refresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timeout > 0 {
		c.deadline = time.Now().Add(c.timeout)
		_ = c.Conn.SetDeadline(c.deadline)
	}
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	c.refresh()
	n, err := c.Conn.Read(p)
	if err != nil {
		err = c.failed(err, opReceive)
	}
	return n, err
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		piece := p[n:min(len(p), n+writePiece)]
		c.refresh()
		m, err := c.Conn.Write(piece)
		n += m
		if err != nil {
			return n, c.failed(err, opSend)
		}
	}
	return n, nil
}

// failed turns the expiry of the current deadline into a timeoutError and
// cancels the owner's request with it. A deadline error that is not the
// current one (the connection was re-armed as the old deadline fired) is
// left as it is: the transport sees a broken idle connection, as when a
// server closes one, and no request is blamed for a timeout it did not
// have.
func (c *deadlineConn) failed(err error, op string) error {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timeout <= 0 || time.Now().Before(c.deadline) {
		return err
	}
	if c.connecting {
		op = opConnect
	}
	te := &timeoutError{op: op, after: c.timeout, err: err}
	if c.owner != nil {
		c.owner(te)
	}
	return te
}

// connOf finds the deadlineConn under a connection the transport hands out
// (a TLS connection, possibly over a TLS connection to a proxy).
func connOf(c net.Conn) *deadlineConn {
	for range 4 {
		switch x := c.(type) {
		case *deadlineConn:
			return x
		case interface{ NetConn() net.Conn }:
			c = x.NetConn()
		default:
			return nil
		}
	}
	return nil
}
