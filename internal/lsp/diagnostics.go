package lsp

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/platform"
)

// publish replaces the diagnostics of the project an answer speaks of:
// every file with errors gets its list, and every file that had some and
// has none now is cleared. nil diagnostics leave every project as it is.
func (s *Server) publish(source string, d *command.Diagnostics) {
	if d == nil || d.ProjectDir == "" {
		return
	}
	projectDir, vendor, name, errs := d.ProjectDir, d.Vendor, d.Name, d.Errors
	projectDir = filepath.Clean(projectDir)
	key := projectDir
	if onWindows {
		key = strings.ToLower(key)
	}
	byURI := map[string][]protocol.Diagnostic{}
	lines := map[string][]string{}
	for _, e := range errs {
		file := sourceFile(projectDir, vendor, name, e)
		if _, read := lines[file]; !read {
			lines[file] = readLines(file)
		}
		uri := URIFromPath(file)
		byURI[uri] = append(byURI[uri], diagnosticOf(source, e, lines[file]))
	}

	s.diagMu.Lock()
	defer s.diagMu.Unlock()
	s.mu.Lock()
	old := s.published[key]
	s.mu.Unlock()
	uris := make([]string, 0, len(byURI)+len(old))
	for uri := range old {
		if _, still := byURI[uri]; !still {
			uris = append(uris, uri)
		}
	}
	for uri := range byURI {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	now := map[string]bool{}
	for _, uri := range uris {
		list := byURI[uri]
		if list == nil {
			list = []protocol.Diagnostic{}
		} else {
			now[uri] = true
		}
		_ = s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics,
			&protocol.PublishDiagnosticsParams{URI: protocol.DocumentURI(uri), Diagnostics: list})
	}
	s.mu.Lock()
	if len(now) == 0 {
		delete(s.published, key)
	} else {
		s.published[key] = now
	}
	s.mu.Unlock()
}

// sourceFile maps an error to the workspace file. The platform names the
// archive entry "{vendor}/{name}/<path>", relative to the repository root
// that holds the project as <root>/{vendor}/{name}; File is <path>. The
// first candidate that exists wins: the project directory plus <path>, then
// the root plus the entry (a project whose directory is not named after
// it).
func sourceFile(projectDir, vendor, name string, e platform.CompileError) string {
	rel := strings.TrimLeft(strings.ReplaceAll(e.File, `\`, "/"), "/")
	entry := strings.TrimLeft(strings.ReplaceAll(e.Entry, `\`, "/"), "/")
	prefix := vendor + "/" + name + "/"
	if vendor != "" && name != "" && rel == entry {
		rel = strings.TrimPrefix(entry, prefix)
	}
	candidates := []string{filepath.Join(projectDir, filepath.FromSlash(rel))}
	root := filepath.Dir(filepath.Dir(projectDir))
	if entry != "" {
		candidates = append(candidates, filepath.Join(root, filepath.FromSlash(entry)))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	return candidates[0]
}

// readLines reads a source file for columns; nil when it cannot be read.
func readLines(file string) []string {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		out = append(out, strings.TrimRight(sc.Text(), "\r"))
	}
	if len(out) > 0 {
		out[0] = strings.TrimPrefix(out[0], "\ufeff")
	}
	return out
}

// diagnosticOf places one error. The platform counts lines and columns
// from 1 and columns in characters; LSP counts from 0 in UTF-16 units. The
// range runs from the column to the end of the line's text.
func diagnosticOf(source string, e platform.CompileError, lines []string) protocol.Diagnostic {
	line := max(e.Line-1, 0)
	col := max(e.Column-1, 0)
	start, end := uint32(col), uint32(col)
	if line < len(lines) {
		text := strings.TrimRight(lines[line], " \t")
		start = utf16Offset(text, col)
		end = utf16Offset(text, utf8.RuneCountInString(text))
		if end < start {
			end = start
		}
	}
	msg := e.Message
	if e.Environment != "" {
		msg = e.Environment + ": " + msg
	}
	return protocol.Diagnostic{
		Range: protocol.Range{
			Start: protocol.Position{Line: uint32(line), Character: start},
			End:   protocol.Position{Line: uint32(line), Character: end},
		},
		Severity: protocol.DiagnosticSeverityError,
		Source:   source,
		Message:  msg,
	}
}

// utf16Offset is the UTF-16 length of the first runes characters of text
// (past the end: the whole text plus the excess, as the platform counted).
func utf16Offset(text string, runes int) uint32 {
	n := 0
	for _, r := range text {
		if runes == 0 {
			return uint32(n)
		}
		n += utf16.RuneLen(r)
		runes--
	}
	return uint32(n + runes)
}
