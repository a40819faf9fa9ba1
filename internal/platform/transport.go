package platform

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// newHTTPClient builds the transport of one stand.
//
// TLS: the system trust store, plus ELEMENT_CA_FILE when given.
// ELEMENT_TLS_VERIFY=false turns verification off (and the caller warns on
// stderr). ELEMENT_TLS_STRICT exists for OpenSSL's strict RFC 5280 profile;
// Go's verifier has no lenient mode to switch to: it always applies its own
// RFC 5280 checks (it rejects, for instance, negative serials and malformed
// name constraints), so "false" is accepted and validated but changes
// nothing, and "true" is what Go does anyway.
//
// Proxy: the environment's proxy settings, except for local hosts (by name
// alone, no DNS) and when ELEMCTL_NO_PROXY is on.
func newHTTPClient(ctx context.Context, c *Config) (*http.Client, error) {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, ConfigErrorf(ctx, "config.ca-file", "path", c.CAFile, "error", err)
		}
		pool := x509.NewCertPool()
		if c.TLSVerify {
			// The system's store, with the file's certificates added;
			// without verification the file is only checked. Built here,
			// before any connection: crypto/tls reads a finished RootCAs,
			// and a verification of elemctl's own, run when the pool is
			// ready (VerifyConnection), would not see the host name a
			// connection to an IP address was checked against.
			if system, err := x509.SystemCertPool(); err == nil && system != nil {
				pool = system
			}
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, ConfigErrorf(ctx, "config.ca-file", "path", c.CAFile, "error", i18n.T(ctx, "config.ca-file-no-certs"))
		}
		tlsConf.RootCAs = pool
	}
	switch {
	case !c.TLSVerify:
		tlsConf.InsecureSkipVerify = true
	case c.CAFile == "" && !strings.HasPrefix(strings.ToLower(c.BaseURL), "http://"):
		// The handshake verifies the server against the system's trust
		// store, which Go loads once, on first use, by parsing every
		// certificate in it: on Linux two hundred or more files, tens of
		// milliseconds. Loading starts now, so it runs while the token is
		// read and the connection is made; the verification waits for it.
		go warmSystemRoots()
	}
	noProxy := c.NoProxy
	// HTTP/1.1 only, as the reference: the timeout is enforced per network
	// operation on each connection (netconn.go), which a multiplexed
	// HTTP/2 connection read in the background does not fit.
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	tr := &http.Transport{
		Proxy: func(r *http.Request) (*url.URL, error) {
			if noProxy || IsLocalHost(r.URL.Hostname()) {
				return nil, nil
			}
			return http.ProxyFromEnvironment(r)
		},
		// Connect, proxy CONNECT and TLS handshake are bounded per
		// operation by the request's timeout (no total handshake bound,
		// as with the reference's socket timeout).
		DialContext:           dialFunc(c.Timeout),
		TLSClientConfig:       tlsConf,
		Protocols:             &protocols,
		MaxIdleConns:          16,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       90 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport: tr,
		// The platform's redirects are answers (the console root's 302), not
		// something to follow.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, nil
}

// warmSystemRoots loads the system's trust store into the process (the
// pool Go keeps for verifications without RootCAs).
func warmSystemRoots() { _, _ = x509.SystemCertPool() }

// IsLocalHost decides by the name alone whether a host is local: localhost
// and *.localhost, the suffixes .local .lan .localdomain .internal .test,
// and loopback, private and link-local IP literals.
func IsLocalHost(host string) bool {
	h := strings.ToLower(strings.Trim(host, "[]"))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	for _, s := range []string{".local", ".lan", ".localdomain", ".internal", ".test"} {
		if strings.HasSuffix(h, s) {
			return true
		}
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsUnspecified()
	}
	return false
}

// proxyFor names the proxy a request to u would go through, with
// credentials masked, or "".
func proxyFor(c *Config, u *url.URL) string {
	if c.NoProxy || IsLocalHost(u.Hostname()) {
		return ""
	}
	p, err := http.ProxyFromEnvironment(&http.Request{URL: u})
	if err != nil || p == nil {
		return ""
	}
	if p.User != nil {
		// Neither the user nor the password is shown; a placeholder that
		// needs no escaping keeps the address readable.
		p.User = url.UserPassword("user", "xxxxx")
	}
	return p.Redacted()
}
