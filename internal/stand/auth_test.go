package stand_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/testio"
)

func TestTokenNeedsBasicAuthAndIsJWTShaped(t *testing.T) {
	s, c := start(t, stand.Options{ClientID: "cid", ClientSecret: "right"})
	ask := func(id, secret, body string) (int, []byte) {
		req, _ := http.NewRequest("POST", c.base+"/console/sys/token", strings.NewReader(body))
		req.SetBasicAuth(id, secret)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return c.send(req)
	}
	if st, _ := ask("cid", "wrong", "grant_type=client_credentials"); st != 401 {
		t.Fatalf("wrong secret: HTTP %d, want 401", st)
	}
	if st, _ := ask("other", "right", "grant_type=client_credentials"); st != 401 {
		t.Fatalf("wrong id: HTTP %d, want 401", st)
	}
	if st, _ := ask("cid", "right", "grant_type=password"); st != 400 {
		t.Fatalf("wrong grant: HTTP %d, want 400", st)
	}
	st, body := ask("cid", "right", "grant_type=client_credentials")
	if st != 200 {
		t.Fatalf("token: HTTP %d %s", st, body)
	}
	var m map[string]string
	json.Unmarshal(body, &m)
	if parts := strings.Split(m["id_token"], "."); len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		t.Fatalf("id_token is not JWT-shaped: %q", m["id_token"])
	}
	// Five token requests so far: one by start, four here.
	if n := s.TokenCalls(); n != 5 {
		t.Fatalf("TokenCalls = %d, want 5", n)
	}
	if strings.Contains(string(body), "right") {
		t.Fatal("the answer carries the secret")
	}
}

func TestDefaultCredentials(t *testing.T) {
	s, _ := start(t, stand.Options{})
	if s.ClientID() != "elemctl-stand" || len(s.ClientSecret()) != 32 {
		t.Fatalf("defaults: %q / %d hex", s.ClientID(), len(s.ClientSecret()))
	}
}

func TestAPINeedsAnIssuedToken(t *testing.T) {
	s, c := start(t, stand.Options{})
	c.must(200, "GET", "/applications", nil)

	c.tok = ""
	if st, _ := c.do("GET", "/applications", nil); st != 401 {
		t.Fatalf("no token: HTTP %d, want 401", st)
	}
	c.tok = "a.b.c"
	if st, _ := c.do("GET", "/applications", nil); st != 401 {
		t.Fatalf("foreign token: HTTP %d, want 401", st)
	}

	c.tok = c.newToken()
	s.ExpireTokens()
	st, body := c.do("GET", "/applications", nil)
	if st != 401 || strings.Contains(strings.ToLower(string(body)), "handler of http request") {
		t.Fatalf("expired token: HTTP %d %s, want a plain 401", st, body)
	}

	s.SetStaleTokenAnswer(400)
	st, body = c.do("GET", "/applications", nil)
	m := jsonText(t, body)
	if st != 400 || m["error_code"] != "invalid_request" || !strings.Contains(m["error_description"].(string), "JWT") {
		t.Fatalf("stale token in 400 mode: HTTP %d %s", st, body)
	}
	c.tok = "garbage"
	st, body = c.do("GET", "/applications", nil)
	if want := "JWT strings must contain exactly 2 period characters. Found: 0"; st != 400 || jsonText(t, body)["error_description"] != want {
		t.Fatalf("malformed token: HTTP %d %s", st, body)
	}

	// A token fetched after the expiry works.
	c.tok = c.newToken()
	c.must(200, "GET", "/applications", nil)
}

// A bearer token that is not JWT-shaped is the platform's 400 in both
// stale-token modes; a JWT-shaped refused token keeps the mode's answer.
func TestMalformedTokenIs400(t *testing.T) {
	s, c := start(t, stand.Options{})
	good := c.tok
	check := func(tok string, wantStatus int, wantBody string) {
		t.Helper()
		c.tok = tok
		st, body := c.do("GET", "/applications", nil)
		if st != wantStatus || string(body) != wantBody {
			t.Fatalf("token %q: HTTP %d %s, want %d %s", tok, st, body, wantStatus, wantBody)
		}
	}
	malformed := func(n int) string {
		return fmt.Sprintf(`{"error_code":"invalid_request","error_description":"JWT strings must contain exactly 2 period characters. Found: %d"}`, n)
	}
	for _, mode := range []int{401, 400} {
		s.SetStaleTokenAnswer(mode)
		check("abc", 400, malformed(0))
		check("a.b", 400, malformed(1))
		check("a.b.c.d", 400, malformed(3))
		check(good+".", 400, malformed(3))
		check(strings.ReplaceAll(good, ".", ""), 400, malformed(0))
		// No bearer token at all is not a token the parser sees.
		check("", 401, `{"error":{"message":"Unauthorized"}}`)
	}
	s.SetStaleTokenAnswer(401)
	check("a.b.c", 401, `{"error":{"message":"Invalid token"}}`)
	s.SetStaleTokenAnswer(400)
	check("a.b.c", 400, `{"error_code":"invalid_request","error_description":"Unable to verify RSA signature of the JWT"}`)

	// The issued token still works, and the 400 is not the unknown-method
	// answer: a missing handler is 401 whatever the token.
	s.SetStaleTokenAnswer(401)
	check(good, 200, "[]")
	c.tok = "abc"
	if st, body := c.do("GET", "/no-such-thing", nil); st != 401 || !strings.Contains(string(body), "Handler of HTTP request") {
		t.Fatalf("unknown path with a malformed token: HTTP %d %s", st, body)
	}
}

