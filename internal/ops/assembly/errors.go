package assembly

import "github.com/elemctl/elemctl/internal/i18n"

// Error is a failure of a local build, archive read or check. Key is the
// catalog key of the message (stable, for callers and tests); Message is
// the text in the language current when the error was made.
type Error struct {
	Key      string
	Message  string
	Problems []string // the individual findings of a prerequisite check, if any
	Err      error    // the cause, when there is one
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

func newError(key string, args ...any) *Error {
	return &Error{Key: key, Message: i18n.T(key, args...)}
}

func wrapError(cause error, key string, args ...any) *Error {
	e := newError(key, args...)
	e.Err = cause
	return e
}
