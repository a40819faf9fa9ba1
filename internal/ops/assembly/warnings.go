package assembly

import (
	"context"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// shownFiles is how many file names a warning lists before "and N more".
const shownFiles = 5

// listFiles joins the first few names and says how many more there are.
func listFiles(ctx context.Context, files []string) string {
	if len(files) <= shownFiles {
		return strings.Join(files, ", ")
	}
	return strings.Join(files[:shownFiles], ", ") + i18n.T(ctx, "build.and-more", "count", len(files)-shownFiles)
}

// SkippedWarning is the warning line about files left out of the archive
// for their type, "" when there are none.
func SkippedWarning(ctx context.Context, files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T(ctx, "build.warn-skipped", "count", len(files), "files", listFiles(ctx, files))
}

// DirtyWarning is the warning line about uncommitted changes that went into
// a build, "" when there are none.
func DirtyWarning(ctx context.Context, files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T(ctx, "build.warn-dirty", "count", len(files), "files", listFiles(ctx, files))
}

// SOAPWarning is the warning line about SOAP clients packed without their
// service description, "" when there are none.
func SOAPWarning(ctx context.Context, files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T(ctx, "build.warn-soap", "count", len(files), "files", listFiles(ctx, files))
}
