package stand

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"slices"
	"time"
)

// The stand's certificate: self-signed and its own CA, so the one file a
// client is given to trust is the certificate the stand serves.
const (
	certYears = 10
	// certBackdate covers a client whose clock is a little behind.
	certBackdate = time.Hour
)

// certDefaultIPs and certDefaultNames are the loopback names every
// certificate of the stand covers.
var (
	certDefaultIPs   = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	certDefaultNames = []string{"localhost"}
)

// standCert is the stand's certificate with its private key, parsed and in
// PEM as the state file keeps them. The key never leaves the stand but
// through the state file.
type standCert struct {
	pair    tls.Certificate // Leaf set
	certPEM []byte
	keyPEM  []byte
}

// newStandCert makes a certificate covering the loopback names and hosts.
func newStandCert(hosts []string, now time.Time) (*standCert, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "elemctl stand", Organization: []string{"elemctl emulated stand"}},
		NotBefore:             now.Add(-certBackdate),
		NotAfter:              now.AddDate(certYears, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:           slices.Clone(certDefaultIPs),
		DNSNames:              slices.Clone(certDefaultNames),
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(tmpl.IPAddresses, ip.Equal) {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
		} else if h != "" && !slices.Contains(tmpl.DNSNames, h) {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return parseStandCert(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
}

// parseStandCert reads a certificate and its key as the state file keeps
// them. The error never quotes the key.
func parseStandCert(certPEM, keyPEM []byte) (*standCert, error) {
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, errors.New("the certificate and its key do not form a pair")
	}
	if pair.Leaf == nil {
		if pair.Leaf, err = x509.ParseCertificate(pair.Certificate[0]); err != nil {
			return nil, fmt.Errorf("the certificate: %w", err)
		}
	}
	return &standCert{pair: pair, certPEM: certPEM, keyPEM: keyPEM}, nil
}

// covers tells whether the certificate is valid at now for every host.
func (c *standCert) covers(hosts []string, now time.Time) bool {
	leaf := c.pair.Leaf
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		return false
	}
	for _, h := range hosts {
		if leaf.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// names are the hosts the certificate covers beyond the loopback ones: a
// new certificate keeps covering them.
func (c *standCert) names() []string {
	var out []string
	for _, ip := range c.pair.Leaf.IPAddresses {
		if !slices.ContainsFunc(certDefaultIPs, ip.Equal) {
			out = append(out, ip.String())
		}
	}
	for _, n := range c.pair.Leaf.DNSNames {
		if !slices.Contains(certDefaultNames, n) {
			out = append(out, n)
		}
	}
	return out
}

// listenHosts are the hosts a client may name the stand by after
// Listen(addr): the host addr gives and the one of the address listened
// on, which the base URL names.
func listenHosts(addr string, ln net.Listener) []string {
	var hosts []string
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" {
		hosts = append(hosts, h)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		if h := tcp.IP.String(); !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// ensureCertLocked makes sure the stand has a certificate valid now for
// hosts, making a new one (that also covers what the old one did) when
// not; a new one is kept in the state file. s.mu is held.
func (s *Stand) ensureCertLocked(hosts []string) error {
	now := time.Now()
	if s.cert != nil && s.cert.covers(hosts, now) {
		return nil
	}
	if s.cert != nil {
		hosts = append(s.cert.names(), hosts...)
	}
	c, err := newStandCert(hosts, now)
	if err != nil {
		return fmt.Errorf("stand: making its certificate: %w", err)
	}
	s.cert = c
	s.changed()
	return nil
}

// tlsConfigLocked is the server side of the stand's HTTPS: its
// certificate, TLS 1.2 at least, HTTP/1.1 only (the faults cut and reset
// connections, which needs a connection per request, as the Console API
// client uses them). With a latency the stand's part of the handshake
// waits a round trip first. s.mu is held.
func (s *Stand) tlsConfigLocked() *tls.Config {
	cfg := &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{s.cert.pair},
		NextProtos:   []string{"http/1.1"},
	}
	if latency := s.opts.Latency; latency > 0 {
		cfg.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
			if err := s.holdUnlessGone(latency, hello.Context().Done()); err != nil {
				return nil, err
			}
			return nil, nil
		}
	}
	return cfg
}

// CACertPEM is the stand's certificate in PEM, the CA a client trusts to
// reach it over HTTPS; nil without Options.TLS. Listen may replace the
// certificate (for a host the current one does not cover): read it after
// Listen.
func (s *Stand) CACertPEM() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.opts.TLS || s.cert == nil {
		return nil
	}
	return slices.Clone(s.cert.certPEM)
}
