package deploy

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// scripted is a Console API that answers card reads from a script: each
// read takes the next step (the last one repeats). A step may also drop
// the connection, answer "console not found" or "busy".
type scripted struct {
	t     *testing.T
	mu    sync.Mutex
	cards []step
	reads int
	// applies are the answers of project/update, in order (last repeats).
	applies []step
	posts   int
	tasks   []map[string]any
	srv     *httptest.Server
}

type step struct {
	status string // card status; "" with a code below means an error answer
	uri    string
	code   int    // non-zero: an error answer with this code and text
	text   string // the error answer's text
	drop   bool   // close the connection without an answer
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case r.URL.Path == "/console/sys/token":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id_token":"test-token"}`))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/console/api/v2/applications/"):
		st := s.cards[min(s.reads, len(s.cards)-1)]
		s.reads++
		s.answer(w, st, func() any {
			return map[string]any{"id": "app-1", "name": "demo", "status": st.status, "uri": st.uri,
				"error": "Неизвестная ошибка. Обратитесь к администратору"}
		})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/project/update"):
		st := s.applies[min(s.posts, len(s.applies)-1)]
		s.posts++
		s.answer(w, st, func() any { return map[string]any{} })
	case r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/status/"):
		w.WriteHeader(http.StatusOK)
	case r.URL.Path == "/console/api/v2/tasks/application-tasks":
		json.NewEncoder(w).Encode(s.tasks)
	default:
		http.NotFound(w, r)
	}
}

func (s *scripted) answer(w http.ResponseWriter, st step, body func() any) {
	switch {
	case st.drop:
		hj, ok := w.(http.Hijacker)
		if !ok {
			s.t.Fatal("the test server cannot hijack")
		}
		conn, _, _ := hj.Hijack()
		conn.Close()
	case st.code != 0:
		w.WriteHeader(st.code)
		w.Write([]byte(st.text))
	default:
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(body())
	}
}

func (s *scripted) readCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads
}

// newScripted serves a script and returns operations wired to it with a
// fake clock.
func newScripted(t *testing.T, cards ...step) (*scripted, *Ops, *FakeClock, *[]string) {
	t.Helper()

	ctx := context.Background()
	s := &scripted{t: t, cards: cards, applies: []step{{}}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	cl, err := platform.NewClient(ctx, &platform.Config{BaseURL: s.srv.URL, ClientID: "id", ClientSecret: "secret",
		TLSVerify: true, NoProxy: true, Timeout: 5 * time.Second}, platform.ClientOptions{TokenCacheDir: "-"})
	if err != nil {
		t.Fatal(err)
	}
	clock := NewFakeClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	var logs []string
	var mu sync.Mutex
	o := &Ops{Client: cl, Clock: clock, Log: func(l string) {
		mu.Lock()
		logs = append(logs, l)
		mu.Unlock()
	}}
	return s, o, clock, &logs
}

func running() step  { return step{status: platform.StatusRunning, uri: "https://host/apps/demo"} }
func updating() step { return step{status: "Updating"} }

func repeat(st step, n int) []step {
	out := make([]step, n)
	for i := range out {
		out[i] = st
	}
	return out
}

func hasLine(lines []string, fragment string) bool {
	for _, l := range lines {
		if strings.Contains(l, fragment) {
			return true
		}
	}
	return false
}

func objects(t *testing.T, text string) []*jsonx.Object {
	t.Helper()
	v, err := jsonx.Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return jsonx.Objects(v)
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFailedTasksSinceAndOrder(t *testing.T) {
	tasks := objects(t, `[
		{"id":"a","status":"Failed","start-date":"2026-03-01T09:00:00Z"},
		{"id":"b","status":"Completed","start-date":"2026-03-01T10:05:00Z"},
		{"id":"c","status":"error","start-date":"2026-03-01T10:06:00"},
		{"id":"d","status":"Failed"},
		{"id":"e","status":"FAILED","start-date":"bogus"}
	]`)
	since := mustTime(t, "2026-03-01T10:00:00Z")
	var ids []string
	for _, task := range failedTasks(tasks, since) {
		ids = append(ids, task.Str("id"))
	}
	// Freshest first; a task without a readable start date counts.
	if !reflect.DeepEqual(ids, []string{"e", "d", "c"}) {
		t.Fatalf("failed tasks %v", ids)
	}
}
