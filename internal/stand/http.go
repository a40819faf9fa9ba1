package stand

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	tokenPath  = "/console/sys/token"
	apiPrefix  = "/console/api"
	consoleUI  = "/console/ui/"
	appsPrefix = "/applications/"
	// maxBody bounds request bodies (build archives included).
	maxBody = 512 << 20
	// maxCalls bounds the call record of a long-running stand.
	maxCalls = 200_000
)

// recorder buffers an answer so the stand can log it, count it and, on
// request, cut it short.
type recorder struct {
	header http.Header
	status int
	body   *bytes.Buffer
}

// bufferPool keeps answer buffers between requests: listing thousands of
// applications writes megabytes, and growing (and zeroing) a fresh buffer
// every time was most of a listing's cost.
var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func takeBuffer() *bytes.Buffer {
	b := bufferPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func giveBuffer(b *bytes.Buffer) {
	if b.Cap() <= 64<<20 {
		bufferPool.Put(b)
	}
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (s *Stand) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, controlPrefix) {
		s.serveControl(w, r)
		return
	}
	// The network's round trip comes before the platform sees the request:
	// its arrival, its rules and its log line all follow it. A client that
	// goes away meanwhile (noticed for a request without a body) or the
	// stand closing ends the wait, and the connection with it.
	if s.holdUnlessGone(s.opts.Latency, r.Context().Done()) != nil {
		dropConnection(w, true)
		return
	}
	arrived := time.Now()
	segs := splitPath(r.URL.Path)
	plan := s.decide(r.Method, segs, r.URL.Path, arrived)
	// Told after the rules ran: what a test does once it sees the arrival
	// meets the silence, the expired tokens or the start the request
	// began.
	s.notifyWatches(Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, At: arrived}, segs)
	in := &countedBody{ReadCloser: r.Body}
	if r.Body != nil {
		r.Body = in
	}
	out := &exchange{}
	// The call is recorded before the client can see anything of the
	// answer (a test reading Calls after its request sees it). The log
	// line, which counts what was sent, is written just before the answer
	// ends for the client – before the connection is dropped or the last
	// byte sent – so a client sending one request after another finds them
	// in the log in that order; an answer that ends only when the handler
	// returns is logged by the deferred call.
	answered := func(status int) {
		out.status = status
		s.recordCall(Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Status: status, At: arrived, Fault: plan.fired()})
	}
	logged := false
	logExchange := func(sent int64) {
		if !logged {
			logged = true
			out.bytes = sent
			s.logExchange(r, arrived, in.n, out, &plan)
		}
	}
	defer func() { logExchange(out.bytes) }()
	drop := func(reset bool) {
		logExchange(0)
		dropConnection(w, reset)
	}

	if plan.delay > 0 || !s.faults.silentUntil(arrived).IsZero() {
		// The body is read before the request is held, so the platform acts
		// on it even when the client has gone meanwhile.
		sp, err := s.readSpool(r.Body, s.opts.Limits.UploadSize)
		if err != nil {
			answered(0)
			drop(true)
			return
		}
		defer sp.Close()
		r.Body = &spooledBody{Reader: sp.reader(), sp: sp}
		in.n = sp.size
	}
	if s.holdWhileSilent() != nil || s.hold(plan.delay) != nil || s.holdWhileSilent() != nil {
		answered(0)
		drop(true)
		return
	}
	if a := plan.answer; a != nil {
		switch a.Effect {
		case EffectResetBefore:
			answered(0)
			drop(true)
			return
		case EffectStatus:
			answered(a.Status)
			writeProxyStatus(w, a.Status, a.RetryAfter, logExchange)
			return
		}
	}
	rec := &recorder{header: http.Header{}, body: takeBuffer()}
	defer giveBuffer(rec.body)
	ctx := context.WithValue(context.WithValue(r.Context(), planKey{}, &plan), exchangeKey{}, out)
	s.route(rec, r.WithContext(ctx))
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	answered(rec.status)
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	body := rec.body.Bytes()
	effect := Effect("")
	if plan.answer != nil {
		effect = plan.answer.Effect
	}
	switch effect {
	case EffectLoseAnswer:
		drop(false)
	case EffectTruncate:
		// Declare the whole length and send half of it: the server then
		// closes the connection and the client reads a truncated body.
		declared := len(body)
		if declared == 0 {
			declared = 1
		}
		w.Header().Set("Content-Length", strconv.Itoa(declared))
		w.WriteHeader(rec.status)
		n, _ := w.Write(body[:len(body)/2])
		out.bytes = int64(n)
	case EffectSlowBody:
		s.writeSlowly(w, rec.status, body, plan.answer.Delay, logExchange)
	default:
		if rec.status != http.StatusNoContent && rec.status != http.StatusNotModified {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(rec.status)
		writeEnding(w, body, logExchange)
	}
}

