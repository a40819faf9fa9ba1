package platform

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elemctl/elemctl/internal/atomicfile"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// Console API prefixes.
const (
	API20 = "2.0"
	API21 = "2.1"
)

const (
	tokenLife   = 3600 * time.Second
	tokenMargin = 30 * time.Second
)

// ClientOptions tune a client; the zero value is production behaviour.
type ClientOptions struct {
	// Warn receives warnings the transport itself prints (TLS verification
	// off); nil means standard error.
	Warn func(string)
	// TokenCacheDir holds the token file cache; "" means the OS temp dir,
	// "-" turns the file cache off.
	TokenCacheDir string
	// ReadRetryPauses are the pauses between attempts of an idempotent GET
	// whose connection broke off (reset, closed, cut short mid-body,
	// refused) or that a gateway or an overloaded server turned away (502,
	// 503, 504, 429); nil means 1 s then 2 s. A server's Retry-After
	// lengthens a pause up to RetryAfterLimit. A timeout is never repeated,
	// nor is any other method.
	ReadRetryPauses []time.Duration
	// RetryAfterLimit is the longest Retry-After a GET waits for; an
	// answer asking for longer is final. 0 means 10 s.
	RetryAfterLimit time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// UserAgent is sent on every request.
	UserAgent string
	// MaxBody bounds the answers read; 0 means no bound.
	MaxBody int64
}

// Client talks to one stand's Console API. It is safe for concurrent use.
type Client struct {
	cfg  *Config
	http *http.Client
	opts ClientOptions

	mu      sync.Mutex
	token   string
	expires time.Time

	// fastest is the shortest round trip of an exchange so far, in
	// nanoseconds (0: none yet); see RoundTrip.
	fastest atomic.Int64
}

// RoundTrip is the shortest time an exchange of this client took from the
// request written whole to the answer's first byte: the network's round
// trip as near as the client can tell (a slower exchange is the server's
// work besides). 0 before the first answer.
func (c *Client) RoundTrip() time.Duration { return time.Duration(c.fastest.Load()) }

// tookRoundTrip notes one exchange's round trip (see RoundTrip).
func (c *Client) tookRoundTrip(d time.Duration) {
	for {
		old := c.fastest.Load()
		if d <= 0 || old != 0 && old <= int64(d) || c.fastest.CompareAndSwap(old, int64(d)) {
			return
		}
	}
}

// NewClient builds a client; it needs the connection values. ctx carries
// the language of its refusals and of its warning.
func NewClient(ctx context.Context, cfg *Config, opts ClientOptions) (*Client, error) {
	if err := cfg.Require(ctx); err != nil {
		return nil, err
	}
	hc, opts, err := newTransport(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, http: hc, opts: opts}, nil
}

