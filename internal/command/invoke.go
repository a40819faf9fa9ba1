package command

import (
	"context"
	"errors"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
)

// Runner runs a command with bound values: a face's Call, or a command a
// plugin calls from inside its own (Context.Nested).
type Runner interface {
	Run(ctx context.Context, in Values) (any, error)
}

// ArgumentsError is a call refused before it ran: its argument object did
// not decode, a key of the face's was wrong, or the rest did not bind.
// Faces answer it as bad parameters.
type ArgumentsError struct{ Err error }

func (e *ArgumentsError) Error() string { return e.Err.Error() }
func (e *ArgumentsError) Unwrap() error { return e.Err }

// DiagnosedError is a failure that located compile errors: a face shows
// its Diagnostics beside the error.
type DiagnosedError struct {
	Err         error
	Diagnostics *Diagnostics
}

func (e *DiagnosedError) Error() string { return e.Err.Error() }
func (e *DiagnosedError) Unwrap() error { return e.Err }

// Invoke is one call of command c from a JSON face – an MCP tool call, an
// LSP command, a plugin's host call: it decodes the argument object, lets
// the face read its own keys, binds the rest, runs c through run and
// renders the result in the tool dialect with its headline. The face keeps
// its transport and maps the error; an error that located compile errors
// still returns them in the answer's Diagnostics.
func Invoke(ctx context.Context, c *Command, run Runner, face JSONFace, raw []byte) (Answer, error) {
	in, err := bindCall(ctx, c, face, raw)
	if err != nil {
		return Answer{}, &ArgumentsError{err}
	}
	result, err := run.Run(ctx, in)
	if err != nil {
		var de *DiagnosedError
		if errors.As(err, &de) {
			return Answer{Diagnostics: de.Diagnostics}, err
		}
		return Answer{}, err
	}
	answer := Render(result, ToolDialect)
	if answer.Headline == "" {
		answer.Headline, answer.Severity = headline(ctx, c, answer.Value)
	}
	return answer, nil
}

// bindCall decodes, reads the face's keys and binds.
func bindCall(ctx context.Context, c *Command, face JSONFace, raw []byte) (Values, error) {
	given, err := DecodeArguments(ctx, raw, face.Called)
	if err != nil {
		return Values{}, err
	}
	if face.ReadOwn != nil {
		if err := face.ReadOwn(ctx, given); err != nil {
			return Values{}, err
		}
	}
	in, err := BindJSON(ctx, c, face, given)
	if err != nil {
		return Values{}, err
	}
	if face.Amend != nil {
		if err := face.Amend(ctx, given, in); err != nil {
			return Values{}, err
		}
	}
	return in, nil
}

// Title is how a face names a run of c to a person: "elemctl apps list".
func (c *Command) Title() string { return "elemctl " + c.Name() }

// headline is the plain headline of an answer: done, unless its "ok" is
// false – then failed, with the first line that explains why.
func headline(ctx context.Context, c *Command, value any) (string, Severity) {
	obj, _ := value.(*jsonx.Object)
	if obj == nil {
		return c.Title() + ": " + i18n.T(ctx, "verdict.done"), Information
	}
	if ok, hasOK := obj.Value("ok").(bool); !hasOK || ok {
		return c.Title() + ": " + i18n.T(ctx, "verdict.done"), Information
	}
	return i18n.T(ctx, "verdict.failed", "command", c.Title(), "problem", FirstProblem(ctx, obj)), Failure
}

// FirstProblem is the first line that explains a failed answer.
func FirstProblem(ctx context.Context, obj *jsonx.Object) string {
	for _, key := range []string{"problems-lines", "problems", "messages"} {
		if list, _ := obj.Value(key).([]any); len(list) > 0 {
			if s, ok := list[0].(string); ok && s != "" {
				return s
			}
		}
		if list, _ := obj.Value(key).([]string); len(list) > 0 && list[0] != "" {
			return list[0]
		}
	}
	if errs := jsonx.Objects(obj.Value("errors")); len(errs) > 0 {
		return CompileErrorLine(errs[0])
	}
	for _, key := range []string{"error", "hint"} {
		if s := obj.Str(key); s != "" {
			return s
		}
	}
	return i18n.T(ctx, "verdict.no-detail")
}

// CompileErrorLine is "file:line:column: message" of a compile error item
// of an answer ("errors" of a probe).
func CompileErrorLine(e *jsonx.Object) string {
	return e.Str("file") + ":" + jsonText(e.Value("line")) + ":" + jsonText(e.Value("column")) + ": " + e.Str("message")
}

func jsonText(v any) string {
	b, err := jsonx.Compact(v)
	if err != nil {
		return ""
	}
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