// writeEnding writes the last part of an answer, its last byte held back
// until beforeLast (given the bytes the answer will have sent) returned:
// until then the client has not the whole answer. On a failed write
// beforeLast is given what was sent.
func writeEnding(w http.ResponseWriter, body []byte, beforeLast func(sent int64)) {
	if len(body) == 0 {
		beforeLast(0)
		return
	}
	n, err := w.Write(body[:len(body)-1])
	if err != nil {
		beforeLast(int64(n))
		return
	}
	beforeLast(int64(n) + 1)
	_, _ = w.Write(body[len(body)-1:])
}

// planKey carries a request's fault plan to the handlers.
type planKey struct{}

// planOf is the fault plan of a request (an empty one outside serve).
func planOf(r *http.Request) *faultPlan {
	if p, ok := r.Context().Value(planKey{}).(*faultPlan); ok {
		return p
	}
	return &faultPlan{}
}

// exchange is what a request got: the status answered (0 when the
// connection was dropped before the platform acted), the body bytes sent
// and the moment the platform read its clock for the answer (zero when
// no handler of the Console API served it).
type exchange struct {
	status int
	bytes  int64
	served time.Time
}

// exchangeKey carries a request's exchange to the handlers.
type exchangeKey struct{}

// markServed records on the request's exchange the moment the platform
// read its clock for the answer.
func markServed(r *http.Request, at time.Time) {
	if out, ok := r.Context().Value(exchangeKey{}).(*exchange); ok {
		out.served = at
	}
}

// countedBody counts the bytes of a request body read.
type countedBody struct {
	io.ReadCloser
	n int64
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

// recordCall keeps a call.
func (s *Stand) recordCall(c Call) {
	s.callsMu.Lock()
	defer s.callsMu.Unlock()
	if len(s.calls) >= maxCalls {
		// A long-running stand keeps the most recent calls only.
		s.calls = append(s.calls[:0], s.calls[len(s.calls)/2:]...)
	}
	s.calls = append(s.calls, c)
	if c.Path == tokenPath {
		s.tokenCalls++
	}
}

// logExchange writes the log line of a request.
func (s *Stand) logExchange(r *http.Request, arrived time.Time, bytesIn int64, out *exchange, plan *faultPlan) {
	served := ""
	if !out.served.IsZero() {
		served = logTime(out.served)
	}
	s.writeLog(logLine{Time: logTime(arrived), Served: served, Method: r.Method, Path: r.URL.Path, Query: loggedQuery(r.URL.RawQuery),
		Status: out.status, MS: float64(time.Since(arrived).Microseconds()) / 1000, BytesIn: bytesIn, BytesOut: out.bytes, Fault: plan.fired()})
}

// dropConnection closes the request's connection without a byte of answer:
// with a TCP reset when reset, else an orderly close.
func dropConnection(w http.ResponseWriter, reset bool) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): the server aborts the exchange itself.
		panic(http.ErrAbortHandler)
	}
	// Over TLS the reset is of the TCP connection underneath.
	raw := conn
	if tc, ok := conn.(*tls.Conn); ok {
		raw = tc.NetConn()
	}
	if tcp, ok := raw.(*net.TCPConn); ok && reset {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}

