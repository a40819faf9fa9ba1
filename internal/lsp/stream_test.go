package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/testio"
)

// A message goes out as json.Marshal writes it, byte for byte (see
// encodeMessage): answers, errors, notifications and calls whose text
// HTML escaping, U+2028 and U+2029, quotes, control characters and broken
// UTF-8 change, under a numeric and a string id.
func TestEncodeMessageIsWhatJSONMarshalWrites(t *testing.T) {
	tricky := testio.TrickyText
	answer, err := jsonx.Compact(jsonx.New("total", 2, "applications", []any{
		jsonx.New("name", tricky, "uri", "https://x/?a=1&b=<2>"), jsonx.New("name", "second", "numbers", []any{1, 2.5, nil, true})}))
	if err != nil {
		t.Fatal(err)
	}
	var messages []jsonrpc2.Message
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID("call-<1>")} {
		for _, result := range []any{json.RawMessage(answer), map[string]any{"title": tricky}, nil} {
			r, err := jsonrpc2.NewResponse(id, result, nil)
			if err != nil {
				t.Fatal(err)
			}
			messages = append(messages, r)
		}
		r, _ := jsonrpc2.NewResponse(id, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, tricky))
		c, err := jsonrpc2.NewCall(id, "window/workDoneProgress/create", map[string]any{"token": tricky})
		if err != nil {
			t.Fatal(err)
		}
		messages = append(messages, r, c)
	}
	n, err := jsonrpc2.NewNotification("$/progress", map[string]any{"token": "t", "value": map[string]any{"kind": "report", "message": tricky}})
	if err != nil {
		t.Fatal(err)
	}
	messages = append(messages, n)
	testio.EncodesAsJSONMarshal(t, encodeMessage, messages)
}
