package dap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
)

// The base protocol is a header block ("Content-Length: N", blank line)
// followed by N bytes of JSON. go-dap's own reader refuses extra headers,
// bare LF line ends and bodies over 4 MiB; a proxy in front of an adapter
// we do not control must accept all of them, so framing is ours.

const readBufferSize = 64 << 10

// A declared length is trusted only this far up front; the rest of the
// buffer grows as bytes actually arrive, so a bogus length costs nothing.
var preallocLimit int64 = 64 << 20

// frameReader reads DAP frames tolerantly: any header besides
// Content-Length is ignored, the header name is matched without regard to
// case, lines may end in CRLF or LF, and there is no size cap.
type frameReader struct {
	r *bufio.Reader
	// onDropped is told about header blocks that carry no usable length.
	onDropped func()
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, readBufferSize)}
}

// next returns the body of the next frame. io.EOF means the stream ended
// cleanly between frames; io.ErrUnexpectedEOF means it ended inside one.
func (fr *frameReader) next() ([]byte, error) {
	for {
		length, err := fr.readHeader()
		if err != nil {
			return nil, err
		}
		if length < 0 {
			if fr.onDropped != nil {
				fr.onDropped()
			}
			continue
		}
		body, err := fr.readBody(length)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return body, nil
	}
}

// readHeader consumes one header block and returns the declared length,
// or -1 when the block had none.
func (fr *frameReader) readHeader() (int64, error) {
	length := int64(-1)
	seen := false
	for {
		line, err := fr.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && !seen && len(line) == 0 {
				return 0, io.EOF
			}
			if errors.Is(err, io.EOF) {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if len(line) == 0 {
			if !seen {
				continue // stray blank lines between frames
			}
			return length, nil
		}
		seen = true
		if n, ok := parseContentLength(line); ok {
			length = n
		}
	}
}

var contentLengthName = []byte("content-length")

// parseContentLength reads "Content-Length: N" in any case. The name is
// matched as a suffix so that junk left over from a frame with a wrong
// length does not also cost the frame after it.
func parseContentLength(line []byte) (int64, bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		return 0, false
	}
	name := bytes.TrimSpace(line[:colon])
	if len(name) < len(contentLengthName) ||
		!bytes.EqualFold(name[len(name)-len(contentLengthName):], contentLengthName) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(line[colon+1:])), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// readLine returns one line without its LF or CRLF ending.
func (fr *frameReader) readLine() ([]byte, error) {
	line, err := fr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = fr.r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		return line, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

func (fr *frameReader) readBody(length int64) ([]byte, error) {
	if length <= preallocLimit {
		body := make([]byte, length)
		_, err := io.ReadFull(fr.r, body)
		return body, err
	}
	var buf bytes.Buffer
	buf.Grow(int(preallocLimit))
	n, err := io.CopyN(&buf, fr.r, length)
	if err == nil && n != length {
		err = io.ErrUnexpectedEOF
	}
	return buf.Bytes(), err
}

// frameWriter writes whole frames; one mutex per direction keeps frames
// from different goroutines from interleaving.
type frameWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	err error // the first write error; later writes are skipped
}

func newFrameWriter(w io.Writer) *frameWriter { return &frameWriter{w: w} }

// smallFrame is the size up to which header and body go out in one write.
const smallFrame = 32 << 10

func (fw *frameWriter) write(body []byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.err != nil {
		return fw.err
	}
	fw.buf = append(fw.buf[:0], "Content-Length: "...)
	fw.buf = strconv.AppendInt(fw.buf, int64(len(body)), 10)
	fw.buf = append(fw.buf, "\r\n\r\n"...)
	var err error
	if len(body) <= smallFrame {
		fw.buf = append(fw.buf, body...)
		_, err = fw.w.Write(fw.buf)
	} else if _, err = fw.w.Write(fw.buf); err == nil {
		_, err = fw.w.Write(body)
	}
	if cap(fw.buf) > 4*smallFrame {
		fw.buf = nil
	}
	fw.err = err
	return err
}
