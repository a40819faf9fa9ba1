package platform

import (
	"context"
	"errors"
	"io"
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

// ListEach reads a list endpoint as the answer arrives and hands each
// object of the list to visit undecoded (see jsonx.EachElement), with the
// key its array is under ("" for a bare array): an answer of tens of
// thousands of cards is never held whole, and a card visit drops costs
// nothing. A read that breaks off mid-answer is repeated as any GET is;
// begin is called before each answer's first card, so a visitor that counts
// or keeps cards starts over. An answer that is not JSON is an empty list,
// as List has it.
func (c *Client) ListEach(ctx context.Context, req Request, begin func(), visit func(key string, card *jsonx.RawObject) error, keys ...string) error {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	keys = append([]string{"items"}, keys...)
	var syntax *jsonx.SyntaxError
	req.ReadAnswer = func(r io.Reader) error {
		begin()
		err := jsonx.EachElement(r, keys, visit)
		if errors.As(err, &syntax) {
			// Not JSON, or broken: no list, as List sees it.
			begin()
			_, _ = io.Copy(io.Discard, r)
			return nil
		}
		return err
	}
	_, err := c.Do(ctx, req)
	return err
}

// ListKeeping is List for a caller that wants some of the elements: keep
// sees every object of the list once, undecoded, as the answer is read,
// and only the objects it accepts are decoded and returned. keep must not
// hold on to the card it is given (see ListEach).
func (c *Client) ListKeeping(ctx context.Context, req Request, keep func(*jsonx.RawObject) bool, keys ...string) ([]*jsonx.Object, error) {
	return ListPicking(ctx, c, req, nil, func(card *jsonx.RawObject) (*jsonx.Object, bool, error) {
		if !keep(card) {
			return nil, false, nil
		}
		o, err := card.Decode()
		return o, err == nil, err
	}, keys...)
}

// ListPicking is ListKeeping for a caller that keeps something of each
// card it wants – a brief card, a few fields – rather than the card
// decoded: pick returns it and whether to keep it. A card that does not
// decode (a bad escape: pick returns the jsonx.SyntaxError) makes the
// answer no JSON, and the list empty, as List sees it. An answer with lists under several keys gives
// the one List gives: "items" first, then keys in order. begin, when set,
// is called before each answer's first card, as ListEach calls it.
func ListPicking[T any](ctx context.Context, c *Client, req Request, begin func(), pick func(*jsonx.RawObject) (T, bool, error), keys ...string) ([]T, error) {
	// The cards of one list come one after another: the list of the key
	// of the card before is at hand, not looked up for every card.
	var (
		byKey  map[string]*[]T
		cur    *[]T
		curKey string
	)
	start := func() {
		byKey, cur = map[string]*[]T{}, nil
		if begin != nil {
			begin()
		}
	}
	err := c.ListEach(ctx, req, start, func(key string, card *jsonx.RawObject) error {
		if cur == nil || key != curKey {
			if cur = byKey[key]; cur == nil {
				cur = &[]T{}
				byKey[key] = cur
			}
			curKey = key
		}
		v, ok, err := pick(card)
		if err != nil {
			return err
		}
		if ok {
			*cur = append(*cur, v)
		}
		return nil
	}, keys...)
	if err != nil {
		return nil, err
	}
	for _, k := range append([]string{"", "items"}, keys...) {
		if list, ok := byKey[k]; ok {
			return *list, nil
		}
	}
	return []T{}, nil
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
