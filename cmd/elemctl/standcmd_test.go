package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elemctl/elemctl/internal/stand"
	"github.com/elemctl/elemctl/internal/testio"
)

// startStandProcess runs `elemctl stand` and reads the JSON object it
// prints before serving.
func startStandProcess(t *testing.T, bin string, args ...string) (map[string]any, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"stand", "--speed", "0.001", "--lang", "en"}, args...)...)
	// A stand killed at the end of a failed test leaves its store in TMPDIR.
	cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "TMPDIR="+t.TempDir())
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var text strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		text.WriteString(sc.Text() + "\n")
		if sc.Text() == "}" {
			break
		}
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(text.String()), &info); err != nil {
		t.Fatalf("stand answer %q: %v", text.String(), err)
	}
	info[standProcessKey] = cmd
	return info, stderr
}

// standProcessKey holds the process in the answer map startStandProcess returns.
const standProcessKey = " process"

// syncBuffer is written by one goroutine while the test reads it.
type syncBuffer = testio.Buffer

func TestStandCommandSeedsWritesEnvAndKeepsState(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	envFile, state := filepath.Join(dir, "demo.env"), filepath.Join(dir, "state.json")
	info, _ := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile, "--state", state)
	for _, k := range []string{"base-url", "client-id", "client-secret", "space-id", "project-id", "app-id", "env-file"} {
		if info[k] == nil || info[k] == "" {
			t.Errorf("the stand's answer lacks %s: %v", k, info)
		}
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"ELEMENT_BASE_URL=" + info["base-url"].(string), "ELEMENT_APP_ID=" + info["app-id"].(string),
		"ELEMENT_PROJECT_ID=" + info["project-id"].(string), "ELEMCTL_NO_PROXY=1"} {
		if !strings.Contains(string(env), line+"\n") {
			t.Errorf(".env lacks %q:\n%s", line, env)
		}
	}
	if st, _ := os.Stat(envFile); st.Mode().Perm() != 0o600 {
		t.Errorf("the .env holds the secret; mode %v", st.Mode().Perm())
	}

	// The written .env is all a command needs.
	get := exec.Command(bin, "--env-file", envFile, "apps", "get")
	get.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+dir)
	out, err := get.Output()
	if err != nil || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("apps get against the stand: %v\n%s", err, out)
	}

	// Ctrl-C stops it cleanly.
	stopStand(t, info)

	if st, err := os.Stat(state); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the state file holds the secret; it must be private: %v %v", st.Mode(), err)
	}

	// A restart with the same state: the first .env works as it is.
	again, _ := startStandProcess(t, bin, "--state", state)
	for _, k := range []string{"base-url", "client-id", "client-secret", "space-id", "project-id", "app-id"} {
		if again[k] != info[k] {
			t.Errorf("after the restart %s is %v, was %v", k, again[k], info[k])
		}
	}
	get = exec.Command(bin, "--env-file", envFile, "apps", "get")
	get.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+t.TempDir())
	if out, err := get.Output(); err != nil || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("apps get with the .env of the first start: %v\n%s", err, out)
	}
	stopStand(t, again)

	// Seeding again seeds nothing twice and writes the same .env.
	envAgain := filepath.Join(dir, "again.env")
	seeded, _ := startStandProcess(t, bin, "--seed", "demo", "--state", state, "--write-env", envAgain)
	if first, _ := os.ReadFile(envAgain); string(first) != string(env) {
		t.Errorf("the .env of a restart differs:\n%s\nwas\n%s", first, env)
	}
	list := exec.Command(bin, "--env-file", envFile, "apps", "list", "--brief")
	list.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+dir, "TMPDIR="+t.TempDir())
	out, err = list.Output()
	if err != nil || strings.Count(string(out), `"id"`) != 1 || !strings.Contains(string(out), info["app-id"].(string)) {
		t.Fatalf("the restored stand should hold the one demo application: %v\n%s", err, out)
	}
	stopStand(t, seeded)

	// The old address taken: a new one, said on stderr; the secret stays.
	taken, err := net.Listen("tcp", strings.TrimPrefix(info["base-url"].(string), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	moved, stderr := startStandProcess(t, bin, "--state", state)
	if moved["base-url"] == info["base-url"] || moved["client-secret"] != info["client-secret"] {
		t.Errorf("a stand whose address is taken: %v", moved)
	}
	stopStand(t, moved)
	if !strings.Contains(stderr.String(), "previous address "+strings.TrimPrefix(info["base-url"].(string), "http://")+" is taken") {
		t.Errorf("the move was not said: %q", stderr.String())
	}
}

// stopStand interrupts a stand process and waits for it.
func stopStand(t *testing.T, info map[string]any) {
	t.Helper()
	cmd := info[standProcessKey].(*exec.Cmd)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the stand did not stop cleanly: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stand ignored the interrupt")
	}
}