// newTransport is the HTTP client of cfg's transport settings and opts
// with its defaults filled in, the configuration's warnings said: what a
// Client and a Fetcher are both built on.
func newTransport(ctx context.Context, cfg *Config, opts ClientOptions) (*http.Client, ClientOptions, error) {
	hc, err := newHTTPClient(ctx, cfg)
	if err != nil {
		return nil, opts, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.ReadRetryPauses == nil {
		opts.ReadRetryPauses = []time.Duration{time.Second, 2 * time.Second}
	}
	if opts.RetryAfterLimit <= 0 {
		opts.RetryAfterLimit = DefaultRetryAfterLimit
	}
	warnConfig(ctx, cfg, opts)
	return hc, opts, nil
}

// warnConfig says, once per client, what is odd in the .env it was made
// from and that certificates go unchecked.
func warnConfig(ctx context.Context, cfg *Config, opts ClientOptions) {
	warn := opts.Warn
	if warn == nil {
		warn = func(s string) { fmt.Fprintln(os.Stderr, s) }
	}
	for _, w := range cfg.Warnings {
		warn(w)
	}
	if !cfg.TLSVerify {
		warn(i18n.T(ctx, "transport.tls-off"))
	}
}

// Config is the configuration the client was built from.
func (c *Client) Config() *Config { return c.cfg }

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Outside is a Fetcher for addresses outside the Console API – an
// application's own – on this client's transport (its proxy, CA and TLS
// settings, its timeout), without credentials. An answer is read up to
// outsideBody: a page, not a download.
func (c *Client) Outside() *Fetcher {
	opts := c.opts
	if opts.MaxBody == 0 {
		opts.MaxBody = outsideBody
	}
	return following(c.cfg, c.http, opts)
}

// outsideBody bounds what Outside reads of an answer.
const outsideBody = 16 << 20

// Request is one Console API call.
type Request struct {
	Method string
	// Path is relative to the API prefix, e.g. "/applications/{id}".
	Path string
	// API is API20 (default) or API21.
	API   string
	Query url.Values
	// JSON is encoded as the body when non-nil.
	JSON any
	// Raw is sent as application/octet-stream when non-nil.
	Raw []byte
	// RawFrom, when set, is sent as Raw is, with its length, read as it
	// goes out: an archive on disk is never held in memory. Every attempt
	// reads it from its start.
	RawFrom *io.SectionReader
	// ReadAnswer, when set, reads a 2xx answer as it arrives, instead of
	// the whole answer into Response.Body (which then stays nil): a list of
	// tens of thousands of cards is never held whole. A GET whose answer
	// breaks off is repeated as any GET is, and ReadAnswer then reads the
	// new answer from its start; an error it returns that is not the
	// connection's ends the request.
	ReadAnswer func(io.Reader) error
	// MayBeUnknown marks methods older servers lack: their 401 "Handler of
	// HTTP request" answer becomes an "unknown method" error.
	MayBeUnknown bool
	// ReadRetries overrides the pauses between attempts after a broken
	// connection or a gateway's refusal (GET only; a timeout is never
	// repeated).
	ReadRetries []time.Duration
	// Timeout overrides the configured per-request timeout. Either bounds
	// connecting and each network operation, not the whole exchange.
	Timeout time.Duration
}

// Response is a 2xx answer. Body is read-only: values decoded from it
// share its memory.
type Response struct {
	Status int
	Header http.Header
	// Body is the whole answer; nil when Request.ReadAnswer read it.
	Body []byte
}

// Value decodes the body: nil when empty, JSON when it parses, else text.
func (r *Response) Value() any { return decodeBody(r.Body) }

func decodeBody(b []byte) any {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	// A response body is read into a fresh buffer and never changed, so
	// the decoded strings may share it.
	if v, err := jsonx.Decode(b); err == nil {
		return v
	}
	return string(b)
}

// URL builds the full address of an API path.
func (c *Client) URL(api, path string, q url.Values) string {
	prefix := "/console/api/v2"
	if api == API21 {
		prefix = "/console/api/v2.1"
	}
	u := c.cfg.BaseURL + prefix + path
	if enc := encodeQuery(q); enc != "" {
		u += "?" + enc
	}
	return u
}

// encodeQuery drops empty values, as users' scripts expect no "key=" noise.
func encodeQuery(q url.Values) string {
	clean := url.Values{}
	for k, vs := range q {
		for _, v := range vs {
			if v != "" {
				clean.Add(k, v)
			}
		}
	}
	return clean.Encode()
}

// Do sends a request with the current token. On the first attempt only, a
// refused token (401 other than "Handler of HTTP request", or the stale-token
// 400) makes the client forget the token, fetch a new one and repeat the
// request once; the second answer is final. An idempotent GET whose
// connection broke off, or that a gateway or a busy server turned away
// (502, 503, 504, 429), is repeated with pauses; nothing else is retried,
// a timeout in particular, and never a POST, PUT or DELETE: whether one
// acted is for its operation to find out by reading.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	for attempt := 0; ; attempt++ {
		token, err := c.Token(ctx, attempt > 0)
		if err != nil {
			return nil, err
		}
		resp, err := c.send(ctx, req, token)
		if err != nil {
			return nil, err
		}
		if resp.Status >= 200 && resp.Status < 300 {
			return resp, nil
		}
		body := decodeBody(resp.Body)
		if attempt == 0 && tokenRefused(resp.Status, body) {
			c.invalidate()
			continue
		}
		u := c.URL(req.API, req.Path, req.Query)
		api := req.API
		if api == "" {
			api = API20
		}
		return nil, newAPIError(ctx, resp.Status, req.Method, u, body, req.MayBeUnknown, api, c.cfg.BaseURL)
	}
}

