package mcp

import (
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// jsonCompact is v as one line of JSON.
func jsonCompact(v any) ([]byte, error) { return jsonx.Compact(v) }

// encodeMessage is a JSON-RPC message as json.Marshal writes it, byte for
// byte. A tool's answer is encoded once: json.Marshal would read again, to
// check and compact it, the text the result's own MarshalJSON has just
// made with json.Marshal – a fifth of the server's work on a long listing.
func encodeMessage(v any) ([]byte, error) {
	resp, ok := v.(mcpgo.JSONRPCResponse)
	if !ok {
		return json.Marshal(v)
	}
	// Only a tool's answer: its MarshalJSON writes with json.Marshal, so
	// its text is already what json.Marshal would make of it.
	var result json.Marshaler
	switch r := resp.Result.(type) {
	case *mcpgo.CallToolResult:
		if r != nil {
			result = r
		}
	case mcpgo.CallToolResult:
		result = r
	}
	if result == nil {
		return json.Marshal(v)
	}
	body, err := result.MarshalJSON()
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      mcpgo.RequestId `json:"id"`
	}{resp.JSONRPC, resp.ID})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(`,"result":`)+len(body))
	out = append(out, head[:len(head)-1]...) // its closing brace comes after the result
	out = append(out, `,"result":`...)
	out = append(out, body...)
	return append(out, '}'), nil
}
