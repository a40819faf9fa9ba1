package stand

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// logLine is one line of the request log (Options.Log): never a header, a
// token or a secret.
type logLine struct {
	Time     string  `json:"time"`
	Served   string  `json:"served"`
	Method   string  `json:"method"`
	Path     string  `json:"path"`
	Query    string  `json:"query"`
	Status   int     `json:"status"`
	MS       float64 `json:"ms"`
	BytesIn  int64   `json:"bytes-in"`
	BytesOut int64   `json:"bytes-out"`
	Fault    string  `json:"fault"`
}

// noteLine is a line of the log that is no request: what the platform did
// by itself (housekeeping) or what went wrong in the stand.
type noteLine struct {
	Time string `json:"time"`
	Note string `json:"note"`
}

// secretParams are query parameters whose values the log leaves out; the
// Console API takes none today, the list is a guard for tomorrow.
var secretParams = map[string]bool{"access_token": true, "token": true, "client_secret": true, "secret": true,
	"password": true, "debug-token": true}

// loggedQuery is the query as logged: a secret parameter keeps its name only.
func loggedQuery(raw string) string {
	if raw == "" {
		return ""
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil && secretParams[strings.ToLower(n)] {
			parts[i] = name
		}
	}
	return strings.Join(parts, "&")
}

func logTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// writeLog appends one JSON line to Options.Log.
func (s *Stand) writeLog(v any) {
	if s.opts.Log == nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	data = append(data, '\n')
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = s.opts.Log.Write(data)
}

// note logs what the stand did by itself.
func (s *Stand) note(format string, args ...any) {
	s.writeLog(noteLine{Time: logTime(time.Now()), Note: fmt.Sprintf(format, args...)})
}

// serverErrors takes the HTTP server's own error lines (a refused TLS
// handshake, say) into the log as notes, instead of the process's stderr,
// which belongs to whoever runs the stand.
type serverErrors struct{ s *Stand }

func (w serverErrors) Write(p []byte) (int, error) {
	w.s.note("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