// send performs one HTTP exchange, repeating a GET whose connection broke
// (see brokenConnection); a timeout is final at once.
func (c *Client) send(ctx context.Context, req Request, token string) (*Response, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	u := c.URL(req.API, req.Path, req.Query)
	pauses := req.ReadRetries
	if pauses == nil {
		pauses = c.opts.ReadRetryPauses
	}
	body := payload{from: req.RawFrom, answer: req.ReadAnswer}
	contentType := ""
	switch {
	case req.RawFrom != nil:
		contentType = "application/octet-stream"
	case req.Raw != nil:
		body.data, contentType = req.Raw, "application/octet-stream"
	case req.JSON != nil:
		b, err := jsonx.Compact(req.JSON)
		if err != nil {
			return nil, err
		}
		body.data, contentType = b, "application/json"
	}
	header := http.Header{}
	if token != "" {
		header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		header.Set("Content-Type", contentType)
	}
	return c.sendTo(ctx, method, u, body, header, req.Timeout, pauses)
}

// sendTo performs one HTTP exchange with an absolute address, repeating a
// GET whose connection broke, or that was turned away for the moment,
// after each of pauses (see retryPause).
func (c *Client) sendTo(ctx context.Context, method, u string, body payload, header http.Header, timeout time.Duration, pauses []time.Duration) (*Response, error) {
	if method != http.MethodGet {
		pauses = nil
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.exchange(ctx, method, u, body, header, timeout)
		if err == nil && !TurnedAway(resp.Status) {
			return resp, nil
		}
		if attempt >= len(pauses) || ctx.Err() != nil || err != nil && !brokenConnection(err) {
			return resp, err
		}
		pause := pauses[attempt]
		if err == nil {
			var ok bool
			if pause, ok = c.retryPause(pause, resp.Header); !ok {
				return resp, nil
			}
		}
		select {
		case <-ctx.Done():
			if err == nil {
				return nil, ctx.Err()
			}
			return nil, err
		case <-time.After(pause):
		}
	}
}

// DefaultRetryAfterLimit is the longest Retry-After a GET waits for unless
// ClientOptions say otherwise.
const DefaultRetryAfterLimit = 10 * time.Second

// TurnedAway tells the statuses of a request that a gateway or a server
// under load refused for the moment: 502, 503, 504 and 429. A GET so
// answered is repeated; whether a POST so answered acted is unknown.
func TurnedAway(status int) bool {
	switch status {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	}
	return false
}

// retryPause is the pause before repeating a GET that was turned away:
// the planned pause, or the server's Retry-After when longer. ok is false
// when the server asks for more than RetryAfterLimit: its answer is final.
func (c *Client) retryPause(planned time.Duration, h http.Header) (pause time.Duration, ok bool) {
	after, given := RetryAfter(h, c.opts.Now())
	if !given {
		return planned, true
	}
	limit := c.opts.RetryAfterLimit
	if limit <= 0 {
		limit = DefaultRetryAfterLimit
	}
	if after > limit {
		return 0, false
	}
	return max(planned, after), true
}

