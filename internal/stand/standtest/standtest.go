// Package standtest starts an emulated stand for a test.
package standtest

import (
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
)

// DefaultSpeed is the speed Start uses when opts.Speed is zero: platform
// operations of seconds take milliseconds.
const DefaultSpeed = 0.001

// Start creates a stand, serves it on 127.0.0.1 at a free port and closes
// it when the test ends.
func Start(t testing.TB, opts stand.Options) *stand.Stand {
	t.Helper()
	if opts.Speed == 0 {
		opts.Speed = DefaultSpeed
	}
	s, err := stand.New(opts)
	if err != nil {
		t.Fatalf("standtest: creating the stand: %v", err)
	}
	if _, err := s.Listen("127.0.0.1:0"); err != nil {
		t.Fatalf("standtest: listening: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("standtest: closing the stand: %v", err)
		}
	})
	return s
}