func TestUnknownMethodIs401Handler(t *testing.T) {
	s, c := start(t, stand.Options{})
	check := func(method, path, want string) {
		t.Helper()
		st, body := c.send(c.request(method, path, nil))
		if st != 401 {
			t.Fatalf("%s %s: HTTP %d, want 401", method, path, st)
		}
		var m struct {
			Error struct {
				Code    int    `json:"code"`
				Status  string `json:"status"`
				Message string `json:"message"`
			} `json:"error"`
		}
		json.Unmarshal(body, &m)
		if method == "HEAD" {
			return // no body to read
		}
		if m.Error.Code != 16 || m.Error.Status != "UNAUTHENTICATED" || m.Error.Message != want {
			t.Fatalf("%s %s: %s", method, path, body)
		}
	}
	check("GET", "/v2/no-such-thing", `Handler of HTTP request "[GET] /v2/no-such-thing" in application "console" not found.`)
	check("PATCH", "/v2/applications", `Handler of HTTP request "[PATCH] /v2/applications" in application "console" not found.`)
	// Only the extension methods live under 2.1.
	check("GET", "/v2.1/applications", `Handler of HTTP request "[GET] /v2.1/applications" in application "console" not found.`)
	// HEAD is no GET; the version alone, empty and dot segments and an
	// escaped slash inside a segment name no handler either.
	check("HEAD", "/v2/applications", "")
	check("GET", "/v2", `Handler of HTTP request "[GET] /v2" in application "console" not found.`)
	check("GET", "/v3/applications", `Handler of HTTP request "[GET] /v3/applications" in application "console" not found.`)
	check("GET", "/v2/projects//assemblies", `Handler of HTTP request "[GET] /v2/projects//assemblies" in application "console" not found.`)
	check("GET", "/v2/projects/./x", `Handler of HTTP request "[GET] /v2/projects/./x" in application "console" not found.`)
	check("GET", "/v2/applications/a%2Fb", `Handler of HTTP request "[GET] /v2/applications/a%2Fb" in application "console" not found.`)
	check("GET", "/v2/tasks/group-tasks", `Handler of HTTP request "[GET] /v2/tasks/group-tasks" in application "console" not found.`)
	// A literal beside a wildcard: GET of the technology task's path is a
	// task id that does not exist.
	if st, body := c.do("GET", "/v2/tasks/group-tasks/update-applications-technology", nil); st != 404 || !strings.Contains(string(body), "not found") {
		t.Fatalf("GET of the group-task creation path: HTTP %d %s", st, body)
	}
	// Slashes around the path after the version are forgiven.
	c.must(200, "GET", "/v2/spaces/", nil)
	c.must(200, "GET", "/v2//spaces", nil)

	d := c.createDemo()
	c.must(200, "GET", "/v2.1/applications/"+d.AppID+"/project", nil)
	s.SetAPI21(false)
	check("GET", "/v2.1/applications/"+d.AppID+"/project",
		`Handler of HTTP request "[GET] /v2.1/applications/`+d.AppID+`/project" in application "console" not found.`)
	s.SetAPI21(true)
	c.must(200, "GET", "/v2.1/applications/"+d.AppID+"/project", nil)

	c.must(200, "POST", "/applications/"+d.AppID+"/project/export", nil)
	s.SetExportEnabled(false)
	check("POST", "/v2/applications/"+d.AppID+"/project/export",
		`Handler of HTTP request "[POST] /v2/applications/`+d.AppID+`/project/export" in application "console" not found.`)
	// The 2.1 export stays.
	c.must(200, "POST", "/v2.1/applications/"+d.AppID+"/project/export", nil)
}

func (c *client) createDemo() stand.DemoInfo {
	c.t.Helper()
	d, err := c.s.SeedDemo()
	if err != nil {
		c.t.Fatal(err)
	}
	return d
}

// consoleNotFound is how clients recognise a console that is starting.
var consoleNotFound = regexp.MustCompile(`(?i)application\W+console\W+not\s+found`)

