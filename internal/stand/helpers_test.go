package stand_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/stand/standtest"
)

// client is a plain net/http client of the stand, as a test sees it.
type client struct {
	t     testing.TB
	s     *stand.Stand
	base  string
	tok   string
	plain *http.Client
}

func start(t testing.TB, opts stand.Options) (*stand.Stand, *client) {
	t.Helper()
	s := standtest.Start(t, opts)
	c := &client{t: t, s: s, base: s.URL(), plain: (&client{}).plainClient()}
	c.tok = c.newToken()
	return s, c
}

// plainClient does not follow redirects, so the console root's 302 shows.
func (*client) plainClient() *http.Client {
	return &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func (c *client) newToken() string {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(c.s.ClientID(), c.s.ClientSecret())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, body := c.send(req)
	if status != 200 {
		c.t.Fatalf("token: HTTP %d %s", status, body)
	}
	var m map[string]string
	if err := json.Unmarshal(body, &m); err != nil || m["id_token"] == "" {
		c.t.Fatalf("token answer %s: %v", body, err)
	}
	return m["id_token"]
}

func (c *client) send(req *http.Request) (int, []byte) {
	c.t.Helper()
	resp, err := c.plain.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	return resp.StatusCode, body
}

// request builds an API request; path is under /console/api (e.g.
// "/v2/applications"); body nil = none, []byte = octet-stream, else JSON.
func (c *client) request(method, path string, body any) *http.Request {
	c.t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case []byte:
		rd, ctype = bytes.NewReader(b), "application/octet-stream"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd, ctype = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequest(method, c.base+"/console/api"+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Authorization", "Bearer "+c.tok)
	return req
}

// do calls a 2.0 path ("/applications") or, with a "/v2.1/" prefix, a 2.1 path.
func (c *client) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	if !strings.HasPrefix(path, "/v2") {
		path = "/v2" + path
	}
	return c.send(c.request(method, path, body))
}

// must calls and checks the status; the answer is decoded when JSON.
func (c *client) must(want int, method, path string, body any) any {
	c.t.Helper()
	status, data := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s: HTTP %d, want %d: %s", method, path, status, want, data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return string(data)
	}
	return v
}

func (c *client) obj(method, path string, body any) map[string]any {
	c.t.Helper()
	m, ok := c.must(200, method, path, body).(map[string]any)
	if !ok {
		c.t.Fatalf("%s %s: not an object", method, path)
	}
	return m
}

func (c *client) list(path string) []map[string]any {
	c.t.Helper()
	raw := c.must(200, "GET", path, nil)
	if m, ok := raw.(map[string]any); ok {
		raw = m["items"]
	}
	arr, ok := raw.([]any)
	if !ok {
		c.t.Fatalf("GET %s: not a list: %v", path, raw)
	}
	out := make([]map[string]any, len(arr))
	for i, v := range arr {
		out[i] = v.(map[string]any)
	}
	return out
}

// waitStatus polls the card until the status is reached (or fails).
func (c *client) waitStatus(appID, status string) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, data := c.do("GET", "/applications/"+appID, nil)
		var card map[string]any
		_ = json.Unmarshal(data, &card)
		if st == 200 && card["status"] == status {
			return card
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("application %s did not reach %s: HTTP %d %s", appID, status, st, data)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitGone polls until the card answers 404.
func (c *client) waitGone(appID string) []byte {
	c.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		st, data := c.do("GET", "/applications/"+appID, nil)
		if st == 404 {
			return data
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("application %s is still there: HTTP %d %s", appID, st, data)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// uploadNew uploads without a project id (into the space when given).
func (c *client) uploadNew(spaceID string, spec stand.ArchiveSpec) map[string]any {
	c.t.Helper()
	path := "/projects"
	if spaceID != "" {
		path = "/spaces/" + spaceID + "/projects"
	}
	return c.obj("POST", path, stand.MakeArchive(spec))
}

// uploadInto uploads into a project by id and returns the build card.
func (c *client) uploadInto(projectID string, spec stand.ArchiveSpec) map[string]any {
	c.t.Helper()
	return c.obj("POST", "/projects/"+projectID+"/assemblies", stand.MakeArchive(spec))
}

func artifactProject(answer map[string]any) string {
	return answer["artifact"].(map[string]any)["artifact-id"].(string)
}

// createApp creates an application from a build and waits for Running.
func (c *client) createApp(name, buildID string) string {
	c.t.Helper()
	card := c.obj("POST", "/applications", map[string]any{
		"display-name": name, "publication-context": name, "development-mode": true,
		"source": map[string]any{"type": "repository", "project-version-id": buildID},
	})
	id := card["id"].(string)
	c.waitStatus(id, "Running")
	return id
}

func (c *client) apply(appID, buildID string) {
	c.t.Helper()
	c.must(200, "POST", "/applications/"+appID+"/project/update",
		map[string]any{"source": map[string]any{"type": "repository", "image-id": buildID}})
}

// appTasks lists the tasks of one application.
func (c *client) appTasks(appID string) []map[string]any {
	var out []map[string]any
	for _, t := range c.list("/tasks/application-tasks") {
		if t["application-id"] == appID {
			out = append(out, t)
		}
	}
	return out
}

// versions lists the assembly-versions of a project's build list.
func (c *client) versions(projectID string) []string {
	c.t.Helper()
	var out []string
	for _, b := range c.list("/projects/" + projectID + "/assemblies") {
		out = append(out, b["assembly-version"].(string))
	}
	return out
}

func sample(version string) stand.ArchiveSpec {
	return stand.ArchiveSpec{Vendor: "acme", Name: "crm", Version: version, ID: "5b7e0a52-0000-4000-8000-0000000000c1", Presentation: "Acme CRM"}
}

func jsonText(t testing.TB, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not JSON: %s", data)
	}
	return m
}
