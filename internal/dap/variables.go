package dap

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	godap "github.com/google/go-dap"
)

// The platform's debugger hangs the browser's JavaScript runtime, and drops
// the session, when it is asked for the children of a client-side value
// without a filter. Asking for "indexed" and "named" children separately
// works at any depth. So a filterless variables request for a node whose
// child counts are known is either completed with the one filter it needs
// or split in two, and the two answers are merged back into one.

// syntheticSeqBase starts the range of seqs the proxy uses for messages it
// originates, far above anything a client or an adapter reaches.
const syntheticSeqBase = 1_000_000

type childCounts struct{ named, indexed int }

// variableFix holds the child counts seen so far and the splits in flight.
type variableFix struct {
	mu     sync.Mutex
	counts map[int]childCounts
	splits map[int]splitHalf // synthetic seq → the half it asks for
}

type splitHalf struct {
	split *split
	part  int
}

type split struct {
	origSeq int
	parts   [2][]json.RawMessage // indexed, named
	pending int
}

const (
	partIndexed = 0
	partNamed   = 1
)

func newVariableFix() *variableFix {
	return &variableFix{counts: map[int]childCounts{}, splits: map[int]splitHalf{}}
}

var variablesReferenceKey = []byte(`"variablesReference"`)

type countedVariable struct {
	VariablesReference int `json:"variablesReference"`
	NamedVariables     int `json:"namedVariables"`
	IndexedVariables   int `json:"indexedVariables"`
}

// record notes the child counts a response reports: for every entry of
// body.variables, and for a body-level variablesReference (evaluate,
// setVariable, setExpression). A reference seen again replaces what was
// known, so a reference the adapter reuses after a stop never keeps stale
// counts.
func (f *variableFix) record(body []byte) {
	if !bytes.Contains(body, variablesReferenceKey) {
		return
	}
	var r struct {
		Body struct {
			countedVariable
			Variables []countedVariable `json:"variables"`
		} `json:"body"`
	}
	_ = json.Unmarshal(body, &r) // a body of another shape simply adds nothing
	f.mu.Lock()
	defer f.mu.Unlock()
	f.note(r.Body.countedVariable)
	for _, v := range r.Body.Variables {
		f.note(v)
	}
}

func (f *variableFix) note(v countedVariable) {
	if v.VariablesReference <= 0 {
		return
	}
	if v.NamedVariables <= 0 && v.IndexedVariables <= 0 {
		delete(f.counts, v.VariablesReference)
		return
	}
	f.counts[v.VariablesReference] = childCounts{named: max(v.NamedVariables, 0), indexed: max(v.IndexedVariables, 0)}
}

// rewrite looks at a variables request from the client. It returns the
// frames to send to the adapter instead, or nil to forward the original.
func (f *variableFix) rewrite(body []byte, nextSeq func() int) [][]byte {
	msg, err := decodeRawObject(body)
	if err != nil {
		return nil
	}
	args, err := decodeRawObject(msg.get("arguments"))
	if err != nil || !args.isNull("filter") {
		return nil
	}
	ref, err := strconv.Atoi(string(bytes.TrimSpace(args.get("variablesReference"))))
	if err != nil {
		return nil
	}
	f.mu.Lock()
	counts, known := f.counts[ref]
	f.mu.Unlock()
	if !known {
		return nil
	}
	if counts.indexed == 0 || counts.named == 0 {
		filter, count := "named", counts.named
		if counts.named == 0 {
			filter, count = "indexed", counts.indexed
		}
		args.setValue("filter", filter)
		args.setValue("start", 0)
		args.setValue("count", count)
		msg.setValue("arguments", args)
		return [][]byte{mustMarshal(msg)}
	}

	s := &split{origSeq: envelopeSeq(msg), pending: 2}
	frames := make([][]byte, 0, 2)
	f.mu.Lock()
	defer f.mu.Unlock()
	for part, filter := range [2]string{"indexed", "named"} {
		count := counts.indexed
		if part == partNamed {
			count = counts.named
		}
		seq := nextSeq()
		partArgs := &rawObject{keys: append([]string(nil), args.keys...), vals: make(map[string]json.RawMessage, len(args.vals)+3)}
		for k, v := range args.vals {
			partArgs.vals[k] = v
		}
		partArgs.setValue("filter", filter)
		partArgs.setValue("start", 0)
		partArgs.setValue("count", count)
		req := &rawObject{vals: map[string]json.RawMessage{}}
		req.setValue("seq", seq)
		req.setValue("type", "request")
		req.setValue("command", "variables")
		req.setValue("arguments", partArgs)
		f.splits[seq] = splitHalf{split: s, part: part}
		frames = append(frames, mustMarshal(req))
	}
	return frames
}

// answer takes a response from the adapter. If it answers one half of a
// split it is swallowed (swallowed is true); when both halves are in,
// merged is the one response the client gets.
func (f *variableFix) answer(env envelope, body []byte, nextSeq func() int) (merged []byte, swallowed bool) {
	if env.Type != "response" || env.RequestSeq < syntheticSeqBase {
		return nil, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	half, ok := f.splits[env.RequestSeq]
	if !ok {
		return nil, false
	}
	s, part := half.split, half.part
	delete(f.splits, env.RequestSeq)
	vars := []json.RawMessage{}
	if env.Success { // a failed half counts as an empty list
		var r struct {
			Body struct {
				Variables []json.RawMessage `json:"variables"`
			} `json:"body"`
		}
		if json.Unmarshal(body, &r) == nil && r.Body.Variables != nil {
			vars = r.Body.Variables
		}
	}
	s.parts[part] = vars
	s.pending--
	if s.pending > 0 {
		return nil, true
	}
	resp := mergedVariablesResponse{
		Response: godap.Response{
			ProtocolMessage: godap.ProtocolMessage{Seq: nextSeq(), Type: "response"},
			RequestSeq:      s.origSeq,
			Success:         true,
			Command:         "variables",
		},
	}
	resp.Body.Variables = append(append(make([]json.RawMessage, 0, len(s.parts[0])+len(s.parts[1])), s.parts[partIndexed]...), s.parts[partNamed]...)
	return mustMarshal(resp), true
}

type mergedVariablesResponse struct {
	godap.Response
	Body struct {
		// Raw entries: whatever the adapter put into a variable reaches
		// the client unchanged.
		Variables []json.RawMessage `json:"variables"`
	} `json:"body"`
}

func envelopeSeq(msg *rawObject) int {
	n, _ := strconv.Atoi(string(bytes.TrimSpace(msg.get("seq"))))
	return n
}
