package stand

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a stand.
type Options struct {
	// ClientID and ClientSecret are the Console API integration credentials.
	// Defaults: "elemctl-stand" and a random 32-hex secret.
	ClientID, ClientSecret string
	// Speed scales every platform duration; 1 (the default when 0) keeps
	// Durations as given; tests use about 0.001.
	Speed float64
	// Durations of platform operations; zero fields take the defaults.
	Durations Durations
	// StateFile, when set, is loaded at New if it exists and saved
	// atomically after every change.
	StateFile string
	// Wrap answers lists as {"items": [...]} instead of bare arrays.
	Wrap bool
	// CompatibilityModes are the known РежимСовместимости values; nil takes
	// DefaultCompatibilityModes.
	CompatibilityModes []string
	// Limits bound uploads: their size, and what their archives unpack to;
	// zero fields take DefaultLimits.
	Limits Limits
	// Log, when set, receives one JSON line per request (time, method,
	// path, query, status, ms, bytes-in, bytes-out, fault) and one per
	// thing the stand did by itself ({"time", "note"}). Headers, tokens and
	// secrets never go there.
	Log io.Writer
	// TLS serves HTTPS with a certificate of the stand's own (its own CA,
	// CACertPEM); with StateFile it is kept there, so a CA file written
	// once keeps working after a restart.
	TLS bool
	// Latency is a network round trip: every answer of the platform waits
	// this long before the stand handles the request, and over TLS so does
	// the stand's part of the handshake. Real time, not scaled by Speed.
	Latency time.Duration
}

// Durations of platform operations at speed 1.
type Durations struct{ Create, Apply, Start, Stop, Delete time.Duration }

// DefaultDurations are the durations taken for zero fields of Durations.
var DefaultDurations = Durations{
	Create: 4 * time.Second,
	Apply:  3 * time.Second,
	Start:  2 * time.Second,
	Stop:   2 * time.Second,
	Delete: 2 * time.Second,
}

// DefaultCompatibilityModes are the compatibility modes a stand knows when
// Options.CompatibilityModes is nil.
var DefaultCompatibilityModes = []string{"6.0", "7.0", "8.0"}

// DefaultClientID is the client id of a stand created without one.
const DefaultClientID = "elemctl-stand"

// tokenLifetime is how long an issued token is accepted (real time, not
// scaled: clients assume an hour).
const tokenLifetime = time.Hour

// Call is one request the stand answered (or, from Watch, one that
// arrived: Status 0).
type Call struct {
	Method, Path, RawQuery string
	// Status is the status the platform answered; 0 when a fault dropped
	// the connection before the platform acted.
	Status int
	At     time.Time
	// Fault names the fault rules that fired on the request ("" none).
	Fault string
}

// Stand is an emulated 1C:Enterprise.Element Console API server.
type Stand struct {
	opts      Options
	speed     float64
	durations Durations
	compat    map[string]bool
	handler   http.Handler
	// api routes the Console API (api.go).
	api *http.ServeMux

	mu sync.Mutex // guards everything below up to callsMu
	st *state
	// listBuf is the application list's buffer, kept between requests.
	listBuf []byte
	// baseURL is set by Listen; without it the uri of an application is
	// derived from the request's Host.
	baseURL string
	// lastAddress is the host:port the stand last served on, kept in the
	// state file.
	lastAddress string
	dirty       bool
	// cert is the stand's certificate, kept in the state file; Options.TLS
	// serves it.
	cert      *standCert
	server    *http.Server
	serveDone chan struct{}

	// Tokens, the state faults leave and the server's features.
	tokens       map[string]issuedToken
	tokenSeq     int
	expiredUpTo  int
	staleAnswer  int
	startingTill time.Time
	startingFlip bool
	api21        bool
	exportOn     bool
	debugOn      bool

	// faults are the rules of misbehaviour (faults.go).
	faults *faultEngine
	// closing is closed by Close: requests held by a fault give up.
	closing   chan struct{}
	closeOnce sync.Once

	callsMu    sync.Mutex // guards the call record
	calls      []Call
	tokenCalls int

	logMu sync.Mutex // serialises the lines of Options.Log

	storeMu     sync.Mutex // guards the store's directory
	store       string
	storeTemp   bool
	storeClosed bool
	// archives are the stored archives' sizes by key; collectDue tells
	// that some may be needed no more (store.go). Guarded by mu.
	archives   map[string]int64
	collectDue bool
}