// writeProxyStatus answers as a proxy in front of the console does when it
// gives up on it: the status, Retry-After when set, an HTML page.
func writeProxyStatus(w http.ResponseWriter, status int, retryAfter time.Duration, beforeLast func(sent int64)) {
	if retryAfter > 0 {
		secs := int64((retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
	}
	title := fmt.Sprintf("%d %s", status, http.StatusText(status))
	page := "<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title +
		"</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	w.Header().Set("Content-Type", "text/html")
	w.Header().Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(status)
	writeEnding(w, []byte(page), beforeLast)
}

// slowPieces is how many pieces a slow body is sent in.
const slowPieces = 16

// writeSlowly sends the headers at once and the body in pieces spread over
// d, flushing each; beforeLast as in writeEnding.
func (s *Stand) writeSlowly(w http.ResponseWriter, status int, body []byte, d time.Duration, beforeLast func(sent int64)) {
	if status != http.StatusNoContent && status != http.StatusNotModified {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	if len(body) == 0 {
		// The headers are the whole answer.
		beforeLast(0)
	}
	w.WriteHeader(status)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	pieces := min(len(body), slowPieces)
	var sent int64
	for i := range pieces {
		if s.hold(d/time.Duration(pieces)) != nil {
			break
		}
		from, to := len(body)*i/pieces, len(body)*(i+1)/pieces
		if i == pieces-1 {
			writeEnding(w, body[from:to], func(n int64) { beforeLast(sent + n) })
			_ = rc.Flush()
			return
		}
		n, err := w.Write(body[from:to])
		sent += int64(n)
		if err != nil || rc.Flush() != nil {
			break
		}
	}
	beforeLast(sent)
}

func (s *Stand) route(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	switch {
	case path == "/console" || path == "/console/":
		if s.answerStarting(w) {
			return
		}
		http.Redirect(w, r, consoleUI, http.StatusFound)
	case path == consoleUI:
		if s.answerStarting(w) {
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>1C:Enterprise.Element console (emulated stand)</title>\n")
	case strings.HasPrefix(path, "/console/"):
		if s.answerStarting(w) {
			return
		}
		switch {
		case path == tokenPath:
			s.handleToken(w, r)
		case strings.HasPrefix(path, apiPrefix+"/"):
			s.handleAPI(w, r)
		default:
			http.NotFound(w, r)
		}
	case strings.HasPrefix(path, appsPrefix):
		s.handleAppAddress(w, r)
	default:
		http.NotFound(w, r)
	}
}

// answerStarting answers "console not found" while the stand plays a
// server that is still starting, alternating the plain-text and the JSON
// variants the platform produces.
func (s *Stand) answerStarting(w http.ResponseWriter) bool {
	s.mu.Lock()
	starting := !s.startingTill.IsZero() && time.Now().Before(s.startingTill)
	flip := s.startingFlip
	if starting {
		s.startingFlip = !s.startingFlip
	}
	s.mu.Unlock()
	if !starting {
		return false
	}
	const text = `Application "console" not found`
	if flip {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": text})
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, text)
	}
	return true
}

func (s *Stand) handleToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed"})
		return
	}
	if !s.clientCredentials(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="console"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "Bad client credentials"})
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error_code": "invalid_request", "error_description": "grant_type must be client_credentials"})
		return
	}
	now := time.Now()
	s.mu.Lock()
	if len(s.tokens) > 1000 {
		for t, it := range s.tokens {
			if !now.Before(it.expires) {
				delete(s.tokens, t)
			}
		}
	}
	s.tokenSeq++
	tok := newJWT(s.opts.ClientID, now, now.Add(tokenLifetime))
	s.tokens[tok] = issuedToken{seq: s.tokenSeq, expires: now.Add(tokenLifetime)}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]string{"id_token": tok})
}

