package assembly

import (
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// shownFiles is how many file names a warning lists before "and N more".
const shownFiles = 5

// listFiles joins the first few names and says how many more there are.
func listFiles(files []string) string {
	if len(files) <= shownFiles {
		return strings.Join(files, ", ")
	}
	return strings.Join(files[:shownFiles], ", ") + i18n.T("build.and-more", "count", len(files)-shownFiles)
}

// SkippedWarning is the warning line about files left out of the archive
// for their type, "" when there are none.
func SkippedWarning(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T("build.warn-skipped", "count", len(files), "files", listFiles(files))
}

// DirtyWarning is the warning line about uncommitted changes that went into
// a build, "" when there are none.
func DirtyWarning(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T("build.warn-dirty", "count", len(files), "files", listFiles(files))
}

// SOAPWarning is the warning line about SOAP clients packed without their
// service description, "" when there are none.
func SOAPWarning(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return i18n.T("build.warn-soap", "count", len(files), "files", listFiles(files))
}