type issuedToken struct {
	seq     int
	expires time.Time
}

// New creates a stand. With Options.StateFile pointing at an existing file
// the state is loaded from it; otherwise the stand starts with one space,
// the control-panel user list and the console user.
func New(opts Options) (*Stand, error) {
	var saved *stateFile
	if opts.StateFile != "" {
		f, err := loadStateFile(opts.StateFile)
		if err != nil {
			return nil, err
		}
		saved = f
	}
	// The credentials: given ones, else the state file's (an existing .env
	// keeps working after a restart), else the defaults.
	if saved != nil {
		if opts.ClientID == "" {
			opts.ClientID = saved.ClientID
		}
		if opts.ClientSecret == "" {
			opts.ClientSecret = saved.ClientSecret
		}
	}
	if opts.ClientID == "" {
		opts.ClientID = DefaultClientID
	}
	if opts.ClientSecret == "" {
		opts.ClientSecret = randomHex(16)
	}
	s := &Stand{
		opts:        opts,
		speed:       opts.Speed,
		durations:   opts.Durations,
		compat:      map[string]bool{},
		tokens:      map[string]issuedToken{},
		staleAnswer: http.StatusUnauthorized,
		api21:       true,
		exportOn:    true,
		debugOn:     true,
		faults:      newFaultEngine(),
		closing:     make(chan struct{}),
		archives:    map[string]int64{},
	}
	if s.speed <= 0 {
		s.speed = 1
	}
	s.opts.Limits.fill()
	fillDuration(&s.durations.Create, DefaultDurations.Create)
	fillDuration(&s.durations.Apply, DefaultDurations.Apply)
	fillDuration(&s.durations.Start, DefaultDurations.Start)
	fillDuration(&s.durations.Stop, DefaultDurations.Stop)
	fillDuration(&s.durations.Delete, DefaultDurations.Delete)
	modes := opts.CompatibilityModes
	if modes == nil {
		modes = DefaultCompatibilityModes
	}
	for _, m := range modes {
		s.compat[strings.TrimSpace(m)] = true
	}
	if saved != nil {
		s.st = stateFromSnapshot(saved.State)
		s.lastAddress = saved.Address
		if saved.TLSCert != "" {
			c, err := parseStandCert([]byte(saved.TLSCert), []byte(saved.TLSKey))
			if err != nil {
				return nil, fmt.Errorf("stand: state file %s: %w", opts.StateFile, err)
			}
			s.cert = c
		}
		// Credentials given now, or first drawn now, are kept from here on.
		s.dirty = saved.ClientID != opts.ClientID || saved.ClientSecret != opts.ClientSecret
		if err := s.openStore(saved.inline); err != nil {
			return nil, err
		}
	} else {
		s.st = newState()
		s.seedBaseline(time.Now())
		s.dirty = true
	}
	if opts.TLS {
		// The loopback names now; Listen adds the host it is given.
		if err := s.ensureCertLocked(nil); err != nil {
			return nil, err
		}
	}
	if err := s.saveLocked(); err != nil {
		return nil, err
	}
	s.api = s.apiRoutes()
	s.handler = http.HandlerFunc(s.serve)
	return s, nil
}

func fillDuration(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// scaled turns a platform duration into real time at the stand's speed.
func (s *Stand) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * s.speed)
}

