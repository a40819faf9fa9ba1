package dap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
)

// secretMask replaces a secret wherever the proxy relays text.
const secretMask = "***"

// secrets are the values (debug tokens) that must never reach a log.
type secrets struct {
	mu   sync.RWMutex
	list []string
	max  int
}

func (s *secrets) add(v string) {
	if v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.list {
		if have == v {
			return
		}
	}
	s.list = append(s.list, v)
	s.max = max(s.max, len(v))
}

func (s *secrets) redact(text string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.list {
		text = strings.ReplaceAll(text, v, secretMask)
	}
	return text
}

// redactBytes returns b itself when it holds no secret.
func (s *secrets) redactBytes(b []byte) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.list {
		if bytes.Contains(b, []byte(v)) {
			b = bytes.ReplaceAll(b, []byte(v), []byte(secretMask))
		}
	}
	return b
}

func (s *secrets) longest() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.max
}

// copyRedacted relays the adapter's stderr line by line with every secret
// masked; an adapter that logs its launch arguments would print the token.
// A line longer than the buffer is relayed in pieces, keeping back a tail
// long enough that a secret cut in two is still masked.
func copyRedacted(dst io.Writer, src io.Reader, s *secrets) {
	br := bufio.NewReaderSize(src, 32<<10)
	var carry []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			data := chunk
			if len(carry) > 0 {
				data = append(carry, chunk...)
				carry = nil
			}
			data = s.redactBytes(data)
			if errors.Is(err, bufio.ErrBufferFull) {
				if keep := s.longest() - 1; keep > 0 && keep < len(data) {
					carry = append([]byte(nil), data[len(data)-keep:]...)
					data = data[:len(data)-keep]
				}
			}
			_, _ = dst.Write(data)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if len(carry) > 0 {
				_, _ = dst.Write(s.redactBytes(carry))
			}
			return
		}
	}
}

// lockedWriter serialises writes from the proxy and the adapter's stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
