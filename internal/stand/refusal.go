package stand

import (
	"fmt"
	"net/http"
)

// refusal is an API refusal produced below the handlers; the handler
// answers it with write.
type refusal struct {
	status int
	body   any
}

func (e *refusal) Error() string { return fmt.Sprintf("HTTP %d: %v", e.status, e.body) }

func (e *refusal) write(w http.ResponseWriter) { writeJSON(w, e.status, e.body) }

// answer writes err as a refusal (any other error becomes a bare 500).
// answerCard answers a read of one thing: its card, or the refusal its
// lookup gave.
func answerCard[T any](q *req, found T, err error, card func(T) any) {
	if err != nil {
		answer(q.w, err)
		return
	}
	writeJSON(q.w, http.StatusOK, card(found))
}

func answer(w http.ResponseWriter, err error) {
	if r, ok := err.(*refusal); ok {
		r.write(w)
		return
	}
	writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "Internal server error"})
}

func refuseMessage(status int, format string, args ...any) *refusal {
	return &refusal{status, map[string]string{"message": fmt.Sprintf(format, args...)}}
}

func refuseCode(status int, code, format string, args ...any) *refusal {
	return &refusal{status, struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{code, fmt.Sprintf(format, args...)}}
}

func refuseInvalid(format string, args ...any) *refusal {
	return &refusal{http.StatusBadRequest, map[string]string{"error_code": "invalid_request", "error_description": fmt.Sprintf(format, args...)}}
}

func refuseInternal(format string, args ...any) *refusal {
	return &refusal{http.StatusInternalServerError, struct {
		Message string `json:"message"`
		Details string `json:"details"`
	}{fmt.Sprintf(format, args...), "Contact administrator for details"}}
}

// refuseBare is the console's 500 without a cause (it stays in the event log).
func refuseBare() *refusal {
	return &refusal{http.StatusInternalServerError, map[string]string{"message": "Internal server error"}}
}