// tokenAccepted checks the bearer token of an API request and answers the
// refusal itself when it is not accepted: a token that is not JWT-shaped
// (not exactly two periods) is always the platform's 400 "JWT strings must
// contain exactly 2 period characters. Found: N"; a JWT-shaped token the
// stand did not issue, or issued and expired, is 401 or, in
// SetStaleTokenAnswer(400) mode, a 400 naming the signature or the expiry;
// a request without a bearer token is 401 in both modes.
func (s *Stand) tokenAccepted(w http.ResponseWriter, r *http.Request, now time.Time) bool {
	tok := ""
	if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		tok = strings.TrimSpace(h[7:])
	}
	if periods := strings.Count(tok, "."); tok != "" && periods != 2 {
		// A token that is not JWT-shaped fails the platform's JWT parser
		// whatever the stale-token mode: the recorded 400.
		writeJSON(w, http.StatusBadRequest, map[string]string{"error_code": "invalid_request",
			"error_description": fmt.Sprintf("JWT strings must contain exactly 2 period characters. Found: %d", periods)})
		return false
	}
	s.mu.Lock()
	it, known := s.tokens[tok]
	ok := known && it.seq > s.expiredUpTo && now.Before(it.expires)
	mode := s.staleAnswer
	s.mu.Unlock()
	if ok {
		return true
	}
	if mode == http.StatusBadRequest && tok != "" {
		var desc string
		switch {
		case known:
			desc = fmt.Sprintf("JWT expired at %s. Current time: %s", isoTime(it.expires), isoTime(now))
		default:
			desc = "Unable to verify RSA signature of the JWT"
		}
		writeJSON(w, http.StatusBadRequest, map[string]string{"error_code": "invalid_request", "error_description": desc})
		return false
	}
	msg := "Token expired"
	if tok == "" {
		msg = "Unauthorized"
	} else if !known {
		msg = "Invalid token"
	}
	w.Header().Set("WWW-Authenticate", "Bearer")
	writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"message": msg}})
	return false
}

// handleAppAddress serves the uri of an application: a plain GET answers
// 401 as a published application that wants its users to sign in.
func (s *Stand) handleAppAddress(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, appsPrefix)
	s.mu.Lock()
	now := time.Now()
	s.settle(now)
	found := false
	for _, a := range s.st.apps {
		if a.Status == statusDeleted || !a.Published || statusAt(a) == statusDeleting {
			continue
		}
		ctx := a.PublicationContext
		if rest == ctx || strings.HasPrefix(rest, ctx+"/") {
			found = true
			break
		}
	}
	s.saveIfDirty()
	s.mu.Unlock()
	if !found {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("WWW-Authenticate", `Basic realm="1C:Enterprise.Element"`)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	io.WriteString(w, "Unauthorized\n")
}

// --- answers ---

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := takeBuffer()
	defer giveBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, "encoding failed")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}

// writeList answers a list, bare or wrapped as {"items": [...]}.
func (s *Stand) writeList(w http.ResponseWriter, items any) {
	if s.opts.Wrap {
		writeJSON(w, http.StatusOK, map[string]any{"items": items})
		return
	}
	writeJSON(w, http.StatusOK, items)
}

func writeNoContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// writeUnknownHandler is the console's answer to a path or method it has no
// handler for: 401, not 404, with the path from /v2 on.
func writeUnknownHandler(w http.ResponseWriter, method, apiPath string) {
	writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{
		"code":    16,
		"status":  "UNAUTHENTICATED",
		"message": fmt.Sprintf("Handler of HTTP request \"[%s] %s\" in application \"console\" not found.", method, apiPath),
		"details": []any{},
	}})
}

func writeArchive(w http.ResponseWriter, data []byte) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}
