package dap

import (
	"encoding/json"
	"reflect"
	"testing"
)

func names(resp message) []string {
	var out []string
	for _, v := range resp.body()["variables"].([]any) {
		out = append(out, v.(map[string]any)["name"].(string))
	}
	return out
}

func TestVariablesFilterFix(t *testing.T) {
	s := startSession(t, fastFakeOptions(t))
	c := s.client
	c.initialize()

	// A scope: child counts unknown, forwarded untouched.
	scope := c.call("variables", map[string]any{"variablesReference": 1})
	if got := names(scope); !reflect.DeepEqual(got, []string{"obj", "arr", "rec", "broken", "leaf"}) {
		t.Fatalf("scope variables = %v", got)
	}
	log := c.fakeLog()
	if args := lastRequest(log, "variables")["arguments"].(map[string]any); !reflect.DeepEqual(args, map[string]any{"variablesReference": 1.0}) {
		t.Errorf("a scope request was changed: %v", args)
	}

	t.Run("split", func(t *testing.T) {
		seq := c.request("variables", map[string]any{"variablesReference": 10, "format": map[string]any{"hex": true}})
		resp := c.response(seq)
		if resp.m["success"] != true || resp.str("command") != "variables" {
			t.Fatalf("merged response = %s", resp.raw)
		}
		if got := names(resp); !reflect.DeepEqual(got, []string{"[0]", "[1]", "[2]", "n0", "n1"}) {
			t.Errorf("merged variables = %v, want indexed then named", got)
		}
		if v := resp.body()["variables"].([]any)[0].(map[string]any); v["fakeCustomField"] != "kept" {
			t.Errorf("a variable lost a field the adapter set: %v", v)
		}
		if resp.num("seq") < syntheticSeqBase {
			t.Errorf("the merged response should carry a proxy seq: %s", resp.raw)
		}
		log := c.fakeLog()
		parts := log[len(log)-3 : len(log)-1]
		for i, want := range []map[string]any{
			{"variablesReference": 10.0, "filter": "indexed", "start": 0.0, "count": 3.0, "format": map[string]any{"hex": true}},
			{"variablesReference": 10.0, "filter": "named", "start": 0.0, "count": 2.0, "format": map[string]any{"hex": true}},
		} {
			if !reflect.DeepEqual(parts[i]["arguments"], want) {
				t.Errorf("synthetic request %d arguments = %v, want %v", i, parts[i]["arguments"], want)
			}
			if parts[i]["seq"].(float64) < syntheticSeqBase {
				t.Errorf("synthetic request %d has seq %v, not from the proxy's range", i, parts[i]["seq"])
			}
		}
	})

	t.Run("complete: only indexed", func(t *testing.T) {
		seq := c.request("variables", map[string]any{"variablesReference": 11})
		if got := names(c.response(seq)); len(got) != 4 {
			t.Errorf("variables = %v", got)
		}
		req := lastRequest(c.fakeLog(), "variables")
		if req["seq"] != float64(seq) || !reflect.DeepEqual(req["arguments"], map[string]any{"variablesReference": 11.0, "filter": "indexed", "start": 0.0, "count": 4.0}) {
			t.Errorf("the adapter got %v", req)
		}
	})

	t.Run("complete: only named", func(t *testing.T) {
		seq := c.request("variables", map[string]any{"variablesReference": 12})
		c.response(seq)
		req := lastRequest(c.fakeLog(), "variables")
		if req["seq"] != float64(seq) || !reflect.DeepEqual(req["arguments"], map[string]any{"variablesReference": 12.0, "filter": "named", "start": 0.0, "count": 2.0}) {
			t.Errorf("the adapter got %v", req)
		}
	})

	t.Run("a failed half counts as empty", func(t *testing.T) {
		resp := c.response(c.request("variables", map[string]any{"variablesReference": 13}))
		if resp.m["success"] != true || !reflect.DeepEqual(names(resp), []string{"n0"}) {
			t.Errorf("merged response = %s", resp.raw)
		}
	})

	t.Run("filtered requests pass through", func(t *testing.T) {
		body := `{"seq":100,"type":"request","command":"variables","arguments":{"variablesReference":10,"filter":"named","start":1,"count":1}}`
		c.sendBody([]byte(body))
		c.response(100)
		if raw := c.call("fake/raw-last", nil).body()["raw"]; raw != body {
			t.Errorf("a filtered request was changed:\n%s", raw)
		}
	})

	t.Run("unknown references pass through", func(t *testing.T) {
		body := `{"seq":200,"type":"request","command":"variables","arguments":{"variablesReference":99}}`
		c.sendBody([]byte(body))
		if got := names(c.response(200)); !reflect.DeepEqual(got, []string{"unfiltered-99"}) {
			t.Errorf("variables = %v", got)
		}
		if raw := c.call("fake/raw-last", nil).body()["raw"]; raw != body {
			t.Errorf("the request was changed:\n%s", raw)
		}
	})

	t.Run("counts from a body-level reference (evaluate)", func(t *testing.T) {
		c.call("evaluate", map[string]any{"expression": "x"})
		resp := c.response(c.request("variables", map[string]any{"variablesReference": 20}))
		if got := names(resp); !reflect.DeepEqual(got, []string{"[0]", "n0"}) {
			t.Errorf("variables = %v", got)
		}
	})

	// No response to a synthetic request ever reaches the client.
	for _, m := range c.all {
		if m.str("type") == "response" && m.num("request_seq") >= syntheticSeqBase {
			t.Errorf("a synthetic response leaked: %s", m.raw)
		}
	}
}

func TestVariableFixRecordsAndForgets(t *testing.T) {
	f := newVariableFix()
	f.record([]byte(`{"type":"response","body":{"variables":[{"variablesReference":5,"namedVariables":2},{"variablesReference":6,"indexedVariables":7}]}}`))
	if f.counts[5] != (childCounts{named: 2}) || f.counts[6] != (childCounts{indexed: 7}) {
		t.Errorf("counts = %v", f.counts)
	}
	// A reference reported again without counts (the adapter reused it for
	// a leaf after a stop) is forgotten, not kept stale.
	f.record([]byte(`{"type":"response","body":{"variables":[{"variablesReference":5}]}}`))
	if _, ok := f.counts[5]; ok {
		t.Errorf("a stale count survived: %v", f.counts)
	}
	seq := syntheticSeqBase
	next := func() int { seq++; return seq }
	if frames := f.rewrite([]byte(`{"seq":3,"type":"request","command":"variables","arguments":{"variablesReference":5}}`), next); frames != nil {
		t.Errorf("a forgotten reference was rewritten: %s", frames)
	}
	frames := f.rewrite([]byte(`{"seq":3,"type":"request","command":"variables","arguments":{"variablesReference":6,"filter":null}}`), next)
	if len(frames) != 1 {
		t.Fatalf("frames = %q", frames)
	}
	var got map[string]any
	_ = json.Unmarshal(frames[0], &got)
	if got["seq"] != 3.0 || !reflect.DeepEqual(got["arguments"], map[string]any{"variablesReference": 6.0, "filter": "indexed", "start": 0.0, "count": 7.0}) {
		t.Errorf("rewritten = %s", frames[0])
	}
}
