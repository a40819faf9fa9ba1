package mcpinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// The clients' configuration files are JSON, and some of them (VS Code's
// mcp.json, Zed's settings.json) JSON with comments and trailing commas.
// This file parses such a text (with jsonx's Lexer) keeping the byte range
// of every value, so an edit replaces or inserts a few bytes and leaves
// every other byte – the user's comments, layout and key order – as it was.
// A JSON-with-comments patch library does not do that: its patch glues a
// new member to the line of the one before, and its formatter rewrites the
// whole file in its own style (tabs, aligned values, LF line breaks).

// node is one value of the document and where it lies in the text.
type node struct {
	kind       byte // '{' object, '[' array, '"' string, '0' number, 'l' true/false/null
	start, end int  // [start, end) in the text
	members    []member
	items      []*node
}

type member struct {
	key      string
	keyStart int
	value    *node
}

// find is the member named key; dup says the object names it more than
// once (which member a reader would take is then not certain).
func (n *node) find(key string) (m *member, dup bool) {
	for i := range n.members {
		if n.members[i].key == key {
			if m != nil {
				return m, true
			}
			m = &n.members[i]
		}
	}
	return m, false
}

// syntaxError is a parse failure at a line and column (1-based).
type syntaxError struct {
	line, column int
	what         string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.line, e.column, e.what)
}

// parser reads a document with jsonx's Lexer, keeping where each value
// lies.
type parser struct {
	jsonx.Lexer
	src []byte
}

