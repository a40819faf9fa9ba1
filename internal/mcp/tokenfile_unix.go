//go:build !windows

package mcp

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/elemctl/elemctl/internal/platform"
)

// checkPrivate refuses a token file that its group or others may read or
// write: anyone who reads it can call every tool.
func checkPrivate(ctx context.Context, path string, st fs.FileInfo) error {
	if mode := st.Mode().Perm(); mode&0o077 != 0 {
		return platform.ConfigErrorf(ctx, "mcp.http.token-file-shared", "path", path, "mode", fmt.Sprintf("%04o", mode))
	}
	return nil
}
