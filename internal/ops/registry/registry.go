// Package registry keeps the local registry of uploads, uploads.jsonl: one
// JSON line per build this machine uploaded. It explains numbering jumps,
// supplies a commit when a build card has none, counts the next build
// number on and recognises probe leftovers. Writing it never fails a
// command: every problem becomes a warning text.
package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/userdir"
)

// DefaultLimit is the number of lines kept when ELEMCTL_REGISTRY_LIMIT
// does not say otherwise.
const DefaultLimit = 1000

// LimitVar is the variable that sets the number of lines kept.
const LimitVar = "ELEMCTL_REGISTRY_LIMIT"

// Registry is the registry file of one environment.
type Registry struct {
	goos   string
	path   string // empty when the location is unknown
	dirErr error
	getenv func(string) string
	now    func() time.Time
	pid    int

	// Seams for the trimming race tests; nil in production.
	afterSnapshot func()
	beforeRound   func(round int)
	replace       func(tmp, path string) error
	roundPause    time.Duration
}

// New is the registry of the environment getenv describes on the
// operating system goos (runtime.GOOS in production).
func New(getenv func(string) string, goos string) *Registry {
	r := &Registry{goos: goos, getenv: getenv, now: time.Now, pid: os.Getpid(),
		replace: os.Rename, roundPause: 5 * time.Millisecond}
	dir, err := userdir.Dir(userdir.State, getenv, goos)
	if err != nil {
		r.dirErr = err
		return r
	}
	r.path = userdir.Join(goos, dir, FileName)
	return r
}

// Default is the registry of this process's environment.
func Default() *Registry { return New(os.Getenv, runtime.GOOS) }

// Path is the registry file, or "" when its location is unknown.
func (r *Registry) Path() string { return r.path }

// displayPath names the file for messages even when it is unknown.
func (r *Registry) displayPath() string {
	if r.path != "" {
		return r.path
	}
	return unresolvedPath(r.goos)
}

// Limit reads ELEMCTL_REGISTRY_LIMIT: all ASCII digits is the number of
// lines to keep (0 keeps all); unset is DefaultLimit; anything else is
// DefaultLimit with a warning naming the variable, its value and the
// default.
func Limit(ctx context.Context, getenv func(string) string) (limit int, warning string) {
	v := getenv(LimitVar)
	if v == "" {
		return DefaultLimit, ""
	}
	if !allASCIIDigits(v) {
		return DefaultLimit, i18n.T(ctx, "registry.limit-invalid", "name", LimitVar, "value", v, "default", DefaultLimit)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		// Only a value too large for an int gets here: it keeps everything
		// the way the user meant.
		return 0, ""
	}
	return n, ""
}

func allASCIIDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Append records one upload and trims the file when it has grown past its
// limit. It never fails: the returned text (empty when all went well) is a
// warning for the user, one per line.
func (r *Registry) Append(ctx context.Context, e Entry) (warning string) {
	var warnings []string
	limit, limitWarning := Limit(ctx, r.getenv)
	if limitWarning != "" {
		warnings = append(warnings, limitWarning)
	}
	if err := r.appendLine(e); err != nil {
		warnings = append(warnings, i18n.T(ctx, "registry.write-failed", "path", r.displayPath(), "error", err))
		return strings.Join(warnings, "\n")
	}
	if limit > 0 {
		// A trim that cannot finish leaves the file whole; the next upload
		// tries again, so there is nothing to tell the user.
		r.trim(limit)
	}
	return strings.Join(warnings, "\n")
}

func (r *Registry) appendLine(e Entry) error {
	if r.dirErr != nil {
		return r.dirErr
	}
	if e.UploadedAt == "" {
		e.UploadedAt = Stamp(r.now())
	}
	e.Route = RouteOf(e.Route, e.Command)
	line, err := e.line()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(r.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	// A writer that died mid-line left the file without a final newline;
	// starting on a fresh line keeps this line readable.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	// One write call, so concurrent appenders do not interleave lines.
	_, werr := f.Write(line)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	if cerr != nil {
		return fmt.Errorf("close %s: %w", r.path, cerr)
	}
	return nil
}