// parseJSONC parses a whole document. An empty text (or only whitespace and
// comments) is a nil node without an error.
func parseJSONC(src []byte) (*node, error) {
	p := &parser{Lexer: jsonx.NewLexer(src), src: src}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.Seek(3)
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.Rest() == 0 {
		return nil, nil
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.Rest() != 0 {
		return nil, p.fail("text after the end of the document")
	}
	return n, nil
}

func (p *parser) fail(what string) error { return p.syntaxError(p.Pos(), what) }

// syntaxError places what went wrong at offset pos by line and column.
func (p *parser) syntaxError(pos int, what string) error {
	line, col := 1, 1
	for _, c := range p.src[:min(pos, len(p.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &syntaxError{line: line, column: col, what: what}
}

// located turns the Lexer's error into one by line and column.
func (p *parser) located(err error) error {
	var se *jsonx.SyntaxError
	if errors.As(err, &se) {
		return p.syntaxError(se.Offset, se.What)
	}
	return err
}

// space skips whitespace and comments.
func (p *parser) space() error { return p.located(p.SkipSpaceAndComments()) }

const maxDepth = 200

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.fail("nested too deeply")
	}
	start := p.Pos()
	switch c := p.Peek(); {
	case p.Rest() == 0:
		return nil, p.fail("unexpected end of the text")
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &node{kind: '"', start: start, end: p.Pos()}, nil
	case c == '-' || c >= '0' && c <= '9':
		if _, err := p.Number(); err != nil {
			return nil, p.located(err)
		}
		return &node{kind: '0', start: start, end: p.Pos()}, nil
	case p.Word("true") || p.Word("false") || p.Word("null"):
		return &node{kind: 'l', start: start, end: p.Pos()}, nil
	}
	return nil, p.fail("unexpected character")
}

// str reads a string literal and returns its value.
func (p *parser) str() (string, error) {
	start := p.Pos()
	raw, _, err := p.String()
	if err != nil {
		return "", p.located(err)
	}
	s, ok := jsonx.Unquote(raw)
	if !ok {
		return "", p.syntaxError(start, "malformed string")
	}
	return s, nil
}

// nextElement moves to the next member of an object or item of an array,
// after count of them: done when the container closes, a trailing comma
// allowed as JSON with comments allows it.
func (p *parser) nextElement(n *node, closing byte, count int) (bool, error) {
	closes := func() bool {
		if p.Eat(closing) {
			n.end = p.Pos()
			return true
		}
		return false
	}
	if err := p.space(); err != nil {
		return false, err
	}
	if closes() {
		return true, nil
	}
	if count == 0 {
		return false, nil
	}
	if !p.Eat(',') {
		return false, p.fail("expected , or " + string(closing))
	}
	if err := p.space(); err != nil {
		return false, err
	}
	return closes(), nil
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: '{', start: p.Pos()}
	p.Eat('{')
	for {
		done, err := p.nextElement(n, '}', len(n.members))
		if err != nil {
			return nil, err
		}
		if done {
			return n, nil
		}
		if p.Peek() != '"' {
			return nil, p.fail("expected a key in double quotes")
		}
		keyStart := p.Pos()
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		if !p.Eat(':') {
			return nil, p.fail("expected :")
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, member{key: key, keyStart: keyStart, value: v})
	}
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: '[', start: p.Pos()}
	p.Eat('[')
	for {
		done, err := p.nextElement(n, ']', len(n.items))
		if err != nil {
			return nil, err
		}
		if done {
			return n, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
	}
}

// decode is a node's value as jsonx gives it (*jsonx.Object, []any,
// string, float64, bool, nil), comments and trailing commas left out.
func (n *node) decode(src []byte) any {
	switch n.kind {
	case '{':
		o := jsonx.New()
		for _, m := range n.members {
			o.Set(m.key, m.value.decode(src))
		}
		return o
	case '[':
		out := make([]any, len(n.items))
		for i, it := range n.items {
			out[i] = it.decode(src)
		}
		return out
	case '"':
		s, _ := jsonx.Unquote(src[n.start+1 : n.end-1])
		return s
	case '0':
		f, _ := strconv.ParseFloat(string(src[n.start:n.end]), 64)
		return f
	}
	switch string(src[n.start:n.end]) {
	case "true":
		return true
	case "false":
		return false
	}
	return nil
}

// hasComment tells whether a node's text holds a comment: in a document
// that parsed, a slash outside a string opens one.
func (n *node) hasComment(src []byte) bool {
	l := jsonx.NewLexer(src[:n.end])
	l.Seek(n.start)
	for l.Rest() > 0 {
		switch l.Peek() {
		case '/':
			return true
		case '"':
			if _, _, err := l.String(); err != nil {
				return false
			}
		default:
			l.Seek(l.Pos() + 1)
		}
	}
	return false
}

// equalJSON compares two decoded values; object key order does not count.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case *jsonx.Object:
		y, ok := b.(*jsonx.Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.Keys() {
			v, ok := y.Get(k)
			if !ok || !equalJSON(x.Value(k), v) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// style is how a document is laid out: its indent step and line break.
type style struct {
	unit, nl string
}

// styleOf reads the indent step from the first indented key of the
// document (two spaces when there is none) and the line break in use.
func styleOf(src []byte, root *node) style {
	st := style{unit: "  ", nl: "\n"}
	if bytes.Contains(src, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if root != nil && root.kind == '{' && len(root.members) > 0 {
		if ind, ok := lineIndent(src, root.members[0].keyStart); ok && ind != "" {
			st.unit = ind
		}
	}
	return st
}

// lineIndent is the whitespace that precedes pos on its line; ok is false
// when something else precedes it there.
func lineIndent(src []byte, pos int) (string, bool) {
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	ind := src[start:pos]
	if len(bytes.Trim(ind, " \t")) != 0 {
		return "", false
	}
	return string(ind), true
}

// render writes a value (strings, lists of scalars, objects of those) at
// an indent: objects one member a line, lists of scalars on one line.
func render(v any, indent string, st style) string {
	var b strings.Builder
	renderTo(&b, v, indent, st)
	return b.String()
}

func renderTo(b *strings.Builder, v any, indent string, st style) {
	switch x := v.(type) {
	case *jsonx.Object:
		if x.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, k := range x.Keys() {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(st.nl + indent + st.unit + scalar(k) + ": ")
			renderTo(b, x.Value(k), indent+st.unit, st)
		}
		b.WriteString(st.nl + indent + "}")
	case []any:
		b.WriteString("[")
		for i, it := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			renderTo(b, it, indent, st)
		}
		b.WriteString("]")
	default:
		b.WriteString(scalar(x))
	}
}

// scalar is a scalar as JSON, without the HTML escapes of encoding/json (a
// path with & stays readable).
func scalar(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimRight(b.String(), "\n")
}

// compact is a value on one line.
func compact(v any) string {
	switch x := v.(type) {
	case *jsonx.Object:
		parts := make([]string, 0, x.Len())
		for _, k := range x.Keys() {
			parts = append(parts, scalar(k)+": "+compact(x.Value(k)))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = compact(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return scalar(v)
}

// edit replaces [start, end) of the text with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits applies non-overlapping edits.
func applyEdits(src []byte, edits []edit) []byte {
	// Back to front, so earlier offsets stay valid.
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
}

// keyValue is one member to add.
type keyValue struct {
	key   string
	value any
}

// insertMembers adds members at the end of an object, in its layout: one a
// line at the indent of its other members, or on the same line when the
// object is written on one line. A comment that ends the line of the last
// member stays on that line, and a trailing comma stays trailing.
func insertMembers(src []byte, obj *node, add []keyValue, st style) []edit {
	inner := src[obj.start+1 : obj.end-1]
	oneLine := !bytes.ContainsAny(inner, "\n")
	if oneLine && len(obj.members) > 0 {
		parts := make([]string, len(add))
		for i, kv := range add {
			parts[i] = scalar(kv.key) + ": " + compact(kv.value)
		}
		last := obj.members[len(obj.members)-1].value
		return []edit{{last.end, last.end, ", " + strings.Join(parts, ", ")}}
	}

	// The indent of the members, and of the closing brace.
	closeIndent := ""
	if ind, ok := lineIndent(src, obj.start); ok {
		closeIndent = ind
	} else {
		// "key": { – the indent of the line the object opens on.
		start := bytes.LastIndexByte(src[:obj.start], '\n') + 1
		line := src[start:obj.start]
		closeIndent = string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
	}
	indent := closeIndent + st.unit
	if len(obj.members) > 0 {
		if ind, ok := lineIndent(src, obj.members[len(obj.members)-1].keyStart); ok {
			indent = ind
		}
	}
	var b strings.Builder
	for i, kv := range add {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(st.nl + indent + scalar(kv.key) + ": " + render(kv.value, indent, st))
	}
	text := b.String()

	if len(obj.members) == 0 {
		if len(bytes.TrimSpace(inner)) == 0 {
			return []edit{{obj.start + 1, obj.end - 1, text + st.nl + closeIndent}}
		}
		// Only comments inside: they follow the new members.
		return []edit{{obj.start + 1, obj.start + 1, text}}
	}
	last := obj.members[len(obj.members)-1].value
	// A trailing comma after the last member?
	p := &parser{Lexer: jsonx.NewLexer(src), src: src}
	p.Seek(last.end)
	_ = p.space()
	if p.Peek() == ',' {
		at := endOfLineComment(src, p.Pos()+1)
		return []edit{{at, at, text + ","}}
	}
	at := endOfLineComment(src, last.end)
	if at == last.end {
		return []edit{{at, at, "," + text}}
	}
	return []edit{{last.end, last.end, ","}, {at, at, text}}
}

// endOfLineComment is where a comment that ends the line starting at pos
// ends (before the line break), or pos when the rest of the line is not
// just blanks and one comment.
func endOfLineComment(src []byte, pos int) int {
	i := pos
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(src[i:], []byte("//")) && !bytes.HasPrefix(src[i:], []byte("/*")) {
		return pos
	}
	if bytes.HasPrefix(src[i:], []byte("/*")) {
		end := bytes.Index(src[i+2:], []byte("*/"))
		if end < 0 {
			return pos
		}
		i += 2 + end + 2
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i < len(src) && src[i] != '\n' && src[i] != '\r' {
			return pos
		}
		return i
	}
	end := bytes.IndexByte(src[i:], '\n')
	if end < 0 {
		return len(src)
	}
	if end > 0 && src[i+end-1] == '\r' {
		end--
	}
	return i + end
}
