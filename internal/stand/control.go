package stand

import (
	"crypto/subtle"
	"io"
	"net"
	"net/http"
	"strings"
)

// The control endpoint changes the rules while the stand runs. It is no
// part of the platform: no fault, log line or call record touches it.
const (
	controlPrefix  = "/stand/"
	controlFaults  = "/stand/faults"
	controlFirings = "/stand/firings"
	controlTasks   = "/stand/tasks"
	// maxControlBody bounds a PUT of the rules.
	maxControlBody = 1 << 20
)

// serveControl answers GET|PUT|DELETE /stand/faults, GET /stand/firings and
// GET /stand/tasks, from a loopback peer with the stand's client id and secret (HTTP Basic,
// as the token endpoint takes them).
func (s *Stand) serveControl(w http.ResponseWriter, r *http.Request) {
	if !loopbackPeer(r.RemoteAddr) {
		writeJSON(w, http.StatusForbidden, map[string]string{"message": "the stand's control answers loopback peers only"})
		return
	}
	if !s.clientCredentials(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="stand"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "the stand's control takes the stand's client id and secret (HTTP Basic)"})
		return
	}
	allow := func(methods string) {
		w.Header().Set("Allow", methods)
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "Method not allowed"})
	}
	switch r.URL.Path {
	case controlFaults:
		switch r.Method {
		case http.MethodGet:
			writeRaw(w, http.StatusOK, MarshalFaults(s.Faults()))
		case http.MethodPut:
			data, err := io.ReadAll(io.LimitReader(r.Body, maxControlBody+1))
			if err != nil || len(data) > maxControlBody {
				writeJSON(w, http.StatusBadRequest, map[string]string{"message": "the rules could not be read (at most 1 MiB)"})
				return
			}
			set, err := ParseFaults(data)
			if err == nil {
				err = s.SetFaults(set)
			}
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"message": err.Error()})
				return
			}
			writeRaw(w, http.StatusOK, MarshalFaults(s.Faults()))
		case http.MethodDelete:
			s.ClearFaults()
			w.WriteHeader(http.StatusNoContent)
		default:
			allow("GET, PUT, DELETE")
		}
	case controlFirings:
		if r.Method != http.MethodGet {
			allow("GET")
			return
		}
		type firingJSON struct {
			Rule   string `json:"rule"`
			Effect Effect `json:"effect"`
			Method string `json:"method"`
			Path   string `json:"path"`
			Time   string `json:"time"`
		}
		out := []firingJSON{}
		for _, f := range s.Firings() {
			out = append(out, firingJSON{f.Rule, f.Effect, f.Method, f.Path, logTime(f.At)})
		}
		writeJSON(w, http.StatusOK, out)
	case controlTasks:
		if r.Method != http.MethodGet {
			allow("GET")
			return
		}
		writeJSON(w, http.StatusOK, s.taskRecords())
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "the stand's control has " + controlFaults + ", " + controlFirings + " and " + controlTasks})
	}
}

// clientCredentials checks HTTP Basic auth against the stand's client id
// and secret.
func (s *Stand) clientCredentials(r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	return ok && subtle.ConstantTimeCompare([]byte(id), []byte(s.opts.ClientID)) == 1 &&
		subtle.ConstantTimeCompare([]byte(secret), []byte(s.opts.ClientSecret)) == 1
}

func loopbackPeer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(strings.TrimSpace(host))
	return ip != nil && ip.IsLoopback()
}

func writeRaw(w http.ResponseWriter, status int, data []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
