package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
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

// LoadTokenFile reads the bearer token from path. A missing file is created
// with a fresh token, readable by its owner only (created is then true).
// An existing file must be private to its owner (checked where the system
// has Unix permissions) and hold one token; surrounding whitespace is
// ignored.
func LoadTokenFile(ctx context.Context, path string) (token string, created bool, err error) {
	fail := func(err error) error {
		return &platform.Error{Kind: platform.KindConfig, Err: err,
			Message: i18n.T(ctx, "mcp.http.token-file-open", "path", path, "error", describeFileError(err))}
	}
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		token, err = createTokenFile(path)
		if err == nil {
			return token, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", false, fail(err)
		}
		// Created by someone else in the meantime: read theirs.
		st, err = os.Stat(path)
	}
	if err != nil {
		return "", false, fail(err)
	}
	if st.IsDir() {
		return "", false, platform.ConfigErrorf(ctx, "mcp.http.token-file-dir", "path", path)
	}
	if err := checkPrivate(ctx, path, st); err != nil {
		return "", false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false, fail(err)
	}
	token = strings.TrimSpace(string(data))
	if err := CheckToken(ctx, token, path); err != nil {
		return "", false, err
	}
	return token, false, nil
}

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

// bearer lets a request through only with the right bearer token. Anything
// else gets 401 with an empty body and the challenge header: no hint of
// what the server is or which paths exist. The tokens are compared as
// SHA-256 digests in constant time, so neither the content nor the length
// of the right one shows in the timing.
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		given, ok := bearerToken(r.Header.Get("Authorization"))
		got := sha256.Sum256([]byte(given))
		if !ok || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			challenge := `Bearer realm="elemctl"`
			if ok {
				challenge += `, error="invalid_token"`
			}
			h := w.Header()
			h.Set("WWW-Authenticate", challenge)
			h.Set("Content-Length", "0")
			h.Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
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
