package jsonx

import (
	"runtime"
	"sync"
)

// parallelFrom is the size from which a top-level array is decoded on all
// cores: the platform's application list of a big stand is megabytes of
// cards, and each card decodes on its own.
const parallelFrom = 512 << 10

// decodeArrayInParallel decodes a top-level array by splitting it at
// element boundaries and decoding the parts side by side. ok is false when
// data is not a well-formed array; the caller then decodes it the usual
// way, which also finds and reports any error.
func decodeArrayInParallel(data []byte, owned bool) (any, bool) {
	s := scanner{data: data}
	s.skipSpace()
	if s.pos >= len(data) || data[s.pos] != '[' {
		return nil, false
	}
	s.pos++
	var bounds [][2]int
	for {
		s.skipSpace()
		if s.pos < len(data) && data[s.pos] == ']' && len(bounds) == 0 {
			return nil, false // empty: nothing to share out
		}
		start := s.pos
		if !s.skipValue(0) {
			return nil, false
		}
		bounds = append(bounds, [2]int{start, s.pos})
		s.skipSpace()
		if s.pos >= len(data) {
			return nil, false
		}
		if data[s.pos] == ',' {
			s.pos++
			continue
		}
		if data[s.pos] != ']' {
			return nil, false
		}
		s.pos++
		break
	}
	s.skipSpace()
	if s.pos != len(data) {
		return nil, false
	}

	out := make([]any, len(bounds))
	workers := runtime.GOMAXPROCS(0)
	if workers > len(bounds) {
		workers = len(bounds)
	}
	var wg sync.WaitGroup
	var failed sync.Once
	ok := true
	chunk := (len(bounds) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, len(bounds))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One scanner per worker: its slabs serve all its elements.
			es := scanner{owned: owned}
			for i := lo; i < hi; i++ {
				es.data, es.pos = data[:bounds[i][1]], bounds[i][0]
				v, err := es.value(1)
				if err != nil {
					failed.Do(func() { ok = false })
					return
				}
				out[i] = v
			}
		}()
	}
	wg.Wait()
	return out, ok
}

// skipValue moves past one JSON value, checking only as much as finding
// its end needs (strings and nesting); the decoder checks the rest.
func (s *scanner) skipValue(depth int) bool {
	if depth > 10000 || s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; c {
	case '"':
		return s.skipString()
	case '{', '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		s.pos++
		for {
			s.skipSpace()
			if s.pos >= len(s.data) {
				return false
			}
			switch s.data[s.pos] {
			case closing:
				s.pos++
				return true
			case ',', ':':
				s.pos++
			default:
				if !s.skipValue(depth + 1) {
					return false
				}
			}
		}
	default:
		// A number or literal: up to the next delimiter.
		start := s.pos
		for s.pos < len(s.data) {
			switch s.data[s.pos] {
			case ',', ']', '}', ':', ' ', '\t', '\n', '\r':
				return s.pos > start
			}
			s.pos++
		}
		return s.pos > start
	}
}

func (s *scanner) skipString() bool {
	for i := s.pos + 1; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			i++
		case '"':
			s.pos = i + 1
			return true
		}
	}
	return false
}
