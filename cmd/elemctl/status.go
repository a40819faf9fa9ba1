package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// statusLine is the live line a terminal shows during long waits: elapsed
// time and the current status, rewritten in place and cleared before any
// ordinary line.
type statusLine struct {
	w     io.Writer
	mu    *sync.Mutex
	start time.Time
	shown bool
}

func newStatusLine(w io.Writer, mu *sync.Mutex) *statusLine {
	return &statusLine{w: w, mu: mu, start: time.Now()}
}

func (s *statusLine) set(status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	elapsed := time.Since(s.start).Round(time.Second)
	line := fmt.Sprintf("[%s] %s", elapsed, status)
	if len(line) > 110 {
		line = line[:110] + "…"
	}
	fmt.Fprintf(s.w, "\r\x1b[K%s", strings.ReplaceAll(line, "\n", " "))
	s.shown = true
}

func (s *statusLine) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
}

func (s *statusLine) clearLocked() {
	if s.shown {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.shown = false
	}
}
