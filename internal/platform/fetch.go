package platform

import (
	"context"
	"net/http"
)

// Fetcher makes plain GET requests to addresses outside the Console API –
// the release feed of self-update and its downloads – by the rules of the
// client: ELEMENT_CA_FILE and ELEMENT_TLS_VERIFY, the environment's proxy
// unless ELEMCTL_NO_PROXY or a local host, the per-operation --timeout, a
// GET repeated after a broken connection or a gateway's 502/503/504/429
// (Retry-After honoured within its limit), and the same transport errors
// (with the proxy hint). It needs no connection values. Unlike the Console
// API's, these answers may redirect (a release asset moves to a storage
// host), so redirects are followed; net/http drops an Authorization header
// on a redirect to another host.
type Fetcher struct{ c *Client }

// NewFetcher builds a fetcher on the transport settings of cfg.
func NewFetcher(ctx context.Context, cfg *Config, opts ClientOptions) (*Fetcher, error) {
	hc, opts, err := newTransport(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	return following(cfg, hc, opts), nil
}

// following is a fetcher on the transport of hc that follows redirects.
func following(cfg *Config, hc *http.Client, opts ClientOptions) *Fetcher {
	follow := *hc
	follow.CheckRedirect = nil
	return &Fetcher{c: &Client{cfg: cfg, http: &follow, opts: opts}}
}

// Get fetches an absolute address. Every HTTP status is an answer; a
// network failure is a transport Error.
func (f *Fetcher) Get(ctx context.Context, url string, header http.Header) (*Response, error) {
	if header == nil {
		header = http.Header{}
	}
	return f.c.sendTo(ctx, http.MethodGet, url, payload{}, header, 0, f.c.opts.ReadRetryPauses)
}

// Close releases idle connections.
func (f *Fetcher) Close() { f.c.Close() }
