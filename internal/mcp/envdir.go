package mcp

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

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
// the server's --env-dir (none without it).
func (s *Server) checkEnvFile(ctx context.Context, envFile string) (string, error) {
	r := remoteOf(ctx)
	if envFile == "" || r == nil {
		return envFile, nil
	}
	if r.envDir == "" {
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-none")
	}
	return confineEnvFile(ctx, r.envDir, envFile)
}

// confineEnvFile returns the absolute path of envFile, a regular file
// inside dir: an absolute path must lie in dir, a relative one counts from
// it. The file is looked up through an os.Root
// of dir, which refuses by construction a ".." that climbs out and a link
// that leads out, without touching the file system outside. The refusal
// names the rule and the path the caller gave, never anything read from
// the file system.
func confineEnvFile(ctx context.Context, dir, envFile string) (string, error) {
	outside := platform.ConfigErrorf(ctx, "mcp.http.env-file-outside", "path", envFile)
	name := envFile
	if filepath.IsAbs(name) {
		// filepath.Rel compares names the way the system does
		// (case-insensitively on Windows) and fails across volumes.
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return "", outside
		}
		name = rel
	}
	if filepath.Clean(name) == "." {
		return "", outside // the directory itself
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", outside
	}
	defer root.Close()
	st, err := root.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-missing", "path", envFile)
	case err != nil:
		return "", outside
	case !st.Mode().IsRegular():
		return "", platform.ConfigErrorf(ctx, "mcp.http.env-file-missing", "path", envFile)
	}
	return filepath.Join(dir, name), nil
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