// RetryAfter reads a Retry-After header: a number of seconds or an HTTP
// date. given is false when there is none or it cannot be read.
func RetryAfter(h http.Header, now time.Time) (after time.Duration, given bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<30)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// brokenConnection tells a connection that broke – reset, closed before
// or during the answer, an answer cut short, a refused connect – from
// every other failure. Only these are worth repeating a GET for: they are
// quick, and typical of a keep-alive connection the server dropped or of
// a short outage. A timeout is not one of them (a hung server would cost
// a timeout per attempt), nor are DNS, TLS or protocol errors, which a
// repetition does not cure.
func brokenConnection(err error) bool {
	if isTimeout(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		return false
	}
	switch op.Op {
	case "read", "write":
		return true
	case "dial":
		var se *os.SyscallError
		return errors.As(op.Err, &se)
	}
	return false
}

// isTimeout tells a network timeout, ours or one the stack reports.
func isTimeout(err error) bool {
	var te *timeoutError
	if errors.As(err, &te) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() &&
		!errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}

// payload is what a request sends – a body in memory, or a section of a
// file read as it goes out – and how its answer is read.
type payload struct {
	data   []byte
	from   *io.SectionReader
	answer func(io.Reader) error // see Request.ReadAnswer
}

// exchange performs one HTTP exchange and reads the whole answer. The
// timeout (0: the configured one) bounds connecting and each network
// operation – sending a piece of the request, waiting for the next bytes of
// the answer – not the whole exchange: a large upload or answer that keeps
// flowing takes as long as it takes. The caller's context still aborts it
// at any moment.
func (c *Client) exchange(ctx context.Context, method, u string, body payload, header http.Header, timeout time.Duration) (*Response, error) {
	if timeout <= 0 {
		timeout = c.cfg.Timeout
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		mu    sync.Mutex
		owned *deadlineConn
		gen   uint64
	)
	release := func() {
		if owned != nil {
			owned.disarm(gen)
			owned = nil
		}
	}
	// written is when the request was written whole, counted from begun
	// (the monotonic clock: a change of the wall clock measures nothing).
	begun := time.Now()
	var written atomic.Int64
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		dc := connOf(info.Conn)
		if dc == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		release()
		owned, gen = dc, dc.arm(timeout, cancel)
	}, WroteRequest: func(info httptrace.WroteRequestInfo) {
		if info.Err == nil {
			written.Store(int64(time.Since(begun)))
		}
	}, GotFirstResponseByte: func() {
		if at := written.Load(); at != 0 {
			c.tookRoundTrip(time.Since(begun) - time.Duration(at))
		}
	}}
	// The connection goes back to the pool without a deadline once the
	// answer is read (or the exchange failed).
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		release()
	}()
	ctx = httptrace.WithClientTrace(withTimeout(ctx, timeout), trace)
	var rd io.Reader
	switch {
	case body.from != nil:
		rd = io.NewSectionReader(body.from, 0, body.from.Size())
	case body.data != nil:
		rd = bytes.NewReader(body.data)
	}
	hr, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, &Error{Kind: KindGeneral, Message: i18n.T(ctx, "client.invalid-url", "url", u, "error", err), Err: err}
	}
	if body.from != nil {
		if hr.ContentLength = body.from.Size(); hr.ContentLength == 0 {
			hr.Body = http.NoBody
		}
	}
	for k, vs := range header {
		hr.Header[k] = vs
	}
	if c.opts.UserAgent != "" {
		hr.Header.Set("User-Agent", c.opts.UserAgent)
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		return nil, c.transportError(ctx, method, hr.URL, context.Cause(ctx), err)
	}
	defer resp.Body.Close()
	if body.answer != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		r := newAnswerReader(resp.Body, resp.ContentLength)
		err := body.answer(r)
		resp.Body.Close()
		r.close()
		if err != nil {
			if r.err != nil {
				// The connection failed under the reader: a broken answer,
				// repeated as any GET whose answer broke off.
				return nil, c.transportError(ctx, method, hr.URL, context.Cause(ctx), r.err)
			}
			return nil, err
		}
		return &Response{Status: resp.StatusCode, Header: resp.Header}, nil
	}
	data, err := readBody(ctx, resp, c.opts.MaxBody)
	if err != nil {
		return nil, c.transportError(ctx, method, hr.URL, context.Cause(ctx), err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// transportError maps a network failure to the error users see. cause is
// the cause of the exchange's context: a timeout of one of its network
// operations, or the caller's cancellation.
func (c *Client) transportError(ctx context.Context, method string, u *url.URL, cause, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var te *timeoutError
	if !errors.As(err, &te) {
		if errors.As(cause, &te) {
			err = te
		}
	}
	var msg string
	if te != nil {
		msg = i18n.T(ctx, "client.timeout", "method", method, "url", u.Redacted(),
			"seconds", seconds(te.after), "phase", i18n.T(ctx, "client.timeout-"+te.op))
	} else {
		msg = i18n.T(ctx, "client.network-error", "method", method, "url", u.Redacted(), "error", err)
	}
	if p := proxyFor(c.cfg, u); p != "" {
		msg += " – " + i18n.T(ctx, "client.proxy-hint", "proxy", p)
	}
	return &Error{Kind: KindTransport, Message: msg, Err: err}
}

// tokenRefused tells a refused token from other failures: a 401 that is not
// the "no such handler" answer, or the platform's stale-token 400.
func tokenRefused(status int, body any) bool {
	switch status {
	case http.StatusUnauthorized:
		return !reHandlerNotFound().MatchString(bodyText(body))
	case http.StatusBadRequest:
		o, ok := body.(*jsonx.Object)
		if !ok {
			return false
		}
		code, _ := o.Value("error_code").(string)
		desc, _ := o.Value("error_description").(string)
		return strings.EqualFold(code, "invalid_request") && reStaleToken().MatchString(desc)
	}
	return false
}

// Token returns a bearer token: the one held while more than 30 s of its
// assumed hour remain, else the file cache's, else a fresh one.
func (c *Client) Token(ctx context.Context, force bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Now()
	if !force && c.token != "" && now.Before(c.expires.Add(-tokenMargin)) {
		return c.token, nil
	}
	if !force {
		if tok, exp, ok := c.readTokenCache(); ok && now.Before(exp.Add(-tokenMargin)) {
			c.token, c.expires = tok, exp
			return tok, nil
		}
	}
	asked := now
	tok, err := c.requestToken(ctx)
	if err != nil {
		return "", err
	}
	c.token, c.expires = tok, asked.Add(tokenLife)
	c.writeTokenCache(tok, c.expires)
	return tok, nil
}

// invalidate forgets the held token and removes its cache file.
func (c *Client) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token, c.expires = "", time.Time{}
	if p := c.tokenCachePath(); p != "" {
		_ = os.Remove(p)
	}
}

func (c *Client) requestToken(ctx context.Context) (string, error) {
	u := c.cfg.BaseURL + "/console/sys/token"
	basic := base64.StdEncoding.EncodeToString([]byte(c.cfg.ClientID + ":" + c.cfg.ClientSecret))
	header := http.Header{}
	header.Set("Authorization", "Basic "+basic)
	header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.exchange(ctx, http.MethodPost, u, payload{data: []byte("grant_type=client_credentials")}, header, 0)
	if err != nil {
		return "", err
	}
	body := decodeBody(resp.Body)
	if resp.Status == http.StatusNotFound && reConsoleNotFound().MatchString(bodyText(body)) {
		return "", newAPIError(ctx, resp.Status, http.MethodPost, u, body, false, API20, c.cfg.BaseURL)
	}
	if resp.Status < 200 || resp.Status >= 300 {
		return "", &APIError{Message: i18n.T(ctx, "auth.token-http", "status", resp.Status),
			Status: resp.Status, Method: http.MethodPost, URL: u, Body: redactTokenBody(body)}
	}
	if o, ok := body.(*jsonx.Object); ok {
		for _, k := range []string{"id_token", "token", "value", "access_token"} {
			s := strings.TrimSpace(o.Str(k))
			if s != "" && s != "Not implemented" {
				return s, nil
			}
		}
	}
	return "", &APIError{Message: i18n.T(ctx, "auth.no-token"), Status: resp.Status, Method: http.MethodPost, URL: u}
}

// redactTokenBody keeps token-like fields of a refused token answer out of
// error output.
func redactTokenBody(body any) any {
	o, ok := body.(*jsonx.Object)
	if !ok {
		return body
	}
	o = o.Clone()
	for _, k := range []string{"id_token", "token", "value", "access_token", "refresh_token"} {
		if o.Has(k) {
			o.Set(k, "***")
		}
	}
	return o
}

func (c *Client) tokenCachePath() string {
	dir := c.opts.TokenCacheDir
	if dir == "-" {
		return ""
	}
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "elemctl-token-"+tokenCacheKey(c.cfg.BaseURL, c.cfg.ClientID, c.cfg.ClientSecret)+".json")
}

