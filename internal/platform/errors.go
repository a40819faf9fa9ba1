package platform

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// Error kinds. Every elemctl error is a value with a kind and a message;
// faces map them (CLI: JSON on stderr and exit 1, MCP: isError, LSP: an
// error reply, DAP: an ErrorResponse).
const (
	KindGeneral   = "error"
	KindConfig    = "config"
	KindBuild     = "build"
	KindTransport = "transport"
	KindPlugin    = "plugin"
	// KindNotDone: a change whose answer was lost, read back and found not
	// made; running the same command again makes it.
	KindNotDone = "not-done"
)

// Error is a failure that is not an HTTP answer of the Console API.
type Error struct {
	Kind    string
	Message string
	Err     error // the cause, when there is one
	// Hint is a command that helps on from here, when there is one; the
	// message says it too.
	Hint string
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// ErrorHint is the command that helps on, for the error's "hint" key
// (ErrorObject takes it from any error that has one).
func (e *Error) ErrorHint() string { return e.Hint }

// ConfigErrorf builds a configuration error (missing settings, names that
// resolve to nothing or to several things, refused local preconditions).
func ConfigErrorf(ctx context.Context, key string, args ...any) error {
	return &Error{Kind: KindConfig, Message: i18n.T(ctx, key, args...)}
}

// NewError builds an error of the given kind from a catalog message.
func NewError(ctx context.Context, kind, key string, args ...any) error {
	return &Error{Kind: kind, Message: i18n.T(ctx, key, args...)}
}

// APIError kinds beyond a plain refusal.
const (
	APIPlain          = ""
	APIServerStarting = "server-starting"
	APIUnknownMethod  = "unknown-method"
	APIBusy           = "busy"
)

// APIError is an HTTP answer of the Console API outside 2xx (or a failed
// wait, which has no status).
type APIError struct {
	Message string
	Status  int
	Method  string
	URL     string
	Body    any // decoded JSON (*jsonx.Object, []any, ...) or text
	Hint    string
	Kind    string
}

func (e *APIError) Error() string { return e.Message }

// IsAPIStatus tells whether err is an API answer with one of the statuses.
func IsAPIStatus(err error, statuses ...int) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, s := range statuses {
		if ae.Status == s {
			return true
		}
	}
	return false
}

// IsServerStarting tells whether err is the "console not found" answer of
// a 1C:Element server that is still booting.
func IsServerStarting(err error) bool { return apiKind(err) == APIServerStarting }

// IsUnknownMethod tells whether err is an older server's refusal of a
// method it does not have.
func IsUnknownMethod(err error) bool { return apiKind(err) == APIUnknownMethod }

// IsTransport tells whether err is a network failure.
func IsTransport(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindTransport
}

// IsTimeout tells whether err is a network operation (connecting, sending,
// waiting for the answer) that made no progress within the timeout.
func IsTimeout(err error) bool {
	var te *timeoutError
	return errors.As(err, &te)
}

// IsNotDone tells whether err is a change read back and found not made.
func IsNotDone(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindNotDone
}

// IsConfig tells whether err is a configuration error.
func IsConfig(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindConfig
}

func apiKind(err error) string {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Kind
	}
	return ""
}

// ErrorObject renders any error in the shape elemctl prints on stderr:
// {"error", "status", "method", "url", "body", "hint"}, empty keys omitted.
func ErrorObject(err error) *jsonx.Object {
	o := jsonx.New("error", err.Error())
	var ae *APIError
	if errors.As(err, &ae) {
		// An error of elemctl's own that wraps the answer (a change found
		// not made after it) keeps its message; the answer's fields follow.
		var own *Error
		if !errors.As(err, &own) || own.Message == "" {
			o.Set("error", ae.Message)
		}
		if ae.Status != 0 {
			o.Set("status", ae.Status)
		}
		if ae.Method != "" {
			o.Set("method", ae.Method)
		}
		if ae.URL != "" {
			o.Set("url", ae.URL)
		}
		if !emptyBody(ae.Body) {
			o.Set("body", ae.Body)
		}
		if ae.Hint != "" {
			o.Set("hint", ae.Hint)
		}
	}
	var h interface{ ErrorHint() string }
	if errors.As(err, &h) && h.ErrorHint() != "" && !o.Has("hint") {
		o.Set("hint", h.ErrorHint())
	}
	return o
}

func emptyBody(b any) bool {
	switch v := b.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case *jsonx.Object:
		return v.Len() == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// bodyText is the body as text, for matching markers such as "is busy".
func bodyText(b any) string {
	switch v := b.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	raw, err := jsonx.Compact(b)
	if err != nil {
		return fmt.Sprint(b)
	}
	return string(raw)
}

// bodyDetail is the first non-empty string among message, error, detail
// of an object body; a nested {"error": {...}} adds nothing.
func bodyDetail(b any) string {
	o, ok := b.(*jsonx.Object)
	if !ok {
		return ""
	}
	for _, k := range []string{"message", "error", "detail"} {
		if s := strings.TrimSpace(o.Str(k)); s != "" {
			return s
		}
	}
	return ""
}

var (
	reConsoleNotFound = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)application\W+console\W+not\s+found`) })
	reHandlerNotFound = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)handler\s+of\s+http\s+request`) })
	reBusy            = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)is busy|занято|занят`) })
	reStaleToken      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)jwt|signature|token|expired`) })
)

// IsBusy tells whether err is the platform's "application is busy" refusal.
func IsBusy(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.Status {
	case 404, 409, 423:
		return reBusy().MatchString(bodyText(ae.Body)) || reBusy().MatchString(ae.Message)
	}
	return false
}

// newAPIError maps a non-2xx answer to an APIError with the message format
// users know: "Console API responded {status} to {method} {url}: detail".
func newAPIError(ctx context.Context, status int, method, url string, body any, mayBeUnknown bool, api string, base string) *APIError {
	msg := i18n.T(ctx, "client.api-error", "status", status, "method", method, "url", url)
	if d := bodyDetail(body); d != "" {
		msg += ": " + d
	}
	e := &APIError{Message: msg, Status: status, Method: method, URL: url, Body: body}
	text := bodyText(body)
	switch {
	case status == 404 && reConsoleNotFound().MatchString(text):
		e.Kind = APIServerStarting
		e.Message = i18n.T(ctx, "client.server-starting", "method", method, "url", url, "console", base+"/console")
	case status == 401 && reHandlerNotFound().MatchString(text):
		e.Kind = APIUnknownMethod
		if mayBeUnknown {
			e.Message = i18n.T(ctx, "client.unknown-method", "method", method, "url", url, "api", api)
		}
	case (status == 404 || status == 409 || status == 423) && reBusy().MatchString(text):
		e.Kind = APIBusy
	}
	return e
}

// IsTurnedAway tells whether err is an answer a gateway or a server under
// load gives for the moment (502, 503, 504, 429): a read so answered is
// like a broken connection, and a change so answered may or may not have
// been made.
func IsTurnedAway(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && TurnedAway(ae.Status)
}
