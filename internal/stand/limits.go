package stand

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits bound what the stand takes in. The platform's own limits are not
// recorded, except its 256 MiB upload; these are the stand's (package
// documentation): an upload the platform could take is taken, and a
// damaged archive or a zip bomb costs a refusal, not the stand's memory.
type Limits struct {
	// UploadSize bounds an uploaded archive as sent; a larger body is
	// answered 413.
	UploadSize int64
	// UnpackedSize bounds every entry of an archive unpacked together, and
	// Entries their count; past either the upload is refused as an
	// invalid assembly. Entries the stand only checks are unpacked as a
	// stream, so these cost time, not memory.
	UnpackedSize int64
	Entries      int
	// EntrySize bounds one entry the stand reads into memory (the
	// manifest, YAML and .xbsl sources) and ReadSize them together; past
	// either the upload is refused as an invalid assembly.
	EntrySize, ReadSize int64
}

// DefaultLimits are the limits of a stand whose Options.Limits fields are
// zero. An archive of the largest upload unpacks to four times its size.
var DefaultLimits = Limits{
	UploadSize:   256 << 20,
	UnpackedSize: 1 << 30,
	Entries:      100_000,
	EntrySize:    16 << 20,
	ReadSize:     64 << 20,
}

func (l *Limits) fill() {
	if l.UploadSize <= 0 {
		l.UploadSize = DefaultLimits.UploadSize
	}
	if l.UnpackedSize <= 0 {
		l.UnpackedSize = DefaultLimits.UnpackedSize
	}
	if l.Entries <= 0 {
		l.Entries = DefaultLimits.Entries
	}
	if l.EntrySize <= 0 {
		l.EntrySize = DefaultLimits.EntrySize
	}
	if l.ReadSize <= 0 {
		l.ReadSize = DefaultLimits.ReadSize
	}
}

// uploadBody is an upload's body, spooled before the stand's lock was
// taken (apiHandler); one past Limits.UploadSize is refused with 413, and
// at most the limit was read.
func (s *Stand) uploadBody(q *req) (*spool, error) {
	limit := s.opts.Limits.UploadSize
	switch {
	case q.r.ContentLength > limit:
		return nil, tooLarge(limit)
	case q.upload == nil:
		return nil, refuseInvalid("Failed to read request body")
	case q.upload.over:
		return nil, tooLarge(limit)
	}
	return q.upload, nil
}

func tooLarge(limit int64) *refusal {
	return refuseMessage(http.StatusRequestEntityTooLarge, "Request body is too large: the limit is %d bytes", limit)
}

// errUnpackLimit is an archive that unpacks past a limit.
var errUnpackLimit = errors.New("unpack limit")

// Name rules of the stand (the platform's are not recorded; see the
// package documentation).
const (
	maxDisplayName       = 128
	maxPublicationPath   = 63
	maxProjectIdentifier = 64
	maxPresentation      = 256
)

// checkDisplayName refuses an application display name that is empty, too
// long or holds control characters.
func checkDisplayName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return refuseInvalid("display-name must not be empty")
	case utf8.RuneCountInString(name) > maxDisplayName:
		return refuseInvalid("display-name must be at most %d characters long", maxDisplayName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return refuseInvalid("display-name must not contain control characters")
	}
	return nil
}

// checkPublicationContext refuses a publication context that cannot be a
// path of the application's address: 1 to 63 characters, Latin letters,
// digits, '-' and '_', segments separated by single slashes.
func checkPublicationContext(ctx string) error {
	bad := func() error {
		return refuseInvalid("publication-context %q must be 1 to %d characters: Latin letters, digits, '-' and '_', in segments separated by '/'",
			ctx, maxPublicationPath)
	}
	if ctx == "" || len(ctx) > maxPublicationPath {
		return bad()
	}
	for _, seg := range strings.Split(ctx, "/") {
		if seg == "" {
			return bad()
		}
		for _, r := range seg {
			if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')) {
				return bad()
			}
		}
	}
	return nil
}

// checkArchiveNames refuses an archive whose manifest names the vendor or
// the project with something that is no identifier, or whose descriptor's
// Представление is too long or spans lines.
func checkArchiveNames(a *archive) error {
	for _, f := range []struct{ key, value string }{{"Vendor", a.manifest["Vendor"]}, {"Name", a.manifest["Name"]}} {
		if !isProjectIdentifier(f.value) {
			return refuseInvalid("Invalid assembly: %s %q must be 1 to %d characters: letters, digits, '_' and '-', starting with a letter or '_'",
				f.key, f.value, maxProjectIdentifier)
		}
	}
	pres := a.descriptor.get(keyPresentation...)
	if utf8.RuneCountInString(pres) > maxPresentation {
		return refuseInvalid("Invalid assembly: Представление must be at most %d characters long", maxPresentation)
	}
	if strings.IndexFunc(pres, unicode.IsControl) >= 0 {
		return refuseInvalid("Invalid assembly: Представление must not contain control characters")
	}
	return nil
}

func isProjectIdentifier(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > maxProjectIdentifier {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || r == '_':
		case i > 0 && (unicode.IsDigit(r) || r == '-'):
		default:
			return false
		}
	}
	return true
}

func unpackRefusal(what string, limit int64) error {
	return fmt.Errorf("%w: %s past the limit of %d bytes – a damaged archive or a zip bomb", errUnpackLimit, what, limit)
}
