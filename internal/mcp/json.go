package mcp

import "github.com/elemctl/elemctl/internal/jsonx"

// jsonCompact is v as one line of JSON.
func jsonCompact(v any) ([]byte, error) { return jsonx.Compact(v) }
