package platform

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/jsonx"
)

// CompileError is one compilation error the platform reported, located in
// the project's sources.
type CompileError struct {
	// File is the entry without the "{vendor}/{name}/" prefix: the path
	// inside the project directory, with forward slashes.
	File string
	// Entry is the archive entry as the platform named it.
	Entry        string
	Line, Column int
	// Environment is the side the error belongs to ("Сервер", "Клиент"),
	// "" when the line names none.
	Environment string
	Message     string
}

// JSON is the item of a probe report's "errors".
func (e CompileError) JSON() *jsonx.Object {
	return jsonx.New("file", e.File, "entry", e.Entry, "line", e.Line, "column", e.Column,
		"environment", e.Environment, "message", e.Message)
}

// reCompileLine finds "<entry> [<line>:<column>]: <text>" anywhere in a
// line; the entry has no whitespace or brackets.
var reCompileLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([^\s\[\]]+)\s*\[(\d+):(\d+)\]:\s?(.*)$`) })

// reEnvironment is the optional "<Сервер>" marker in front of the text.
var reEnvironment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*<([^<>]*)>\s*`) })

// ParseCompileErrors reads every line of every message for compilation
// errors. prefix ("{vendor}/{name}/") is cut from entries to name the
// file; lines without a position are ignored.
func ParseCompileErrors(messages []string, prefix string) []CompileError {
	out := []CompileError{}
	for _, msg := range messages {
		for _, line := range strings.Split(msg, "\n") {
			if e, ok := parseCompileLine(strings.TrimRight(line, "\r"), prefix); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

func parseCompileLine(line, prefix string) (CompileError, bool) {
	m := reCompileLine().FindStringSubmatch(line)
	if m == nil {
		return CompileError{}, false
	}
	ln, err1 := strconv.Atoi(m[2])
	col, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil {
		return CompileError{}, false
	}
	e := CompileError{Entry: m[1], File: m[1], Line: ln, Column: col, Message: strings.TrimSpace(m[4])}
	if prefix != "" {
		e.File = strings.TrimPrefix(e.Entry, prefix)
	}
	if env := reEnvironment().FindStringSubmatch(m[4]); env != nil {
		e.Environment = strings.TrimSpace(env[1])
		e.Message = strings.TrimSpace(m[4][len(env[0]):])
	}
	return e, true
}

// HasCompileLine tells whether any text holds a located compilation error.
func HasCompileLine(texts []string) bool {
	for _, t := range texts {
		for _, line := range strings.Split(t, "\n") {
			if reCompileLine().MatchString(line) {
				return true
			}
		}
	}
	return false
}

// reCompatibility is the refusal of a server that does not know the
// project's compatibility mode.
var reCompatibility = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:Неизвестный режим совместимости|Unknown compatibility mode)(?:\s+"?([^\s"]+)"?)?`)
})

// CompatibilityRefusal finds the compatibility-mode refusal among the
// messages: the mode it names (or the whole line when it names none), the
// lines that say it, and how many other lines there were.
func CompatibilityRefusal(messages []string) (mode string, lines []string, dropped int, found bool) {
	for _, msg := range messages {
		for _, line := range strings.Split(msg, "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" {
				continue
			}
			m := reCompatibility().FindStringSubmatch(line)
			if m == nil {
				dropped++
				continue
			}
			lines = append(lines, line)
			if !found {
				found = true
				mode = m[1]
				if mode == "" {
					mode = strings.TrimSpace(line)
				}
			}
		}
	}
	if !found {
		return "", nil, 0, false
	}
	return mode, lines, dropped, true
}
