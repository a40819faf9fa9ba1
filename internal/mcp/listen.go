package mcp

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// ListenAddress is where the HTTP transport is to listen.
type ListenAddress struct {
	// Network and HostPort are what net.Listen gets: "tcp4" for an IPv4
	// address (0.0.0.0 is every IPv4 address, not IPv6 too), "tcp6" for
	// an IPv6 one ([::] is every IPv6 address only), "tcp" for every
	// interface of both (":PORT") and for a host name.
	Network, HostPort string
	// Loopback tells that only this machine can connect.
	Loopback bool
	// Name is the host name asked for (not an IP literal, not localhost),
	// which clients send as Host.
	Name string
}

// Where says where a listener on ln listens, for people: the address and
// which families it takes.
func (a ListenAddress) Where(ctx context.Context, ln net.Addr) string {
	switch a.Network {
	case "tcp4":
		if strings.HasPrefix(a.HostPort, "0.0.0.0:") {
			return i18n.T(ctx, "mcp.http.where-all-v4", "addr", ln.String())
		}
	case "tcp6":
		if strings.HasPrefix(a.HostPort, "[::]:") {
			return i18n.T(ctx, "mcp.http.where-all-v6", "addr", ln.String())
		}
	default:
		if strings.HasPrefix(a.HostPort, ":") {
			return i18n.T(ctx, "mcp.http.where-all", "addr", ln.String())
		}
	}
	return i18n.T(ctx, "mcp.http.where", "addr", ln.String())
}

// ParseListenAddress reads --http ADDR:
//
//   - "PORT" alone listens on 127.0.0.1;
//   - "localhost:PORT" listens on 127.0.0.1 (the name is not looked up, so
//     a hosts file cannot turn it into something else);
//   - an IP literal listens there, and is loopback when it is 127.0.0.0/8 or
//     ::1 ("[::1]:PORT");
//   - ":PORT" listens on every interface, IPv4 and IPv6; "0.0.0.0:PORT" on
//     every IPv4 address only, "[::]:PORT" on every IPv6 address only;
//   - any other host name listens where it resolves, and counts as
//     reachable from other machines.
//
// Everything but loopback needs a token the user named on purpose.
func ParseListenAddress(ctx context.Context, addr string) (ListenAddress, error) {
	bad := platform.ConfigErrorf(ctx, "mcp.http.bad-address", "addr", addr)
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return ListenAddress{}, bad
	}
	if port, err := strconv.Atoi(addr); err == nil {
		if port < 0 || port > 65535 {
			return ListenAddress{}, bad
		}
		return ListenAddress{Network: "tcp4", HostPort: net.JoinHostPort("127.0.0.1", addr), Loopback: true}, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ListenAddress{}, bad
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return ListenAddress{}, bad
	}
	if strings.EqualFold(host, "localhost") {
		return ListenAddress{Network: "tcp4", HostPort: net.JoinHostPort("127.0.0.1", port), Loopback: true}, nil
	}
	if host == "" {
		return ListenAddress{Network: "tcp", HostPort: net.JoinHostPort("", port)}, nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		network := "tcp6"
		if ip.Is4() || ip.Is4In6() {
			ip, network = ip.Unmap(), "tcp4"
		}
		return ListenAddress{Network: network, HostPort: net.JoinHostPort(ip.String(), port), Loopback: ip.IsLoopback()}, nil
	}
	return ListenAddress{Network: "tcp", HostPort: net.JoinHostPort(host, port), Name: host}, nil
}