// Handler serves the Console API, the token endpoint, the console root and
// the applications' own addresses.
func (s *Stand) Handler() http.Handler { return s.handler }

// Listen starts serving on addr in the background ("127.0.0.1:0" picks a
// free port) and returns the base URL: https with Options.TLS, whose
// certificate then covers the host of addr and of the base URL too (a new
// certificate is made when the current one does not).
func (s *Stand) Listen(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	base := "http://" + ln.Addr().String()
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(serverErrors{s}, "", 0)}
	done := make(chan struct{})
	s.mu.Lock()
	if s.server != nil {
		s.mu.Unlock()
		ln.Close()
		return "", errors.New("stand: already listening")
	}
	if s.opts.TLS {
		if err := s.ensureCertLocked(listenHosts(addr, ln)); err != nil {
			s.mu.Unlock()
			ln.Close()
			return "", err
		}
		ln = tls.NewListener(ln, s.tlsConfigLocked())
		// No HTTP/2: a non-nil empty map keeps the server from offering it.
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
		base = "https://" + ln.Addr().String()
	}
	s.baseURL = base
	s.server = srv
	s.serveDone = done
	if s.lastAddress != ln.Addr().String() {
		s.lastAddress = ln.Addr().String()
		s.changed()
	}
	// The address and a new certificate are kept.
	s.saveIfDirty()
	s.mu.Unlock()
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return base, nil
}

// LastAddress is the host:port the stand last served on, as its state file
// remembers it ("" for a new stand): a restart that listens there again
// keeps the base URL of an existing .env.
func (s *Stand) LastAddress() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastAddress
}

// URL is the base URL Listen returned ("" before Listen).
func (s *Stand) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.baseURL
}

// Close stops serving, writes the state file a last time and removes a
// temporary store.
func (s *Stand) Close() error {
	s.closeOnce.Do(func() { close(s.closing) })
	s.mu.Lock()
	srv, done := s.server, s.serveDone
	s.server = nil
	s.mu.Unlock()
	var err error
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if e := srv.Shutdown(ctx); e != nil {
			srv.Close()
		}
		<-done
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(time.Now())
	if e := s.saveLocked(); e != nil {
		err = e
	}
	if e := s.removeStore(); e != nil && err == nil {
		err = e
	}
	return err
}

// ClientID is the client id the token endpoint accepts.
func (s *Stand) ClientID() string { return s.opts.ClientID }

// ClientSecret is the client secret the token endpoint accepts.
func (s *Stand) ClientSecret() string { return s.opts.ClientSecret }

// SetStarting makes the console answer "console not found" to every
// request for d of real time (not scaled), as EffectStarting does; 0 ends it.
func (s *Stand) SetStarting(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d <= 0 {
		s.startingTill = time.Time{}
		return
	}
	s.startingTill = time.Now().Add(d)
}

// startUntil keeps the console starting until at least till.
func (s *Stand) startUntil(till time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if till.After(s.startingTill) {
		s.startingTill = till
	}
}

// ExpireTokens makes every token issued so far refused from now on, as
// EffectExpireTokens does.
func (s *Stand) ExpireTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expiredUpTo = s.tokenSeq
}

// SetStaleTokenAnswer chooses how a refused JWT-shaped token (expired, or
// not issued by the stand) is answered: 401 (the default) or 400
// {"error_code":"invalid_request","error_description":"JWT expired at ..."}
// ("Unable to verify RSA signature of the JWT" for a token the stand did
// not issue). A token that is not JWT-shaped is the platform's 400 "JWT
// strings must contain exactly 2 period characters. Found: N" in both modes.
func (s *Stand) SetStaleTokenAnswer(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code != http.StatusBadRequest {
		code = http.StatusUnauthorized
	}
	s.staleAnswer = code
}

// SetAPI21 with false turns the stand into an old server: every v2.1 path
// answers 401 "Handler of HTTP request ... not found".
func (s *Stand) SetAPI21(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.api21 = enabled
}