// tokenCacheKey names the cache file of one identity. The secret takes part
// through a hash of its own, so a changed secret (rotated, or mistyped) never
// gets the token an earlier secret earned; the secret itself is written
// nowhere.
func tokenCacheKey(baseURL, clientID, clientSecret string) string {
	secret := sha256.Sum256([]byte("elemctl-token-cache\x00" + clientSecret))
	sum := sha256.Sum256([]byte(baseURL + "|" + clientID + "|" + hex.EncodeToString(secret[:])))
	return hex.EncodeToString(sum[:])[:16]
}

// The file cache is only a speed-up: every failure is ignored.
func (c *Client) readTokenCache() (string, time.Time, bool) {
	p := c.tokenCachePath()
	if p == "" {
		return "", time.Time{}, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", time.Time{}, false
	}
	// Read with the parser every answer goes through: encoding/json's
	// first use costs a start half a millisecond.
	v, err := jsonx.Decode(data)
	f, _ := v.(*jsonx.Object)
	if err != nil || f == nil {
		return "", time.Time{}, false
	}
	token := f.Str("token")
	n, _ := f.Value("expires").(json.Number)
	expires, err := n.Float64()
	if token == "" || err != nil {
		return "", time.Time{}, false
	}
	sec := int64(expires)
	return token, time.Unix(sec, int64((expires-float64(sec))*1e9)), true
}

