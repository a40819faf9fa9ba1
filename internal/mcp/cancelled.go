package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// cancelled keeps what notifications/cancelled ended on a stdio session, so
// that nothing more of such a request reaches the client: no response and
// no progress notification of its token, as MCP asks. The call itself
// learns of it through its context; its cleanup still runs, and the lines
// it logs go to the server's stderr (see progress.notify).
type cancelled struct {
	mu sync.Mutex
	// tokens maps a running tools/call's request id to its progress token
	// (both as JSON text).
	tokens map[string]string
	// ids and dropTokens are what was cancelled.
	ids        map[string]bool
	dropTokens map[string]bool
}

func newCancelled() *cancelled {
	return &cancelled{tokens: map[string]string{}, ids: map[string]bool{}, dropTokens: map[string]bool{}}
}

// message is what the filter reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	Params struct {
		RequestID     json.RawMessage `json:"requestId"`
		ProgressToken json.RawMessage `json:"progressToken"`
		Meta          struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	} `json:"params"`
}

// watch passes the client's messages on, one per line, noting the
// progress tokens of tool calls and the requests the client cancels.
func (c *cancelled) watch(in io.Reader) io.Reader {
	r, w := io.Pipe()
	go func() {
		lines := bufio.NewReader(in)
		for {
			line, err := lines.ReadBytes('\n')
			if len(line) > 0 {
				c.note(line)
				if _, werr := w.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				w.CloseWithError(err)
				return
			}
		}
	}()
	return r
}

func (c *cancelled) note(line []byte) {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case m.Method == "tools/call" && len(m.ID) > 0 && len(m.Params.Meta.ProgressToken) > 0:
		c.tokens[string(compactJSON(m.ID))] = string(compactJSON(m.Params.Meta.ProgressToken))
	case m.Method == "notifications/cancelled" && len(m.Params.RequestID) > 0:
		id := string(compactJSON(m.Params.RequestID))
		c.ids[id] = true
		if token, ok := c.tokens[id]; ok {
			c.dropTokens[token] = true
		}
	}
}

// filter writes the server's messages except those of cancelled requests.
// The stdio transport writes each message whole, with its newline.
func (c *cancelled) filter(out io.Writer) io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		if c.drop(p) {
			return len(p), nil
		}
		return out.Write(p)
	})
}

func (c *cancelled) drop(p []byte) bool {
	var m message
	if json.Unmarshal(p, &m) != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case len(m.ID) > 0 && (len(m.Result) > 0 || len(m.Error) > 0):
		id := string(compactJSON(m.ID))
		token := c.tokens[id]
		delete(c.tokens, id)
		if c.ids[id] {
			// The call has ended: nothing more of it will come.
			delete(c.ids, id)
			delete(c.dropTokens, token)
			return true
		}
	case m.Method == "notifications/progress":
		return c.dropTokens[string(compactJSON(m.Params.ProgressToken))]
	}
	return false
}

func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
