// Package testio holds what the tests of several packages share for
// reading what a process or a server writes.
package testio

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer that one goroutine (a child process's copy, a
// server's log) writes while another reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
