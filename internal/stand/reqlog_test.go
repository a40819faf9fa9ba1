package stand_test

import (
	"encoding/json"
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

// A Console API request's log line tells when the platform read its clock
// for the answer (served): after the arrival, before the answer's end, and
// the moment the operation it started is stamped with – the moment that
// says whether a read saw an operation end, whenever the read arrived.
func TestRequestLogTellsWhenTheAnswerWasServed(t *testing.T) {
	log := &testio.Buffer{}
	// The stop lasts long enough (3.6 s at the tests' speed) for the card
	// read after it to show the stop's own moment, not the moment it ended.
	_, c := start(t, stand.Options{Log: log, Durations: stand.Durations{Stop: time.Hour}})
	d := c.createDemo()
	c.must(200, "PUT", "/v2/applications/"+d.AppID+"/status/stop", nil)
	card := c.obj("GET", "/v2/applications/"+d.AppID, nil)
	var stop struct {
		Time, Served string
		MS           float64
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if strings.Contains(line, `"method":"PUT"`) && strings.Contains(line, "/status/stop") {
			if err := json.Unmarshal([]byte(line), &stop); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("no line of the stop in the log:\n%s", log.String())
	}
	arrived, err1 := time.Parse(time.RFC3339Nano, stop.Time)
	served, err2 := time.Parse(time.RFC3339Nano, stop.Served)
	if err1 != nil || err2 != nil {
		t.Fatalf("the stop's line: time %q served %q", stop.Time, stop.Served)
	}
	if served.Before(arrived) || served.After(arrived.Add(time.Duration(stop.MS*float64(time.Millisecond))+time.Millisecond)) {
		t.Errorf("served %v is not between the arrival %v and the answer's end %.3f ms later", served, arrived, stop.MS)
	}
	if want := served.UTC().Format("2006-01-02T15:04:05.000Z"); card["date-updated"] != want {
		t.Errorf("the card's date-updated %v, the stop served at %s", card["date-updated"], want)
	}
}
