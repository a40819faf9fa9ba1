package platform_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/platform"
)

// A GET a gateway or a busy server turns away (502, 503, 504, 429) is
// repeated within the read retries; a POST so answered is not: whether
// it acted is for its operation to find out.
func TestTurnedAwayGETIsRepeatedAndPOSTIsNot(t *testing.T) {
	for _, status := range []int{502, 503, 504, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var n atomic.Int32
			s := startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) <= 2 {
					w.WriteHeader(status)
					fmt.Fprint(w, "upstream unavailable")
					return
				}
				fmt.Fprint(w, `[]`)
			})
			cl := retryingClient(t, s.URL, 0)
			ctx := context.Background()
			if _, err := cl.ListApps(ctx); err != nil {
				t.Fatalf("a GET turned away twice: %v", err)
			}
			if got := s.requests.Load(); got != 3 {
				t.Errorf("the server got %d requests, want 3", got)
			}
			n.Store(0)
			_, err := cl.Post(ctx, "/applications", map[string]any{"display-name": "x"})
			if !platform.IsAPIStatus(err, status) || !platform.IsTurnedAway(err) {
				t.Fatalf("a POST turned away: want the %d answer, got %v", status, err)
			}
			if got := s.requests.Load(); got != 4 {
				t.Errorf("the server got %d requests, want 4 (the POST once)", got)
			}
		})
	}
}

// A Retry-After longer than the limit makes the answer final at once; the
// budget of read retries bounds the rest.
func TestRetryAfterBeyondTheLimitIsFinal(t *testing.T) {
	var n atomic.Int32
	s := startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	cl := retryingClient(t, s.URL, time.Second)
	_, err := cl.ListApps(context.Background())
	if !platform.IsAPIStatus(err, 503) {
		t.Fatalf("want the 503, got %v", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1: an hour's Retry-After is not waited for", got)
	}
	var m atomic.Int32
	gone := startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		m.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	})
	if _, err := retryingClient(t, gone.URL, time.Second).ListApps(context.Background()); !platform.IsAPIStatus(err, 502) {
		t.Fatalf("want the 502, got %v", err)
	}
	if got := m.Load(); got != 3 {
		t.Errorf("%d requests, want 3 (the first and the two retries)", got)
	}
}

func TestRetryAfterIsRead(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		value string
		after time.Duration
		given bool
	}{
		{"", 0, false},
		{"2", 2 * time.Second, true},
		{" 0 ", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(5 * time.Second).Format(http.TimeFormat), 5 * time.Second, true},
		{now.Add(-5 * time.Second).Format(http.TimeFormat), 0, true},
	} {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		after, given := platform.RetryAfter(h, now)
		if after != tc.after || given != tc.given {
			t.Errorf("Retry-After %q: %v %v, want %v %v", tc.value, after, given, tc.after, tc.given)
		}
	}
}

func retryingClient(t *testing.T, base string, retryAfterLimit time.Duration) *platform.Client {
	ctx := context.Background()
	t.Helper()
	cfg := &platform.Config{BaseURL: base, ClientID: "client", ClientSecret: testSecret,
		TLSVerify: true, NoProxy: true, Timeout: testTimeout}
	cl, err := platform.NewClient(ctx, cfg, platform.ClientOptions{TokenCacheDir: "-",
		ReadRetryPauses: []time.Duration{time.Millisecond, time.Millisecond}, RetryAfterLimit: retryAfterLimit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// RoundTrip is the shortest exchange so far, from the request written to
// the answer's first byte: none before the first answer, and an answer
// that was slow to come (the server's work) does not make it long – the
// token's quick exchange came first.
func TestRoundTripIsTheShortestExchange(t *testing.T) {
	const slowFor = 100 * time.Millisecond // within the client's timeout
	s := startSlowServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(slowFor)
		fmt.Fprint(w, `[]`)
	})
	cl := retryingClient(t, s.URL, 0)
	if rt := cl.RoundTrip(); rt != 0 {
		t.Fatalf("a round trip before any exchange: %v", rt)
	}
	for range 2 {
		if _, err := cl.ListApps(context.Background()); err != nil {
			t.Fatal(err)
		}
		if rt := cl.RoundTrip(); rt <= 0 || rt >= slowFor {
			t.Fatalf("after the token's quick exchange and a list answered in %v: %v", slowFor, rt)
		}
	}
}
