package mcp

import (
	"bytes"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// normalize brings an answer into decoded JSON form (*jsonx.Object, []any,
// scalars), keeping the key order of objects and structs.
func normalize(answer any) (any, error) {
	switch v := answer.(type) {
	case nil, *jsonx.Object, []any, string, bool, int, int64, float64:
		return v, nil
	}
	return jsonx.FromStruct(answer)
}

// jsonText is a value as the text content of a result: JSON with a
// two-space indent, as the reference server sends it.
func jsonText(v any) (string, error) {
	out, err := jsonx.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(bytes.TrimRight(out, "\n")), nil
}

// itemText is one list element as text: a string stays itself, anything
// else is JSON.
func itemText(v any) (string, error) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	return jsonText(v)
}

// answerResult renders a command's answer: an object is one text block
// plus structuredContent; a list is one text block per element (what
// older clients read) plus structuredContent {"result": [...]}; null is
// no block.
func answerResult(answer any) (*mcpgo.CallToolResult, error) {
	v, err := normalize(answer)
	if err != nil {
		return nil, err
	}
	res := &mcpgo.CallToolResult{Content: []mcpgo.Content{}}
	switch x := v.(type) {
	case nil:
		// No answer (a plugin's null) is no content, as the reference
		// server sends it.
		res.StructuredContent = jsonx.New("result", nil)
	case *jsonx.Object:
		text, err := jsonText(x)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, mcpgo.NewTextContent(text))
		res.StructuredContent = x
	case []any:
		for _, item := range x {
			text, err := itemText(item)
			if err != nil {
				return nil, err
			}
			res.Content = append(res.Content, mcpgo.NewTextContent(text))
		}
		res.StructuredContent = jsonx.New("result", x)
	default:
		text, err := itemText(x)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, mcpgo.NewTextContent(text))
		res.StructuredContent = jsonx.New("result", x)
	}
	return res, nil
}

// errorResult renders a failure as a tool result with isError: the
// elemctl error object ({"error", "status", "method", "url", "body",
// "hint"}) as text and as structuredContent. scrub removes secrets.
func errorResult(err error, scrub func(string) string) *mcpgo.CallToolResult {
	obj := command.ErrorObject(err)
	text, mErr := jsonText(obj)
	if mErr != nil {
		text = err.Error()
		obj = jsonx.New("error", text)
	}
	clean := scrub(text)
	if clean != text {
		// A secret slipped into the message: send only the cleaned text.
		if d, dErr := jsonx.Decode([]byte(clean)); dErr == nil {
			if o, ok := d.(*jsonx.Object); ok {
				obj = o
			}
		} else {
			obj = jsonx.New("error", clean)
		}
	}
	return &mcpgo.CallToolResult{
		Content:           []mcpgo.Content{mcpgo.NewTextContent(clean)},
		StructuredContent: obj,
		IsError:           true,
	}
}
