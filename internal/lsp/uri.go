package lsp

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// Paths and URIs are converted here, by hand, under the rules of one
// operating system at a time, so the Windows rules are tested on every
// machine. go.lsp.dev/uri is not used: its Filename panics on anything but
// a plain file URI, and uri.New unescapes lossily.

var onWindows = runtime.GOOS == "windows"

// PathFromURI turns a file URI an editor sent ("file:///home/u/x",
// "file:///c%3A/Users/u/x", "file:///C:/x", "file://server/share/x") into a
// local path. A plain path is returned cleaned. Other schemes (untitled:,
// vscode-remote:) are an error, never a panic.
func PathFromURI(raw string) (string, error) { return pathFromURI(raw, onWindows) }

// URIFromPath is the file URI of a local path, in the form VS Code writes
// (lower-case drive letter, ":" as %3A, every byte outside the unreserved
// set escaped), so the editor matches it with its own documents.
func URIFromPath(p string) string { return uriFromPath(p, onWindows) }

func pathFromURI(raw string, windows bool) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", fmt.Errorf("empty path")
	}
	if looksLikePath(raw, windows) {
		return cleanPath(raw, windows), nil
	}
	scheme, _, ok := strings.Cut(raw, ":")
	if !ok || !strings.EqualFold(scheme, "file") {
		return "", fmt.Errorf("%q is not a file URI", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%q is not a valid URI: %v", raw, err)
	}
	p := u.Path
	host := u.Host
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	if !windows {
		if host != "" {
			return "", fmt.Errorf("%q names the host %q", raw, host)
		}
		if p == "" {
			return "", fmt.Errorf("%q has no path", raw)
		}
		return path.Clean(p), nil
	}
	if host != "" {
		// A UNC share: file://server/share/dir → \\server\share\dir.
		return cleanPath(`\\`+host+strings.ReplaceAll(p, "/", `\`), true), nil
	}
	// "/c:/x" → "c:/x"; a drive letter is written upper-case.
	if len(p) >= 3 && p[0] == '/' && isLetter(p[1]) && p[2] == ':' {
		p = p[1:]
	}
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		p = strings.ToUpper(p[:1]) + p[1:]
	} else {
		return "", fmt.Errorf("%q has no drive letter", raw)
	}
	return cleanPath(p, true), nil
}

// looksLikePath tells a path from a URI: an absolute or relative path, or a
// Windows drive path ("C:\x", "c:/x") that url.Parse would read as the
// scheme "c".
func looksLikePath(s string, windows bool) bool {
	if len(s) >= 2 && isLetter(s[0]) && s[1] == ':' && (len(s) == 2 || s[2] == '\\' || s[2] == '/') {
		return true
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || (windows && strings.HasPrefix(s, `\`)) {
		return true
	}
	scheme, _, ok := strings.Cut(s, ":")
	if !ok {
		return true
	}
	// A URI scheme is a letter then letters, digits, "+", "-", ".".
	for i, r := range scheme {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return true
		}
	}
	return false
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// cleanPath cleans a path with the separators of the target system.
func cleanPath(p string, windows bool) string {
	if !windows {
		return path.Clean(p)
	}
	p = strings.ReplaceAll(p, "/", `\`)
	unc := strings.HasPrefix(p, `\\`)
	vol := ""
	switch {
	case unc:
		p = p[2:]
	case len(p) >= 2 && isLetter(p[0]) && p[1] == ':':
		vol, p = strings.ToUpper(p[:1])+":", p[2:]
	}
	// path.Clean on the slash form keeps "..", "." handling identical.
	abs := strings.HasPrefix(p, `\`)
	c := path.Clean("/" + strings.ReplaceAll(p, `\`, "/"))
	if !abs && !unc {
		c = strings.TrimPrefix(c, "/")
		if c == "" {
			c = "."
		}
	}
	c = strings.ReplaceAll(c, "/", `\`)
	if unc {
		return `\` + c
	}
	return vol + c
}

func uriFromPath(p string, windows bool) string {
	if windows {
		p = cleanPath(p, true)
		if strings.HasPrefix(p, `\\`) {
			host, rest, _ := strings.Cut(p[2:], `\`)
			return "file://" + escapePath(host) + "/" + escapePath(strings.ReplaceAll(rest, `\`, "/"))
		}
		s := strings.ReplaceAll(p, `\`, "/")
		if len(s) >= 2 && isLetter(s[0]) && s[1] == ':' {
			s = "/" + strings.ToLower(s[:1]) + s[1:]
		}
		return "file://" + escapePath(s)
	}
	return "file://" + escapePath(path.Clean(filepath.ToSlash(p)))
}

// escapePath percent-encodes everything but unreserved characters and "/".
func escapePath(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '/' || c == '-' || c == '.' || c == '_' || c == '~' || isLetter(c) || c >= '0' && c <= '9' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// samePath compares two cleaned paths of the target system.
func samePath(a, b string, windows bool) bool {
	if windows {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// within tells whether p is dir or lies inside it.
func within(p, dir string, windows bool) bool {
	sep := "/"
	if windows {
		sep = `\`
	}
	if samePath(p, dir, windows) {
		return true
	}
	prefix := strings.TrimSuffix(dir, sep) + sep
	if windows {
		return len(p) > len(prefix) && strings.EqualFold(p[:len(prefix)], prefix)
	}
	return strings.HasPrefix(p, prefix)
}
