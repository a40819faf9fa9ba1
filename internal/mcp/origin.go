package mcp

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// hostGuard refuses the requests a web page could make through DNS
// rebinding (a name of the attacker's that resolves to this server): the
// streamable HTTP transport says a server MUST validate Origin. The Host
// a request names must be an address the server listens on (on loopback,
// also the loopback names), or a name given with --allow-host; an Origin,
// when a browser sends one, must be a loopback origin or one given with
// --allow-origin. Ports are not compared: a TLS proxy in front may use
// its own.
type hostGuard struct {
	hosts   map[string]bool // lower-case names and IP literals
	origins map[string]bool // normalized scheme://host:port

	mu          sync.Mutex
	listenIP    netip.Addr
	unspecified bool
	local       map[netip.Addr]bool // the machine's addresses, when listening on all of them
}

func newHostGuard(ctx context.Context, hosts, origins []string) (*hostGuard, error) {
	g := &hostGuard{hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range hosts {
		name := normalizeHost(h)
		if name == "" || strings.ContainsAny(name, "/:@ ") && !isIP(name) {
			return nil, platform.ConfigErrorf(ctx, "mcp.http.allow-host-bad", "host", h)
		}
		g.hosts[name] = true
	}
	for _, o := range origins {
		norm, ok := normalizeOrigin(o)
		if !ok {
			return nil, platform.ConfigErrorf(ctx, "mcp.http.allow-origin-bad", "origin", o)
		}
		g.origins[norm] = true
	}
	return g, nil
}

// listening tells the guard where the server listens.
func (g *hostGuard) listening(addr net.Addr) {
	g.mu.Lock()
	defer g.mu.Unlock()
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return
	}
	ip, _ := netip.AddrFromSlice(tcp.IP)
	g.listenIP = ip.Unmap()
	g.unspecified = g.listenIP.IsUnspecified()
	if g.unspecified {
		g.local = map[netip.Addr]bool{}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					if ip, ok := netip.AddrFromSlice(n.IP); ok {
						g.local[ip.Unmap()] = true
					}
				}
			}
		}
	}
}

// check is the one-line reason to refuse r, or "".
func (g *hostGuard) check(ctx context.Context, r *http.Request) string {
	if reason := g.checkHost(ctx, r.Host); reason != "" {
		return reason
	}
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		// Not a browser's request (agents, curl): nothing to check.
		return ""
	}
	norm, ok := normalizeOrigin(origins[0])
	if len(origins) > 1 || !ok {
		return i18n.T(ctx, "mcp.http.origin-refused", "origin", clip(strings.Join(origins, ", "), 100))
	}
	if g.origins[norm] || loopbackName(hostOfOrigin(norm)) {
		return ""
	}
	return i18n.T(ctx, "mcp.http.origin-refused", "origin", clip(origins[0], 100))
}

func (g *hostGuard) checkHost(ctx context.Context, hostport string) string {
	name := normalizeHost(hostport)
	if name == "" {
		return i18n.T(ctx, "mcp.http.host-missing")
	}
	if g.hosts[name] {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if ip, err := netip.ParseAddr(name); err == nil {
		ip = ip.Unmap()
		switch {
		case ip == g.listenIP:
			return ""
		case g.listenIP.IsLoopback() && ip.IsLoopback():
			return ""
		case g.unspecified && (ip.IsLoopback() || g.local[ip]):
			return ""
		}
	} else if loopbackName(name) && (g.listenIP.IsLoopback() || g.unspecified) {
		return ""
	}
	return i18n.T(ctx, "mcp.http.host-refused", "host", clip(hostport, 100))
}

// normalizeHost is the lower-case host of a Host header or a name,
// without port or brackets.
func normalizeHost(hostport string) string {
	hostport = strings.TrimSpace(strings.ToLower(hostport))
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		hostport = host
	}
	hostport = strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
	return strings.TrimSuffix(hostport, ".")
}

func isIP(name string) bool {
	_, err := netip.ParseAddr(name)
	return err == nil
}

// loopbackName tells whether a host (no port) names this machine only.
func loopbackName(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// normalizeOrigin is an origin as scheme://host:port in lower case, the
// port spelled out; ok is false for anything that is not an http(s)
// origin ("null" included).
func normalizeOrigin(origin string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port), true
}

// hostOfOrigin is the host of a normalized origin.
func hostOfOrigin(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
