package registry

import (
	"unicode/utf8"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// scanLine reads the common shape of a registry line, a flat object of
// strings, nulls and booleans, without reflection; reading the registry is
// on the path of every build listing. ok is false for anything else
// (nested values, numbers, invalid UTF-8, malformed text): parseLine then
// leaves the line to encoding/json, so both paths agree on every line.
//
// raw and text are the same line; the values are substrings of text: a
// registry read converts the file to one string and every entry shares it.
func scanLine(raw []byte, text string) (e Entry, ok bool) {
	lx := jsonx.NewLexer(raw)
	lx.SkipSpace()
	if !lx.Eat('{') {
		return Entry{}, false
	}
	lx.SkipSpace()
	if lx.Eat('}') {
		return e, end(&lx)
	}
	for {
		lx.SkipSpace()
		key, ok := str(&lx, text)
		if !ok {
			return Entry{}, false
		}
		lx.SkipSpace()
		if !lx.Eat(':') {
			return Entry{}, false
		}
		lx.SkipSpace()
		var (
			value   string
			isText  bool
			boolean bool
			isBool  bool
		)
		switch {
		case lx.Peek() == '"':
			if value, ok = str(&lx, text); !ok {
				return Entry{}, false
			}
			isText = true
		case lx.Word("null"):
		case lx.Word("true"):
			boolean, isBool = true, true
		case lx.Word("false"):
			isBool = true
		default:
			return Entry{}, false
		}
		e.set(key, value, isText, boolean, isBool)
		lx.SkipSpace()
		if lx.Eat('}') {
			return e, end(&lx)
		}
		if !lx.Eat(',') {
			return Entry{}, false
		}
	}
}

// end tells whether nothing but whitespace follows.
func end(lx *jsonx.Lexer) bool {
	lx.SkipSpace()
	return lx.Rest() == 0
}

// str reads a string: a plain one is a substring of text, one with escapes
// (Windows paths) is decoded.
func str(lx *jsonx.Lexer, text string) (string, bool) {
	start := lx.Pos() + 1
	raw, escaped, err := lx.String()
	switch {
	case err != nil:
		return "", false
	case escaped:
		return jsonx.Unquote(raw)
	case !utf8.Valid(raw):
		return "", false
	}
	return text[start : start+len(raw)], true
}

// set stores one scanned value the way encoding/json and parseLoose do: a
// value of another type than the field's leaves the field empty.
func (e *Entry) set(key, text string, isText, boolean, isBool bool) {
	var target *string
	switch key {
	case "assembly-id":
		target = &e.AssemblyID
	case "project-id":
		target = &e.ProjectID
	case "version":
		target = &e.Version
	case "branch":
		target = &e.Branch
	case "commit":
		target = &e.Commit
	case "stand":
		target = &e.Stand
	case "command":
		target = &e.Command
	case "uploaded-at":
		target = &e.UploadedAt
	case "elemctl":
		target = &e.Elemctl
	case "app-id":
		target = &e.AppID
	case "route":
		target = &e.Route
	case "dirty":
		// Copies, so only these fields cost an allocation, not every call.
		e.Dirty = nil
		if isBool {
			b := boolean
			e.Dirty = &b
		}
		return
	case "project-dir", "file":
		var p *string
		if isText {
			t := text
			p = &t
		}
		if key == "file" {
			e.File = p
		} else {
			e.ProjectDir = p
		}
		return
	default:
		return
	}
	*target = ""
	if isText {
		*target = text
	}
}
