package registry

import "github.com/elemctl/elemctl/internal/userdir"

// FileName is the registry's file inside its directory.
const FileName = "uploads.jsonl"

// unresolvedPath names the registry file the way a user would look for it
// when the home directory is unknown, so the warning still says where.
func unresolvedPath(goos string) string {
	return userdir.Join(goos, userdir.Usual(userdir.State, goos), FileName)
}
