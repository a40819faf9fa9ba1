package mcp

import (
	"errors"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/testio"
)

// A message goes out as json.Marshal writes it, byte for byte, whether its
// result is a tool's answer (encoded once, see encodeMessage) or anything
// else: text that HTML escaping, U+2028 and U+2029, quotes, control
// characters and broken UTF-8 change, in the text content and in the
// structured one, under a numeric and a string id.
func TestEncodeMessageIsWhatJSONMarshalWrites(t *testing.T) {
	tricky := testio.TrickyText
	card := jsonx.New("id", "01a2", "name", tricky, "status", "Running", "nested", jsonx.New("uri", "https://x/?a=1&b=<2>"),
		"numbers", []any{1, 2.5, -3, nil, true})
	list := jsonx.New("total", 2, "applications", []any{card, jsonx.New("name", "second")})
	var answers []*mcpgo.CallToolResult
	for _, a := range []any{list, []any{card, "text"}, tricky, nil} {
		res, err := answerResult(a)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, res)
	}
	answers = append(answers, errorResult(errors.New(tricky), func(s string) string { return s }))
	ids := []mcpgo.RequestId{mcpgo.NewRequestId(int64(7)), mcpgo.NewRequestId("call-<1>")}
	var messages []any
	for _, id := range ids {
		for _, res := range answers {
			messages = append(messages, mcpgo.NewJSONRPCResultResponse(id, res), mcpgo.NewJSONRPCResultResponse(id, *res))
		}
		messages = append(messages,
			mcpgo.NewJSONRPCResultResponse(id, (*mcpgo.CallToolResult)(nil)),
			mcpgo.NewJSONRPCResultResponse(id, mcpgo.ListToolsResult{Tools: []mcpgo.Tool{{Name: "list_apps", Description: tricky}}}),
			mcpgo.NewJSONRPCError(id, mcpgo.INTERNAL_ERROR, tricky, nil))
	}
	messages = append(messages, mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: "notifications/message", Params: mcpgo.NotificationParams{AdditionalFields: map[string]any{"data": tricky}}}})
	testio.EncodesAsJSONMarshal(t, encodeMessage, messages)
}