// standAPI is a plain HTTP client of a stand process, with a token.
type standAPI struct {
	t          *testing.T
	base, tok  string
	id, secret string
}

func newStandAPI(t *testing.T, info map[string]any) *standAPI {
	api := &standAPI{t: t, base: info["base-url"].(string), id: info["client-id"].(string), secret: info["client-secret"].(string)}
	req, _ := http.NewRequest("POST", api.base+"/console/sys/token", strings.NewReader("grant_type=client_credentials"))
	req.SetBasicAuth(api.id, api.secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, body := api.send(req)
	var m map[string]string
	json.Unmarshal(body, &m)
	api.tok = m["id_token"]
	return api
}

func (api *standAPI) send(req *http.Request) (*http.Response, []byte) {
	api.t.Helper()
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		api.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// call sends an API request (path under /console/api/v2) and decodes the answer.
func (api *standAPI) call(method, path string, body any) (*http.Response, any) {
	api.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, api.base+"/console/api/v2"+path, rd)
	req.Header.Set("Authorization", "Bearer "+api.tok)
	req.Header.Set("Content-Type", "application/json")
	resp, data := api.send(req)
	var v any
	json.Unmarshal(data, &v)
	return resp, v
}

func (api *standAPI) card(appID string) map[string]any {
	api.t.Helper()
	resp, v := api.call("GET", "/applications/"+appID, nil)
	if resp.StatusCode != 200 {
		api.t.Fatalf("card %s: HTTP %d %v", appID, resp.StatusCode, v)
	}
	return v.(map[string]any)
}

// waitStatus reads the card until the status shows.
func (api *standAPI) waitStatus(appID, status string) map[string]any {
	api.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		card := api.card(appID)
		if card["status"] == status {
			return card
		}
		if time.Now().After(deadline) {
			api.t.Fatalf("application %s did not reach %s: %v", appID, status, card)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// taskLength is how long the last task of an operation type of an
// application took, by the dates the stand's control records (the stand
// dates a task's end when its operation was due, so the length is the
// operation's duration; the console dates only the start).
func (api *standAPI) taskLength(appID, operation string) time.Duration {
	api.t.Helper()
	req, _ := http.NewRequest("GET", api.base+"/stand/tasks", nil)
	req.SetBasicAuth(api.id, api.secret)
	_, body := api.send(req)
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		api.t.Fatalf("GET /stand/tasks: %v: %s", err, body)
	}
	var length time.Duration = -1
	for _, item := range v.([]any) {
		task := item.(map[string]any)
		if task["application-id"] != appID || task["operation-type"] != operation {
			continue
		}
		start, err1 := time.Parse(time.RFC3339, task["start-date"].(string))
		end, err2 := time.Parse(time.RFC3339, task["end-date"].(string))
		if err1 != nil || err2 != nil {
			api.t.Fatalf("task dates %v", task)
		}
		length = end.Sub(start)
	}
	return length
}

func TestStandCommandOptions(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	faults := filepath.Join(dir, "flaky.yaml")
	os.WriteFile(faults, []byte(`seed: 5
faults:
  - name: lost create
    method: POST
    path: /console/api/v2/applications
    nth: 1
    effect: lose-answer
  - name: proxy hiccup
    method: GET
    path: /console/api/v2/spaces
    every: 2
    effect: status
    status: 503
    retry-after: 3
`), 0o600)
	log, envFile := filepath.Join(dir, "requests.jsonl"), filepath.Join(dir, "ci.env")
	// At --speed 0.001 a minute of platform time is 60 ms.
	info, stderr := startStandProcess(t, bin, "--seed", "demo", "--write-env", envFile, "--faults", faults, "--log", log,
		"--apps", "3", "--deleted-apps", "2", "--builds", "10",
		"--create-time", "1m", "--apply-time", "2m", "--start-time", "150", "--stop-time", "1m30s", "--delete-time", "45s")
	if info["bulk-project-id"] == nil || info["faults-url"] != info["base-url"].(string)+"/stand/faults" {
		t.Fatalf("the stand's answer: %v", info)
	}
	api := newStandAPI(t, info)

	// Seeds: the demo, 3 running and 2 deleted bulk applications, 10 builds of the demo project.
	_, apps := api.call("GET", "/applications", nil)
	live, deleted := 0, 0
	for _, a := range apps.([]any) {
		if a.(map[string]any)["status"] == "Deleted" {
			deleted++
		} else {
			live++
		}
	}
	_, builds := api.call("GET", "/projects/"+info["project-id"].(string)+"/assemblies", nil)
	if live != 4 || deleted != 2 || len(builds.([]any)) != 10 {
		t.Fatalf("%d live and %d deleted applications, %d builds; want 4, 2, 10", live, deleted, len(builds.([]any)))
	}

	// The faults: the first create's answer is lost, yet the application is made.
	build := api.card(info["app-id"].(string))["source"].(map[string]any)["project-version-id"]
	req, _ := http.NewRequest("POST", api.base+"/console/api/v2/applications", strings.NewReader(
		`{"display-name": "lost", "source": {"type": "repository", "project-version-id": "`+build.(string)+`"}}`))
	req.Header.Set("Authorization", "Bearer "+api.tok)
	if resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a create whose answer is lost was answered: HTTP %d", resp.StatusCode)
	}
	var lost string
	_, apps = api.call("GET", "/applications", nil)
	for _, a := range apps.([]any) {
		if card := a.(map[string]any); card["display-name"] == "lost" {
			lost = card["id"].(string)
		}
	}
	if lost == "" {
		t.Fatal("the application of the lost answer does not exist")
	}
	// Every second GET of the spaces is a 503 of the proxy.
	api.call("GET", "/spaces", nil)
	if resp, _ := api.call("GET", "/spaces", nil); resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("the second GET /spaces: HTTP %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}

	// The durations, read from the task dates and the card's updates.
	api.waitStatus(lost, "Running")
	if got := api.taskLength(lost, "CreateApplication"); got != 60*time.Millisecond {
		t.Errorf("create took %v, want 1m at speed 0.001", got)
	}
	next := builds.([]any)[9].(map[string]any)["id"]
	if resp, v := api.call("POST", "/applications/"+lost+"/project/update", map[string]any{"source": map[string]any{"type": "repository", "image-id": next}}); resp.StatusCode != 200 {
		t.Fatalf("apply: HTTP %d %v", resp.StatusCode, v)
	}
	api.waitStatus(lost, "Running")
	if got := api.taskLength(lost, "UpdateApplication"); got != 120*time.Millisecond {
		t.Errorf("apply took %v, want 2m at speed 0.001", got)
	}
	for _, op := range []struct {
		path, during, after string
		want                time.Duration
	}{{"/status/stop", "Stopping", "Stopped", 90 * time.Millisecond}, {"/status/start", "Starting", "Running", 150 * time.Millisecond}} {
		if resp, _ := api.call("PUT", "/applications/"+lost+op.path, nil); resp.StatusCode != 200 {
			t.Fatalf("PUT %s: HTTP %d", op.path, resp.StatusCode)
		}
		began, _ := time.Parse(time.RFC3339, api.card(lost)["date-updated"].(string))
		ended, _ := time.Parse(time.RFC3339, api.waitStatus(lost, op.after)["date-updated"].(string))
		if ended.Sub(began) != op.want {
			t.Errorf("%s took %v, want %v", op.path, ended.Sub(began), op.want)
		}
	}
	if resp, _ := api.call("DELETE", "/applications/"+lost, nil); resp.StatusCode != 200 {
		t.Fatalf("delete: HTTP %d", resp.StatusCode)
	}
	for resp, _ := api.call("GET", "/applications/"+lost, nil); resp.StatusCode != 404; resp, _ = api.call("GET", "/applications/"+lost, nil) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := api.taskLength(lost, "DeleteApplication"); got != 45*time.Millisecond {
		t.Errorf("delete took %v, want 45s at speed 0.001", got)
	}

	// The control endpoint answers the rules in force and what fired.
	req, _ = http.NewRequest("GET", info["base-url"].(string)+"/stand/firings", nil)
	req.SetBasicAuth(api.id, api.secret)
	if _, body := api.send(req); !strings.Contains(string(body), `"rule":"lost create"`) || !strings.Contains(string(body), `"rule":"proxy hiccup"`) {
		t.Errorf("firings: %s", body)
	}

	stopStand(t, info)
	if !strings.Contains(stderr.String(), "2 fault rule(s) from "+faults+" (seed 5)") {
		t.Errorf("the rules were not announced: %q", stderr.String())
	}
	// The log: one JSON line per request, the faults named, no secret.
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var faulted []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is no JSON: %q", line)
		}
		if f, _ := entry["fault"].(string); f != "" {
			faulted = append(faulted, f)
		}
	}
	if !slices.Equal(faulted, []string{"lost create", "proxy hiccup"}) {
		t.Errorf("the log names the faults %v", faulted)
	}
	if strings.Contains(string(data), api.secret) || strings.Contains(string(data), api.tok) {
		t.Error("the request log carries a secret")
	}
	env, _ := os.ReadFile(envFile)
	if !strings.Contains(string(env), "ELEMENT_PROJECT_ID="+info["project-id"].(string)) {
		t.Errorf("the .env of a demo names its project: %s", env)
	}
}

