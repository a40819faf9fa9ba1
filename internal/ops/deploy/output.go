package deploy

import (
	"context"
	"os"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// Prefixes of the temporary folders builds go to when no --output is given.
const (
	TempBuildPrefix = "elemctl-build-"
	TempProbePrefix = "elemctl-probe-"
)

// TempOutput makes the temporary folder a build goes to when the caller
// gave no output directory. remove deletes it with the archive inside:
// the archive is on the platform by then (or the run failed), and a folder
// left per run would fill the temporary directory. When the folder cannot
// be deleted, remove says so through warn, naming it, and returns false,
// so nothing claims the archive is gone.
func TempOutput(ctx context.Context, prefix string, warn func(string)) (dir string, remove func() bool, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", func() bool { return true }, platform.NewError(ctx, platform.KindBuild, "deploy.temp-dir", "error", err)
	}
	return dir, func() bool {
		if err := removeAll(dir); err != nil {
			if warn != nil {
				warn(i18n.T(ctx, "deploy.temp-dir-not-removed", "dir", dir, "error", err))
			}
			return false
		}
		return true
	}, nil
}

// removeAll deletes a temporary build folder; tests make it fail.
var removeAll = os.RemoveAll

// CheckProjectID refuses a project id the platform can never know: every
// project is named by a UUID. source is SourceFlag or SourceEnv, so the
// message names what to correct.
func CheckProjectID(ctx context.Context, id, source string) error {
	if platform.IsUUID(id) {
		return nil
	}
	name := "--project-id"
	if source == SourceEnv {
		name = "ELEMENT_PROJECT_ID"
	}
	return platform.ConfigErrorf(ctx, "deploy.project-id-not-uuid", "name", name, "value", strings.TrimSpace(id))
}
