package mcp

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/platform"
)

// ListenAddress is where the HTTP transport is to listen.
type ListenAddress struct {
	// HostPort is what net.Listen gets.
	HostPort string
	// Loopback tells that only this machine can connect.
	Loopback bool
}

// ParseListenAddress reads --http ADDR:
//
//   - "PORT" alone listens on 127.0.0.1;
//   - "localhost:PORT" listens on 127.0.0.1 (the name is not looked up, so
//     a hosts file cannot turn it into something else);
//   - an IP literal listens there, and is loopback when it is 127.0.0.0/8 or
//     ::1 ("[::1]:PORT");
//   - ":PORT", "0.0.0.0:PORT" and "[::]:PORT" listen on every interface;
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
		return ListenAddress{HostPort: net.JoinHostPort("127.0.0.1", addr), Loopback: true}, nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ListenAddress{}, bad
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return ListenAddress{}, bad
	}
	if strings.EqualFold(host, "localhost") {
		return ListenAddress{HostPort: net.JoinHostPort("127.0.0.1", port), Loopback: true}, nil
	}
	if host == "" {
		return ListenAddress{HostPort: net.JoinHostPort("", port)}, nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ListenAddress{HostPort: net.JoinHostPort(ip.String(), port), Loopback: ip.IsLoopback()}, nil
	}
	return ListenAddress{HostPort: net.JoinHostPort(host, port)}, nil
}