func (c *Client) writeTokenCache(tok string, exp time.Time) {
	p := c.tokenCachePath()
	if p == "" {
		return
	}
	data, _ := jsonx.Compact(jsonx.New("token", tok, "expires", float64(exp.UnixNano())/1e9))
	_ = atomicfile.Write(p, data, 0o600)
}

// readBody reads a whole answer. A known length is read into a buffer of
// exactly that size – once: net/http ends the body there – so the answer
// is neither copied while a buffer grows nor held twice.
func readBody(ctx context.Context, resp *http.Response, limit int64) ([]byte, error) {
	if limit > 0 {
		if resp.ContentLength > limit {
			return nil, &bodyTooLargeError{limit, i18n.LangOf(ctx)}
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err == nil && int64(len(data)) > limit {
			return nil, &bodyTooLargeError{limit, i18n.LangOf(ctx)}
		}
		return data, err
	}
	if n := resp.ContentLength; n > 0 && n < 1<<30 {
		buf := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(resp.Body)
}

// bodyTooLargeError is an answer longer than ClientOptions.MaxBody.
type bodyTooLargeError struct {
	limit int64
	lang  i18n.Lang
}

func (e *bodyTooLargeError) Error() string {
	return i18n.TL(e.lang, "client.body-too-large", "bytes", e.limit)
}
