package assembly

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// TestWriteZipEndsWhenCancelledAtAnyInstant cancels the packing at many
// instants: whatever the feeder and the workers were doing, writeZip must
// return the context's error instead of waiting for an entry nobody will
// compress. A run that does not return is reported as a hang (the bound is
// a hang detector, far above any packing time).
func TestWriteZipEndsWhenCancelledAtAnyInstant(t *testing.T) {
	entries := make([]zipEntry, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range entries {
		data := make([]byte, 2<<10)
		for j := range data {
			data[j] = byte('a' + rng.IntN(8))
		}
		entries[i] = zipEntry{name: fmt.Sprintf("f%03d.txt", i), data: data}
	}
	runs := 400
	if testing.Short() {
		runs = 100
	}
	for run := range runs {
		ctx, cancel := context.WithCancel(context.Background())
		spins := rng.IntN(200)
		go func() {
			for range spins {
				runtime.Gosched()
			}
			cancel()
		}()
		done := make(chan error, 1)
		go func() {
			_, err := writeZip(ctx, io.Discard, entries, nil)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("run %d: %v", run, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("run %d: writeZip did not return after the cancel", run)
		}
		cancel()
	}
}
