package dap

import (
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
)

// After the client's disconnect, an adapter that ignores it (and stdin EOF,
// and SIGTERM) is killed when the grace period is over, though the client
// keeps its end of the stream open; the proxy then returns.
func TestDisconnectStopsAStubbornAdapter(t *testing.T) {
	opts := fastFakeOptions(t)
	opts.GracePeriod = 300 * time.Millisecond
	s := startSession(t, opts)
	s.client.initialize()
	s.client.call("fake/stubborn", nil)
	pid := int(s.client.call("fake/argv", nil).body()["pid"].(float64))
	start := time.Now()
	s.client.call("disconnect", nil)
	r := s.wait()
	if r.code != 1 || r.err != nil {
		t.Errorf("Run = %d, %v; want 1 (the adapter had to be killed)", r.code, r.err)
	}
	if d := time.Since(start); d < opts.GracePeriod || d > opts.GracePeriod+5*time.Second {
		t.Errorf("Run returned %v after disconnect; grace is %v", d, opts.GracePeriod)
	}
	assertProcessGone(t, pid)
	if !strings.Contains(s.stderr.String(), i18n.TL(i18n.RU, "dap.adapter-killed", "grace", opts.GracePeriod)) {
		t.Errorf("stderr does not say the adapter was killed:\n%s", s.stderr)
	}
}

// An adapter that exits on disconnect ends the session with its own code,
// without waiting for the grace period or for the client to close.
func TestDisconnectEndsTheSessionWhenTheAdapterExits(t *testing.T) {
	opts := fastFakeOptions(t)
	opts.GracePeriod = time.Minute
	s := startSession(t, opts)
	s.client.initialize()
	pid := int(s.client.call("fake/argv", nil).body()["pid"].(float64))
	s.client.call("disconnect", nil)
	if r := s.wait(); r.code != 0 || r.err != nil {
		t.Errorf("Run = %d, %v; want the adapter's 0", r.code, r.err)
	}
	assertProcessGone(t, pid)
}

// A disconnect after a failed initialize is answered and ends the proxy,
// though the client keeps its stream open; so does one before any
// initialize.
func TestDisconnectWithoutAnAdapterEndsTheProxy(t *testing.T) {
	t.Run("initialize failed", func(t *testing.T) {
		s := startSession(t, Options{Getenv: func(string) string { return "" }, GracePeriod: time.Minute})
		if resp := s.client.response(s.client.request("initialize", nil)); resp.m["success"] != false {
			t.Fatalf("initialize succeeded: %s", resp.raw)
		}
		s.client.call("disconnect", nil)
		if r := s.wait(); r.code != 1 || r.err != nil {
			t.Errorf("Run = %d, %v; want 1 after a failed start", r.code, r.err)
		}
	})
	t.Run("no initialize", func(t *testing.T) {
		s := startSession(t, Options{Getenv: func(string) string { return "" }, GracePeriod: time.Minute})
		s.client.call("disconnect", nil)
		if r := s.wait(); r.code != 0 || r.err != nil {
			t.Errorf("Run = %d, %v; want 0", r.code, r.err)
		}
	})
}
