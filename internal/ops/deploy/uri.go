package deploy

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"os"

	"github.com/elemctl/elemctl/internal/platform"
)

// uriTransport reaches an application's own address with the stand's
// network settings: the same proxy bypass, TLS verification switch and
// extra CA as the Console API client.
func uriTransport(cfg *platform.Config) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = func(r *http.Request) (*url.URL, error) {
		if cfg.NoProxy || platform.IsLocalHost(r.URL.Hostname()) {
			return nil, nil
		}
		return http.ProxyFromEnvironment(r)
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if !cfg.TLSVerify {
		tc.InsecureSkipVerify = true // the user turned verification off for this stand
	}
	if cfg.CAFile != "" {
		if pem, err := os.ReadFile(cfg.CAFile); err == nil {
			pool, err := x509.SystemCertPool()
			if err != nil || pool == nil {
				pool = x509.NewCertPool()
			}
			pool.AppendCertsFromPEM(pem)
			tc.RootCAs = pool
		}
	}
	t.TLSClientConfig = tc
	return t
}
