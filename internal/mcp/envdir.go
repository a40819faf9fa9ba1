package mcp

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/elemctl/elemctl/internal/platform"
)

// remoteKey marks the context of a request that came over HTTP.
type remoteKey struct{}

// remote is what a request over HTTP carries: the directory whose .env
// files its calls may name ("" = none), symlinks resolved.
type remote struct{ envDir string }

func withRemote(ctx context.Context, r *remote) context.Context {
	return context.WithValue(ctx, remoteKey{}, r)
}

// remoteOf is the HTTP mark of a request's context; nil over stdio.
func remoteOf(ctx context.Context) *remote {
	r, _ := ctx.Value(remoteKey{}).(*remote)
	return r
}

// checkEnvFile applies the env_file rule of the call's transport and
// returns the file the call is to use. Over stdio the caller is the user
// who started the server, and any path passes as given. Over HTTP the
// caller may be anyone with the token, so a file is accepted only inside
// the server's --env-dir (none without it): a relative path counts from
// that directory, and ".." and symlinks are resolved before the check, so
// neither leads outside. The refusal names the rule and the path the caller
// gave, never anything read from the file system.
func (s *Server) checkEnvFile(ctx context.Context, envFile string) (string, error) {
	r := remoteOf(ctx)
	if envFile == "" || r == nil {
		return envFile, nil
	}
	if r.envDir == "" {
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-none")
	}
	outside := platform.ConfigErrorf(ctx, "mcp.http.env-file-outside", "path", envFile)
	path := envFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.envDir, path)
	}
	path = filepath.Clean(path)
	// The spelled path first, so a path outside is refused without
	// touching the file system there.
	if !within(r.envDir, path) {
		return "", outside
	}
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-missing", "path", envFile)
	}
	if err != nil || !within(r.envDir, real) {
		return "", outside
	}
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-missing", "path", envFile)
	}
	return real, nil
}

// within tells whether path lies inside dir (both absolute and clean).
// filepath.Rel compares names the way the system does (case-insensitively
// on Windows) and fails across volumes.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == "." {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolveEnvDir is the --env-dir as the checks compare it: absolute, with
// symlinks resolved; it must be an existing directory.
func resolveEnvDir(ctx context.Context, dir, cwd string) (string, error) {
	if dir == "" {
		return "", nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(dir))
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(real); err == nil && !st.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-dir-bad", "path", dir, "error", describeFileError(err))
	}
	return real, nil
}