// SetExportEnabled with false makes the 2.0 project/export method unknown.
func (s *Stand) SetExportEnabled(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exportOn = enabled
}

// SetDebugEnabled switches the server's debugging (config/debug.yml).
func (s *Stand) SetDebugEnabled(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.debugOn = enabled
}

// SetApplyLeavesError makes a failed apply leave status Error instead of
// silently rolling back: a rule "apply leaves error" with
// EffectApplyLeavesError on every apply (SetFaults replaces it too).
func (s *Stand) SetApplyLeavesError(on bool) {
	s.removeFaults(applyLeavesErrorRule)
	if on {
		_ = s.AddFault(Fault{Name: applyLeavesErrorRule, Effect: EffectApplyLeavesError})
	}
}

// BreakNextResponses cuts the next n answers to method+path mid-body (the
// connection is closed after part of the body), for transport-retry tests:
// a rule with EffectTruncate and Times n; 0 removes it. path is the URL
// path exactly as requested, e.g. "/console/api/v2/tasks/application-tasks".
func (s *Stand) BreakNextResponses(method, path string, n int) {
	name := breakRuleName(method, path)
	s.removeFaults(name)
	if n > 0 {
		_ = s.AddFault(Fault{Name: name, Method: method, Path: path, Effect: EffectTruncate, Times: n})
	}
}

// Calls lists every request answered so far, oldest first.
func (s *Stand) Calls() []Call {
	s.callsMu.Lock()
	defer s.callsMu.Unlock()
	out := make([]Call, len(s.calls))
	copy(out, s.calls)
	return out
}

// TokenCalls counts requests to the token endpoint.
func (s *Stand) TokenCalls() int {
	s.callsMu.Lock()
	defer s.callsMu.Unlock()
	return s.tokenCalls
}

// Snapshot returns a deep copy of the state, with operations due by now
// already completed.
func (s *Stand) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.settle(now)
	s.saveIfDirty()
	sn := s.st.snapshot()
	for i := range sn.Apps {
		sn.Apps[i].Status = statusAt(&sn.Apps[i])
	}
	return sn
}

// SetAppStatus injects a status ("UNKNOWN", "" and so on). An operation in
// progress on the application is completed first. The error names an
// unknown application.
func (s *Stand) SetAppStatus(appID, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(time.Now())
	defer s.saveIfDirty()
	a := s.st.appByID[appID]
	if a == nil {
		return errors.New("stand: no application " + appID)
	}
	if a.Op != nil {
		s.finishOp(a, a.Op.Due)
	}
	a.Status = status
	s.changed()
	return nil
}

// SetAppDrafts marks an application as having unpublished edits in its
// development environment (delete is then refused with FAILED_PRECONDITION).
// The error names an unknown application.
func (s *Stand) SetAppDrafts(appID string, drafts bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.saveIfDirty()
	a := s.st.appByID[appID]
	if a == nil {
		return errors.New("stand: no application " + appID)
	}
	a.Drafts = drafts
	s.changed()
	return nil
}

// changed marks the state as needing a save.
func (s *Stand) changed() { s.dirty = true }

func (s *Stand) saveIfDirty() {
	s.collectArchives()
	if err := s.saveLocked(); err != nil {
		s.note("saving the state: %v", err)
	}
}

func (s *Stand) saveLocked() error {
	if !s.dirty || s.opts.StateFile == "" {
		s.dirty = false
		return nil
	}
	s.dirty = false
	f := stateFile{Version: stateFileVersion, ClientID: s.opts.ClientID,
		ClientSecret: s.opts.ClientSecret, Address: s.lastAddress, State: s.st.snapshot()}
	if s.cert != nil {
		f.TLSCert, f.TLSKey = string(s.cert.certPEM), string(s.cert.keyPEM)
	}
	return saveStateFile(s.opts.StateFile, f)
}
