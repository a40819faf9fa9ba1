package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// MinTokenLength is the shortest bearer token the HTTP transport accepts:
// a short token could be guessed over the network.
const MinTokenLength = 16

// NewToken is a fresh bearer token: 32 random bytes, base64url.
func NewToken() string {
	b := make([]byte, 32)
	// crypto/rand.Read never fails on the supported systems.
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CheckToken refuses a token that is too short or that could not travel in
// an Authorization header. source names where it came from, never its
// value.
func CheckToken(ctx context.Context, token, source string) error {
	if strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return platform.ConfigErrorf(ctx, "mcp.http.token-bad", "source", source)
	}
	if len(token) < MinTokenLength {
		return platform.ConfigErrorf(ctx, "mcp.http.token-short", "source", source, "min", MinTokenLength)
	}
	return nil
}

// Scope is what a token may do over HTTP.
type Scope string

const (
	// ScopeFull may call every tool, read resources and get prompts.
	ScopeFull Scope = "full"
	// ScopeRead may call only the read-only tools, read resources and get
	// the prompts that use read-only tools alone.
	ScopeRead Scope = "read"
)

// Token is one bearer token the HTTP server accepts.
type Token struct {
	Value string
	Scope Scope
	// Name says whose token it is in the server log and in refusals;
	// never the value.
	Name string
}

// LoadTokenFile reads the bearer tokens from path. A missing file is
// created with one fresh full-scope token, readable by its owner only
// (created is then true). An existing file must be private to its owner
// (checked where the system has Unix permissions). Its format (docs/mcp.md):
//
//	# a comment; blank lines are skipped
//	TOKEN                  one token alone is full scope (the original file)
//	TOKEN full anna        a token, its scope (full or read), a name
//	TOKEN read dashboard
//
// Every token is checked like ELEMCTL_MCP_TOKEN; a token twice, an unknown
// scope or a name twice is an error naming the line, never the token.
func LoadTokenFile(ctx context.Context, path string) (tokens []Token, created bool, err error) {
	fail := func(err error) error {
		return &platform.Error{Kind: platform.KindConfig, Err: err,
			Message: i18n.T(ctx, "mcp.http.token-file-open", "path", path, "error", describeFileError(err))}
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		var token string
		token, err = createTokenFile(path)
		if err == nil {
			return []Token{{Value: token, Scope: ScopeFull, Name: tokenLineName(1)}}, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, false, fail(err)
		}
		// Created by someone else in the meantime: read theirs.
		st, err = os.Stat(path)
	}
	if err != nil {
		return nil, false, fail(err)
	}
	if st.IsDir() {
		return nil, false, platform.ConfigErrorf(ctx, "mcp.http.token-file-dir", "path", path)
	}
	if err := checkPrivate(ctx, path, st); err != nil {
		return nil, false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fail(err)
	}
	tokens, err = parseTokens(ctx, path, string(data))
	return tokens, false, err
}

// parseTokens reads the lines of a token file.
func parseTokens(ctx context.Context, path, text string) ([]Token, error) {
	var tokens []Token
	values, names := map[string]int{}, map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		bad := func(key string, args ...any) error {
			return platform.ConfigErrorf(ctx, key, append([]any{"path", path, "line", n}, args...)...)
		}
		if len(fields) > 3 {
			return nil, bad("mcp.http.token-line-bad")
		}
		t := Token{Value: fields[0], Scope: ScopeFull, Name: tokenLineName(n)}
		if err := CheckToken(ctx, t.Value, fmt.Sprintf("%s:%d", path, n)); err != nil {
			return nil, err
		}
		if len(fields) > 1 {
			t.Scope = Scope(strings.ToLower(fields[1]))
			if t.Scope != ScopeFull && t.Scope != ScopeRead {
				return nil, bad("mcp.http.token-scope-bad", "scope", fields[1])
			}
		}
		if len(fields) > 2 {
			t.Name = fields[2]
		}
		if first, dup := values[t.Value]; dup {
			return nil, bad("mcp.http.token-twice", "first", first)
		}
		if first, dup := names[t.Name]; dup {
			return nil, bad("mcp.http.token-name-twice", "name", t.Name, "first", first)
		}
		values[t.Value], names[t.Name] = n, n
		tokens = append(tokens, t)
	}
	if len(tokens) == 0 {
		return nil, platform.ConfigErrorf(ctx, "mcp.http.token-file-empty", "path", path)
	}
	return tokens, nil
}

// tokenLineName names a token without a name by its line.
func tokenLineName(line int) string { return fmt.Sprintf("line-%d", line) }

// createTokenFile writes a fresh token into a new file; an existing file is
// never overwritten (fs.ErrExist).
func createTokenFile(path string) (string, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	token := NewToken()
	_, err = f.WriteString(token + "\n")
	if cErr := f.Close(); err == nil {
		err = cErr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return token, nil
}

// describeFileError is an OS error without the path the message names
// already.
func describeFileError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// tokenSet recognises the bearer tokens of the server.
type tokenSet struct {
	tokens  []*Token
	digests [][sha256.Size]byte
}

func newTokenSet(tokens []Token) *tokenSet {
	ts := &tokenSet{}
	for i := range tokens {
		t := tokens[i]
		ts.tokens = append(ts.tokens, &t)
		ts.digests = append(ts.digests, sha256.Sum256([]byte(t.Value)))
	}
	return ts
}

// match is the token of a request's Authorization header, or nil. The
// tokens are compared as SHA-256 digests in constant time, every one of
// them, so neither the content nor the length of a right one, nor which
// one matched, shows in the timing.
func (ts *tokenSet) match(r *http.Request) (tok *Token, presented bool) {
	given, ok := bearerToken(r.Header.Get("Authorization"))
	got := sha256.Sum256([]byte(given))
	for i, want := range ts.digests {
		if subtle.ConstantTimeCompare(got[:], want[:]) == 1 && ok {
			tok = ts.tokens[i]
		}
	}
	return tok, ok
}

// unauthorized answers a request without the right bearer token: 401 with
// an empty body and the challenge header, no hint of what the server is or
// which paths exist.
func unauthorized(w http.ResponseWriter, presented bool) {
	challenge := `Bearer realm="elemctl"`
	if presented {
		challenge += `, error="invalid_token"`
	}
	h := w.Header()
	h.Set("WWW-Authenticate", challenge)
	h.Set("Content-Length", "0")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
}

// bearerToken is the token of an Authorization header value ("Bearer X",
// the scheme in any case).
func bearerToken(header string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
