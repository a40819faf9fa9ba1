package registry

import (
	"encoding/json"
	"unicode/utf8"
)

// scanLine reads the common shape of a registry line, a flat object of
// strings, nulls and booleans, without reflection; reading the registry is
// on the path of every build listing. ok is false for anything else
// (nested values, numbers, invalid UTF-8, malformed text): parseLine then
// leaves the line to encoding/json, so both paths agree on every line.
//
// Values are substrings of line: a registry read converts the file to one
// string and every entry shares it.
func scanLine(line string) (e Entry, ok bool) {
	s := scanner{b: line}
	s.space()
	if !s.eat('{') {
		return Entry{}, false
	}
	s.space()
	if s.eat('}') {
		return e, s.end()
	}
	for {
		s.space()
		key, ok := s.str()
		if !ok {
			return Entry{}, false
		}
		s.space()
		if !s.eat(':') {
			return Entry{}, false
		}
		s.space()
		var (
			text    string
			isText  bool
			boolean bool
			isBool  bool
		)
		switch {
		case s.peek('"'):
			if text, ok = s.str(); !ok {
				return Entry{}, false
			}
			isText = true
		case s.word("null"):
		case s.word("true"):
			boolean, isBool = true, true
		case s.word("false"):
			isBool = true
		default:
			return Entry{}, false
		}
		e.set(key, text, isText, boolean, isBool)
		s.space()
		if s.eat('}') {
			return e, s.end()
		}
		if !s.eat(',') {
			return Entry{}, false
		}
	}
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

type scanner struct {
	b string
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

func (s *scanner) eat(c byte) bool {
	if s.peek(c) {
		s.i++
		return true
	}
	return false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && s.b[s.i:s.i+len(w)] == w {
		s.i += len(w)
		return true
	}
	return false
}

// end tells whether nothing but whitespace follows.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// str reads a JSON string. Escaped strings (Windows paths) are decoded by
// encoding/json; plain ones are taken as they are.
func (s *scanner) str() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start, escaped := s.i, false
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if escaped {
				var out string
				if json.Unmarshal([]byte(s.b[start-1:s.i]), &out) != nil {
					return "", false
				}
				return out, true
			}
			if !utf8.ValidString(raw) {
				return "", false
			}
			return raw, true
		case c == '\\':
			escaped = true
			s.i += 2
		case c < 0x20:
			return "", false
		default:
			s.i++
		}
	}
	return "", false
}