func TestStartingModeAndConsoleRoot(t *testing.T) {
	s, c := start(t, stand.Options{})
	get := func(path string) (int, string) {
		req, _ := http.NewRequest("GET", c.base+path, nil)
		st, body := c.send(req)
		return st, string(body)
	}
	if st, _ := get("/console"); st != 302 {
		t.Fatalf("/console when up: HTTP %d, want 302", st)
	}
	s.SetStarting(time.Hour)
	seen := map[string]bool{}
	for range 2 {
		req, _ := http.NewRequest("POST", c.base+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
		req.SetBasicAuth(s.ClientID(), s.ClientSecret())
		st, body := c.send(req)
		if st != 404 || !consoleNotFound.MatchString(string(body)) {
			t.Fatalf("token while starting: HTTP %d %s", st, body)
		}
		seen[string(body)] = true
	}
	if !seen[`Application "console" not found`] || !seen[`{"message":"Application \"console\" not found"}`] {
		t.Fatalf("want both the plain and the JSON variant, got %v", seen)
	}
	if st, body := c.do("GET", "/applications", nil); st != 404 || !consoleNotFound.MatchString(string(body)) {
		t.Fatalf("API while starting: HTTP %d %s", st, body)
	}
	if st, _ := get("/console"); st != 404 {
		t.Fatalf("/console while starting: HTTP %d, want 404", st)
	}
	s.SetStarting(0)
	if st, _ := get("/console"); st != 302 {
		t.Fatalf("/console after start: HTTP %d, want 302", st)
	}
	c.must(200, "GET", "/applications", nil)

	// The starting mode runs on real time and ends by itself.
	s.SetStarting(30 * time.Millisecond)
	if st, _ := get("/console"); st != 404 {
		t.Fatalf("short start: HTTP %d, want 404", st)
	}
	time.Sleep(40 * time.Millisecond)
	if st, _ := get("/console"); st != 302 {
		t.Fatalf("after the short start: HTTP %d, want 302", st)
	}
}

func TestBreakNextResponsesCutsTheBody(t *testing.T) {
	s, c := start(t, stand.Options{})
	c.createDemo()
	const path = "/console/api/v2/tasks/application-tasks"
	s.BreakNextResponses("GET", path, 2)
	for i := range 2 {
		resp, err := c.plain.Do(c.request("GET", "/v2/tasks/application-tasks", nil))
		if err == nil {
			_, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		if err == nil {
			t.Fatalf("answer %d was not cut", i+1)
		}
	}
	if got := c.list("/tasks/application-tasks"); len(got) != 1 {
		t.Fatalf("after the breaks: %d tasks, want 1", len(got))
	}
	calls := s.Calls()
	n := 0
	for _, call := range calls {
		if call.Path == path {
			n++
			if call.Method != "GET" || call.Status != 200 || call.At.IsZero() {
				t.Fatalf("call %+v", call)
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d calls of %s recorded, want 3", n, path)
	}
}

func TestWrappedLists(t *testing.T) {
	_, c := start(t, stand.Options{Wrap: true})
	d := c.createDemo()
	for _, path := range []string{"/applications", "/spaces", "/projects", "/projects/" + d.ProjectID + "/assemblies",
		"/tasks/application-tasks", "/user-lists", "/applications/" + d.AppID + "/users", "/branches"} {
		m, ok := c.must(200, "GET", path, nil).(map[string]any)
		if !ok {
			t.Fatalf("%s: not wrapped", path)
		}
		if _, ok := m["items"].([]any); !ok {
			t.Fatalf("%s: no items array: %v", path, m)
		}
	}
	_, c2 := start(t, stand.Options{})
	if _, ok := c2.must(200, "GET", "/spaces", nil).([]any); !ok {
		t.Fatal("bare lists expected without Wrap")
	}
}

func TestRequestLogKeepsSecretsOut(t *testing.T) {
	log := &testio.Buffer{}
	s, c := start(t, stand.Options{ClientSecret: "very-secret-value", Log: log})
	d := c.createDemo()
	info := c.obj("POST", "/applications/"+d.AppID+"/actions/debug", nil)
	c.must(200, "GET", "/applications", nil)
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("log lines %q", lines)
	}
	all := log.String()
	for _, secret := range []string{s.ClientSecret(), c.tok, info["debug-token"].(string)} {
		if strings.Contains(all, secret) {
			t.Fatalf("the log carries a secret: %q", all)
		}
	}
	found := false
	for _, line := range lines {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is no JSON: %q", line)
		}
		if entry["method"] == "GET" && entry["path"] == "/console/api/v2/applications" && entry["status"] == 200.0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("log %q", all)
	}
}

func TestListsIgnoreQueries(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	if got := c.list("/applications?name=no-such-app&limit=1"); len(got) != 1 {
		t.Fatalf("apps with a name query: %d", len(got))
	}
	if got := c.list("/projects?name=zzz&page=2"); len(got) != 2 {
		t.Fatalf("projects with queries: %d", len(got))
	}
	for _, q := range []string{"limit=1", "size=1", "pageSize=1", "top=1", "offset=2", "skip=2", "page=3"} {
		if got := c.list("/projects/" + d.ProjectID + "/assemblies?" + q); len(got) != 3 {
			t.Fatalf("builds with %s: %d", q, len(got))
		}
	}
}
