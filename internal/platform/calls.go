package platform

import (
	"context"
	"net/http"
	"net/url"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// Call sends a request and decodes the answer: nil for an empty body,
// decoded JSON, or text.
func (c *Client) Call(ctx context.Context, req Request) (any, error) {
	resp, err := c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	return resp.Value(), nil
}

// Get reads a path of Console API 2.0.
func (c *Client) Get(ctx context.Context, path string, q url.Values) (any, error) {
	return c.Call(ctx, Request{Method: http.MethodGet, Path: path, Query: q})
}

// Post sends a JSON body (nil = no body) to a path of Console API 2.0.
func (c *Client) Post(ctx context.Context, path string, body any) (any, error) {
	return c.Call(ctx, Request{Method: http.MethodPost, Path: path, JSON: body})
}

// Put sends a JSON body (nil = no body) to a path of Console API 2.0.
func (c *Client) Put(ctx context.Context, path string, body any) (any, error) {
	return c.Call(ctx, Request{Method: http.MethodPut, Path: path, JSON: body})
}

// Delete deletes a path of Console API 2.0.
func (c *Client) Delete(ctx context.Context, path string) (any, error) {
	return c.Call(ctx, Request{Method: http.MethodDelete, Path: path})
}

// GetObject reads a card; a non-object answer yields an empty object.
func (c *Client) GetObject(ctx context.Context, path string) (*jsonx.Object, error) {
	v, err := c.Get(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	if o, ok := v.(*jsonx.Object); ok {
		return o, nil
	}
	return &jsonx.Object{}, nil
}

// NormalizeList accepts a bare array or an object holding the array under
// "items" or one of keys (the first array wins); anything else is empty.
// Non-object elements are dropped.
func NormalizeList(v any, keys ...string) []*jsonx.Object {
	switch x := v.(type) {
	case []any:
		return jsonx.Objects(x)
	case *jsonx.Object:
		for _, k := range append([]string{"items"}, keys...) {
			if arr, ok := x.Value(k).([]any); ok {
				return jsonx.Objects(arr)
			}
		}
	}
	return []*jsonx.Object{}
}

// ListKeeping is List for a caller that wants some of the elements: keep
// sees every object of the list once, as the answer is read, and only the
// objects it accepts are returned. A dropped object costs no memory – the
// next one is read into the memory it took – so keep must not hold on to a
// dropped object nor to any value in it. Listings of thousands of
// applications of which a few are wanted stay small this way.
func (c *Client) ListKeeping(ctx context.Context, req Request, keep func(*jsonx.Object) bool, keys ...string) ([]*jsonx.Object, error) {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	resp, err := c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	keepObjects := func(v any) bool {
		o, ok := v.(*jsonx.Object)
		return ok && keep(o)
	}
	// The body was read into a buffer of its own, never changed again.
	v, err := jsonx.DecodeKeeping(resp.Body, keepObjects, append([]string{"items"}, keys...)...)
	if err != nil {
		// Not JSON: no list, as List sees it.
		return []*jsonx.Object{}, nil
	}
	return NormalizeList(v, keys...), nil
}

// List reads a list endpoint and normalises it.
func (c *Client) List(ctx context.Context, req Request, keys ...string) ([]*jsonx.Object, error) {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	v, err := c.Call(ctx, req)
	if err != nil {
		return nil, err
	}
	return NormalizeList(v, keys...), nil
}
