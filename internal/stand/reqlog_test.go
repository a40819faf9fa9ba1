package stand_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/testio"
)

// A request's log line is written before the client has the whole of its
// answer (or its loss): a client sending its requests one after another
// finds them in the log in that order, whatever the answer's fate.
func TestRequestLogLineComesBeforeTheAnswerEnds(t *testing.T) {
	log := &testio.Buffer{}
	s, c := start(t, stand.Options{Log: log})
	d := c.createDemo()
	if err := s.SeedApps(60, 60); err != nil {
		t.Fatal(err)
	}
	for _, f := range []stand.Fault{
		{Name: "lost", Method: "GET", Path: "/console/api/v2/spaces", Effect: stand.EffectLoseAnswer},
		{Name: "reset", Method: "GET", Path: "/console/api/v2/projects", Effect: stand.EffectResetBefore},
		{Name: "proxy", Method: "GET", Path: "/console/api/v2/users", Effect: stand.EffectStatus, Status: 503},
		{Name: "cut", Method: "GET", Path: "/console/api/v2/tasks/application-tasks", Effect: stand.EffectTruncate},
		{Name: "slow", Method: "GET", Path: "/console/api/v2/applications/*", Effect: stand.EffectSlowBody, Delay: time.Millisecond},
	} {
		c.fault(f)
	}
	// A new connection each time: a dropped keep-alive connection would make
	// the transport send a GET again by itself.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	paths := []string{"/v2/spaces", "/v2/projects", "/v2/users", "/v2/tasks/application-tasks", "/v2/applications/" + d.AppID,
		"/v2/applications", "/v2/applications?limit=1"}
	for round := range 40 {
		for _, path := range paths {
			if resp, err := client.Do(c.request("GET", path, nil)); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			last := lines[len(lines)-1]
			want := `"path":"/console/api` + strings.SplitN(path, "?", 2)[0] + `"`
			if !strings.Contains(last, want) {
				t.Fatalf("round %d: after GET %s the log ends with %s", round, path, last)
			}
		}
	}
}
