package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message body; a larger Content-Length is refused
// rather than allocated.
const maxFrame = 64 << 20

// frameStream is the Content-Length framing of LSP as a jsonrpc2.Stream.
// Unlike jsonrpc2.NewStream it survives a bad message: the header name is
// matched in any case, a header block without a length or a body that is
// not JSON-RPC is answered with an error (id null) and skipped, so one
// broken frame from an editor never ends the session.
type frameStream struct {
	in     *bufio.Reader
	out    io.Writer
	closer func() error

	writeMu sync.Mutex
	// onBad receives a line for the server log about every skipped frame.
	onBad func(string)
}

func newFrameStream(in io.Reader, out io.Writer, closer func() error, onBad func(string)) *frameStream {
	return &frameStream{in: bufio.NewReader(in), out: out, closer: closer, onBad: onBad}
}

// Read returns the next well-formed message.
func (s *frameStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.readFrame()
		if err != nil {
			var bad badFrame
			if errors.As(err, &bad) {
				s.reject(jsonrpc2.InvalidRequest, string(bad))
				continue
			}
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			code := jsonrpc2.ParseError
			if errors.Is(err, jsonrpc2.ErrInvalidRequest) || json.Valid(body) {
				code = jsonrpc2.InvalidRequest
			}
			s.reject(code, err.Error())
			continue
		}
		return msg, n, nil
	}
}

// badFrame is a frame that was read whole but cannot be used.
type badFrame string

func (b badFrame) Error() string { return string(b) }

// readFrame reads one header block and its body.
func (s *frameStream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	sawHeader := false
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && strings.TrimSpace(line) == "" {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("reading a header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between frames
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue // not a header; the block ends at the next blank line
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				length = -2
				continue
			}
			length = n
		}
	}
	switch {
	case length == -1:
		return nil, total, badFrame("a header block without Content-Length")
	case length == -2:
		return nil, total, badFrame("a Content-Length that is not a positive number")
	case length > maxFrame:
		// The body cannot be skipped safely without reading it; drop it in
		// pieces so memory stays bounded.
		if _, err := io.CopyN(io.Discard, s.in, length); err != nil {
			return nil, total, fmt.Errorf("skipping an oversized body: %w", err)
		}
		return nil, total + length, badFrame(fmt.Sprintf("a body of %d bytes (limit %d)", length, maxFrame))
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, total, fmt.Errorf("reading a body: %w", err)
	}
	return body, total + length, nil
}

// reject answers a frame that could not be read as a request.
func (s *frameStream) reject(code jsonrpc2.Code, detail string) {
	if s.onBad != nil {
		s.onBad(fmt.Sprintf("lsp: skipped a message: %s", detail))
	}
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": code, "message": detail},
	})
	_ = s.writeBody(body)
}

// Write sends one message. The response of a cancelled request must still
// go out, so ctx does not stop a write.
func (s *frameStream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := encodeMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling a message: %w", err)
	}
	if err := s.writeBody(body); err != nil {
		return 0, err
	}
	return int64(len(body)), nil
}

// encodeMessage is msg as json.Marshal writes it, byte for byte. jsonrpc2's
// messages marshal themselves into compact JSON, HTML escaped; json.Marshal
// would read that text again to check and compact it, a pass over every
// answer – a long listing's most of all.
func encodeMessage(msg jsonrpc2.Message) ([]byte, error) {
	if m, ok := msg.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(msg)
}

func (s *frameStream) writeBody(body []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	frame := make([]byte, 0, len(body)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(body)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, body...)
	_, err := s.out.Write(frame)
	return err
}

// Close closes the underlying streams.
func (s *frameStream) Close() error {
	if s.closer != nil {
		return s.closer()
	}
	return nil
}
