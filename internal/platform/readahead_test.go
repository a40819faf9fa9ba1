package platform

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
)

// recordedBody gives its text in pieces of random size, no larger than
// what each read asks for, and remembers how much each read asked for.
type recordedBody struct {
	rest  []byte
	rnd   *rand.Rand
	mu    sync.Mutex
	asked []int
}

func (b *recordedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	b.asked = append(b.asked, len(p))
	b.mu.Unlock()
	if len(b.rest) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:1+b.rnd.IntN(len(p))], b.rest)
	b.rest = b.rest[n:]
	return n, nil
}

// A long answer is received in larger pieces than a short one, from the
// start when its length is told and as it comes when it is not; either
// way it is read whole and in order, the pieces never shrink, and no
// answer past 2 MiB is held ahead by more than a quarter of itself.
func TestAnswerPiecesGrowWithTheAnswer(t *testing.T) {
	text := make([]byte, 20<<20)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range text {
		text[i] = byte(rnd.IntN(256))
	}
	for _, c := range []struct {
		name          string
		size          int
		told          bool
		first, latest int // what the first and the last read asked for
	}{
		{"long, its length told", 20 << 20, true, aheadChunkMax, aheadChunkMax},
		{"long, its length not told", 20 << 20, false, aheadChunk, aheadChunkMax},
		{"of 5 MiB, its length told", 5 << 20, true, 256 << 10, 256 << 10},
		{"short, its length told", 3 << 20, true, aheadChunk, aheadChunk},
		{"short, its length not told", 3 << 20, false, aheadChunk, aheadChunk},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := &recordedBody{rest: text[:c.size], rnd: rand.New(rand.NewPCG(3, 4))}
			length := int64(-1)
			if c.told {
				length = int64(c.size)
			}
			a := newAnswerReader(body, length)
			got, err := io.ReadAll(a)
			a.close()
			if err != nil || !bytes.Equal(got, text[:c.size]) {
				t.Fatalf("read %d bytes of %d (%v), or not the same", len(got), c.size, err)
			}
			asked := body.asked
			if asked[0] != c.first || asked[len(asked)-1] != c.latest {
				t.Fatalf("reads asked for %d first and %d last, want %d and %d", asked[0], asked[len(asked)-1], c.first, c.latest)
			}
			for i := 1; i < len(asked); i++ {
				if asked[i] < asked[i-1] {
					t.Fatalf("read %d asked for %d after %d", i, asked[i], asked[i-1])
				}
			}
			if ahead := aheadChunks * asked[len(asked)-1]; c.size > 2<<20 && ahead > c.size/4 {
				t.Fatalf("%d bytes may be held ahead of the reader of an answer of %d", ahead, c.size)
			}
		})
	}
}
