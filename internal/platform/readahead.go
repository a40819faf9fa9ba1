package platform

import (
	"io"
	"sync"
)

// A read of the answer's connection asks for a piece of aheadChunk bytes,
// or more for a long answer (see pieceSize), and aheadChunks such pieces
// may wait for the reader: the answer is received while the pieces before
// are parsed.
const (
	aheadChunk    = 128 << 10
	aheadChunkMax = 512 << 10
	aheadChunks   = 4
)

// pieceSize is how much a read asks for once expected bytes of the answer
// are known (its length, or what has come so far): aheadChunk, doubled up
// to aheadChunkMax while that stays within a sixteenth of expected. Each
// piece is a hand-over that wakes the receiving goroutine from the parse's
// own thread: 32 MiB in pieces of 128 KiB took 10–16 % longer from its
// first byte to its last than in pieces of 512 KiB. An answer past 2 MiB
// holds no more than a quarter of itself ahead.
func pieceSize(expected int64) int {
	size := aheadChunk
	for size < aheadChunkMax && int64(size)*32 <= expected {
		size *= 2
	}
	return size
}

// answerReader is an answer's body as ReadAnswer reads it. A goroutine of
// its own receives the answer a piece ahead of the reader, so the system's
// work of receiving (on loopback about half the parse's time for a long
// list) runs beside the parse instead of between its pieces. It remembers
// the connection's failure, so a broken answer is told from a reader's own
// error.
type answerReader struct {
	filled chan aheadPiece
	free   chan []byte
	stop   chan struct{}
	done   sync.WaitGroup
	piece  aheadPiece // the piece being read
	held   []byte     // its buffer, given back when it is read
	err    error      // the connection's failure, once the reader met it
}

// aheadPiece is what one read of the body gave.
type aheadPiece struct {
	data []byte
	err  error
}

// newAnswerReader reads body, length bytes long (-1: not told).
func newAnswerReader(body io.Reader, length int64) *answerReader {
	a := &answerReader{
		filled: make(chan aheadPiece, aheadChunks),
		free:   make(chan []byte, aheadChunks),
		stop:   make(chan struct{}),
	}
	a.done.Add(1)
	go a.receive(body, length)
	return a
}

// receive reads the body into free buffers until it ends or fails, or the
// reader stops. A buffer is made only when none is free, so a short answer
// costs one; one smaller than the answer come so far wants is replaced by
// a larger one.
func (a *answerReader) receive(body io.Reader, length int64) {
	defer a.done.Done()
	made, received := 0, int64(0)
	for {
		size := pieceSize(max(length, received))
		var buf []byte
		if len(a.free) == 0 && made < aheadChunks {
			buf = make([]byte, size)
			made++
		} else {
			select {
			case buf = <-a.free:
			case <-a.stop: // the reader stopped while every buffer waits for it
				return
			}
		}
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		n, err := body.Read(buf)
		received += int64(n)
		a.filled <- aheadPiece{data: buf[:n], err: err} // room: at most aheadChunks buffers are out
		if err != nil {
			return
		}
	}
}

func (a *answerReader) Read(p []byte) (int, error) {
	for len(a.piece.data) == 0 {
		if a.piece.err != nil {
			if a.piece.err != io.EOF {
				a.err = a.piece.err
			}
			return 0, a.piece.err
		}
		if a.held != nil {
			a.free <- a.held[:cap(a.held)]
		}
		a.piece = <-a.filled
		a.held = a.piece.data
	}
	n := copy(p, a.piece.data)
	a.piece.data = a.piece.data[n:]
	return n, nil
}

// close stops the receiving goroutine and waits for it; the body must be
// closed first, so a read of it that waits for the network returns.
func (a *answerReader) close() {
	close(a.stop)
	a.done.Wait()
}
