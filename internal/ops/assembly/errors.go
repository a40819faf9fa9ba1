package assembly

import (
	"context"

	"github.com/elemctl/elemctl/internal/i18n"
)

// Error is a failure of a local build, archive read or check. Key is the
// catalog key of the message (stable, for callers and tests); Message is
// the text in the language of the call that made the error.
type Error struct {
	Key      string
	Message  string
	Problems []string // the individual findings of a prerequisite check, if any
	Err      error    // the cause, when there is one
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

func newError(ctx context.Context, key string, args ...any) *Error {
	return &Error{Key: key, Message: i18n.T(ctx, key, args...)}
}

func wrapError(ctx context.Context, cause error, key string, args ...any) *Error {
	e := newError(ctx, key, args...)
	e.Err = cause
	return e
}
