package deploy

import (
	"context"
	"os"
	"strings"

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
// left per run would fill the temporary directory.
func TempOutput(ctx context.Context, prefix string) (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", func() {}, platform.NewError(ctx, platform.KindBuild, "deploy.temp-dir", "error", err)
	}
	return dir, func() { _ = os.RemoveAll(dir) }, nil
}

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