func TestStandCommandRefusesBadOptions(t *testing.T) {
	t.Parallel()
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"faults": [{"effect": "status", "status": 503}, {"effect": "slow-body"}]}`), 0o600)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--faults", bad}, 1, "rule 2: delay: effect slow-body needs a delay"},
		{[]string{"--faults", filepath.Join(dir, "none.yaml")}, 1, "none.yaml"},
		{[]string{"--apps", "-1"}, 2, "--apps takes a number of 0 or more, not -1"},
		{[]string{"--apply-time", "soon"}, 2, `invalid value "soon" for --apply-time: a duration above zero (30s, 1m30s or a number of seconds) expected`},
		{[]string{"--stop-time", "0"}, 2, `invalid value "0" for --stop-time: a duration above zero`},
		{[]string{"--latency", "-1s"}, 2, `invalid value "-1s" for --latency: a duration of 0 or more (30ms, 1s or a number of seconds) expected`},
		{[]string{"--latency", "soon"}, 2, `invalid value "soon" for --latency: a duration of 0 or more`},
	} {
		cmd := exec.Command(bin, append([]string{"stand", "--lang", "en"}, tc.args...)...)
		cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "TMPDIR="+dir)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("stand %v: %v\n%s\nwant exit %d saying %q", tc.args, err, out, tc.code, tc.want)
		}
	}
}

func TestStandCommandLogsToStderrAndSeedsTheBulkProject(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	envFile := filepath.Join(t.TempDir(), "bulk.env")
	info, stderr := startStandProcess(t, bin, "--builds", "4", "--log", "-", "--write-env", envFile)
	bulk, _ := info["bulk-project-id"].(string)
	if bulk == "" || info["project-id"] != nil {
		t.Fatalf("without the demo the builds go to the bulk project: %v", info)
	}
	api := newStandAPI(t, info)
	if _, builds := api.call("GET", "/projects/"+bulk+"/assemblies", nil); len(builds.([]any)) != 4 {
		t.Fatalf("builds of the bulk project: %v", builds)
	}
	stopStand(t, info)
	if !strings.Contains(stderr.String(), `"path":"/console/api/v2/projects/`+bulk+`/assemblies"`) {
		t.Errorf("no log line on stderr: %q", stderr.String())
	}
	if env, _ := os.ReadFile(envFile); !strings.Contains(string(env), "ELEMENT_PROJECT_ID="+bulk) {
		t.Errorf("the .env names the bulk project: %s", env)
	}

	// With the demo the builds go to its project, and no bulk project is made.
	demo, _ := startStandProcess(t, bin, "--seed", "demo", "--builds", "5")
	if demo["bulk-project-id"] != nil {
		t.Errorf("a bulk project without --apps: %v", demo)
	}
	api = newStandAPI(t, demo)
	if _, builds := api.call("GET", "/projects/"+demo["project-id"].(string)+"/assemblies", nil); len(builds.([]any)) != 5 {
		t.Fatalf("builds of the demo project: %v", builds)
	}
	stopStand(t, demo)
}

// --unpacked-limit bounds what an uploaded archive may unpack to: past it
// the upload is an invalid assembly, within it the build is stored.
func TestStandCommandUnpackedLimit(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	noise := make([]byte, 3<<20)
	rand.New(rand.NewSource(1)).Read(noise)
	archive := stand.MakeArchive(stand.ArchiveSpec{Vendor: stand.DemoVendor, Name: stand.DemoName, Version: "1.0-9",
		ID: stand.DemoConfigurationID, Presentation: "Задачи команды", Files: map[string]string{"Ресурсы/noise.bin": string(noise)}})
	upload := func(info map[string]any) int {
		api := newStandAPI(t, info)
		req, _ := http.NewRequest("POST", api.base+"/console/api/v2/projects/"+info["project-id"].(string)+"/assemblies", bytes.NewReader(archive))
		req.Header.Set("Authorization", "Bearer "+api.tok)
		req.Header.Set("Content-Type", "application/octet-stream")
		resp, _ := api.send(req)
		return resp.StatusCode
	}
	small, _ := startStandProcess(t, bin, "--seed", "demo", "--unpacked-limit", "2")
	if code := upload(small); code != http.StatusBadRequest {
		t.Errorf("an archive unpacking to 3 MiB with --unpacked-limit 2: HTTP %d, want 400", code)
	}
	stopStand(t, small)
	large, _ := startStandProcess(t, bin, "--seed", "demo", "--unpacked-limit", "4")
	if code := upload(large); code != http.StatusOK {
		t.Errorf("the same archive with --unpacked-limit 4: HTTP %d, want 200", code)
	}
	stopStand(t, large)
}

// --tls-ca serves HTTPS: the certificate goes to the file, the .env names
// it, and a command trusts the stand through it alone; without it the
// command is refused on the certificate and says no secret. --latency
// holds the handshake and every answer.
func TestStandCommandServesHTTPS(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("interrupting a child process needs a signal")
	}
	bin := buildBin(t, "cmd/elemctl")
	dir := t.TempDir()
	ca, envFile := filepath.Join(dir, "certs", "ca.pem"), filepath.Join(dir, "demo.env")
	const latency = 100 * time.Millisecond
	info, _ := startStandProcess(t, bin, "--seed", "demo", "--tls-ca", ca, "--write-env", envFile, "--latency", latency.String())
	base := info["base-url"].(string)
	if !strings.HasPrefix(base, "https://127.0.0.1:") || info["ca-file"] != ca {
		t.Fatalf("the stand's answer: %v", info)
	}
	st, err := os.Stat(ca)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("the CA file: %v %v", st, err)
	}
	if pemData, _ := os.ReadFile(ca); !strings.HasPrefix(string(pemData), "-----BEGIN CERTIFICATE-----") || strings.Contains(string(pemData), "PRIVATE KEY") {
		t.Fatalf("the CA file is the certificate alone:\n%s", pemData)
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"ELEMENT_BASE_URL=" + base, "ELEMENT_CA_FILE=" + ca, "ELEMENT_APP_ID=" + info["app-id"].(string), "ELEMCTL_NO_PROXY=1"} {
		if !strings.Contains(string(env), line+"\n") {
			t.Errorf(".env lacks %q:\n%s", line, env)
		}
	}
	spaces := func(envFile string) (string, time.Duration, error) {
		cmd := exec.Command(bin, "--env-file", envFile, "--lang", "en", "spaces", "list")
		cmd.Env = append(os.Environ(), "ELEMCTL_NO_PLUGINS=1", "ELEMCTL_DATA_DIR="+t.TempDir(), "TMPDIR="+dir)
		began := time.Now()
		out, err := cmd.CombinedOutput()
		return string(out), time.Since(began), err
	}
	out, took, err := spaces(envFile)
	if err != nil || !strings.Contains(out, info["space-id"].(string)) {
		t.Fatalf("spaces list over HTTPS: %v\n%s", err, out)
	}
	// At least a handshake and an answer, each a round trip.
	if took < 2*latency {
		t.Errorf("spaces list took %v at a round trip of %v", took, latency)
	}

	// The same .env without the CA: the stand's certificate is trusted by no one.
	var kept []string
	for _, line := range strings.Split(string(env), "\n") {
		if !strings.HasPrefix(line, "ELEMENT_CA_FILE=") {
			kept = append(kept, line)
		}
	}
	untrusting := filepath.Join(dir, "no-ca.env")
	if err := os.WriteFile(untrusting, []byte(strings.Join(kept, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err = spaces(untrusting)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("spaces list without the CA: %v\n%s", err, out)
	}
	if !strings.Contains(out, "certificate") {
		t.Errorf("the refusal does not say it is the certificate:\n%s", out)
	}
	if strings.Contains(out, info["client-secret"].(string)) {
		t.Errorf("the client secret is in the output:\n%s", out)
	}
	stopStand(t, info)

	// A zero round trip is no round trip.
	plain, _ := startStandProcess(t, bin, "--latency", "0")
	if !strings.HasPrefix(plain["base-url"].(string), "http://") || plain["ca-file"] != nil {
		t.Errorf("a stand without --tls-ca: %v", plain)
	}
	stopStand(t, plain)
}
