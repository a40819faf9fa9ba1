package stand

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// req is one API request being answered; the stand's lock is held.
type req struct {
	w       http.ResponseWriter
	r       *http.Request
	params  []string
	now     time.Time
	v21     bool // the request came under /v2.1
	baseURL string
	// plan is what the fault rules decided for the request.
	plan *faultPlan
}

func (q *req) param(i int) string { return q.params[i] }

// body reads the request body (empty when absent).
func (q *req) body() ([]byte, error) {
	if q.r.Body == nil {
		return nil, nil
	}
	return io.ReadAll(io.LimitReader(q.r.Body, maxBody))
}

// decodeJSON reads a JSON object body into a generic map; an absent body is
// an empty object. A malformed body is answered and reported as false.
func (q *req) decodeJSON() (map[string]any, bool) {
	data, err := q.body()
	if err != nil {
		refuseInvalid("Failed to read request body").write(q.w)
		return nil, false
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return map[string]any{}, true
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		refuseInvalid("Failed to parse json").write(q.w)
		return nil, false
	}
	return m, true
}

type routeDef struct {
	method  string
	pattern []string // "*" matches one segment
	v2, v21 bool
	// gate, when set, can hide the route (an old server without it).
	gate func(s *Stand, v21 bool) bool
	h    func(s *Stand, q *req)
}

var routes []routeDef

// handle registers a route; versions is "2", "2.1" or "2,2.1".
func handle(method, pattern, versions string, h func(s *Stand, q *req)) {
	handleGated(method, pattern, versions, nil, h)
}

// handleGated registers a route a knob can hide.
func handleGated(method, pattern, versions string, gate func(s *Stand, v21 bool) bool, h func(s *Stand, q *req)) {
	routes = append(routes, routeDef{
		method:  method,
		pattern: strings.Split(strings.Trim(pattern, "/"), "/"),
		v2:      strings.Contains(","+versions+",", ",2,"),
		v21:     strings.Contains(versions, "2.1"),
		gate:    gate,
		h:       h,
	})
}

func init() {
	handle("GET", "/me", "2", (*Stand).getMe)

	handle("GET", "/applications", "2", (*Stand).listApps)
	handle("POST", "/applications", "2", (*Stand).createApp)
	handle("GET", "/applications/*", "2", (*Stand).getApp)
	handle("DELETE", "/applications/*", "2", (*Stand).deleteApp)
	handle("PUT", "/applications/*/status/start", "2", (*Stand).startApp)
	handle("PUT", "/applications/*/status/stop", "2", (*Stand).stopApp)
	handle("POST", "/applications/*/actions/debug", "2", (*Stand).debugApp)
	handle("POST", "/applications/*/project/update", "2", (*Stand).applyBuild)
	handle("GET", "/applications/*/project", "2,2.1", (*Stand).getAppProject)
	handle("POST", "/applications/*/project/*/export", "2.1", (*Stand).exportExtension)
	handle("POST", "/applications/*/dumps", "2", (*Stand).createDump)
	handle("GET", "/applications/*/dumps/*", "2", (*Stand).getDump)
	handle("GET", "/applications/*/users", "2", (*Stand).listAppUsers)
	handle("PUT", "/applications/*/users/change-token-access", "2,2.1", (*Stand).changeTokenAccess)
	handle("GET", "/applications/*/userlists", "2", (*Stand).listAppUserLists)
	handle("POST", "/applications/*/userlists", "2", (*Stand).connectAppUserList)
	handle("DELETE", "/applications/*/userlists", "2", (*Stand).disconnectAppUserList)
	handleGated("POST", "/applications/*/project/export", "2,2.1",
		func(s *Stand, v21 bool) bool { return v21 || s.exportOn }, (*Stand).exportApp)

	handle("GET", "/tasks/application-tasks", "2", (*Stand).listTasks)
	handle("POST", "/tasks/group-tasks/update-applications-technology", "2", (*Stand).createGroupTask)
	handle("GET", "/tasks/group-tasks/*", "2", (*Stand).getGroupTask)

	handle("GET", "/spaces", "2", (*Stand).listSpaces)
	handle("POST", "/spaces/*/projects", "2", (*Stand).uploadIntoSpace)
	handle("GET", "/projects", "2", (*Stand).listProjects)
	handle("POST", "/projects", "2", (*Stand).uploadNoSpace)
	handle("GET", "/projects/*", "2", (*Stand).getProject)
	handle("DELETE", "/projects/*", "2", (*Stand).deleteProject)
	handle("GET", "/projects/*/assemblies", "2", (*Stand).listBuilds)
	handle("POST", "/projects/*/assemblies", "2", (*Stand).uploadIntoProject)
	handle("GET", "/projects/*/assemblies/*", "2", (*Stand).getBuild)
	handle("DELETE", "/projects/*/assemblies/*", "2", (*Stand).deleteBuild)

	handle("GET", "/branches", "2", (*Stand).listBranches)
	handle("POST", "/branches", "2", (*Stand).createBranch)
	handle("GET", "/branches/*", "2", (*Stand).getBranch)
	handle("PUT", "/branches/*", "2", (*Stand).updateBranch)
	handle("DELETE", "/branches/*", "2", (*Stand).deleteBranch)

	handle("GET", "/user-lists", "2", (*Stand).listUserLists)
	handle("POST", "/user-lists", "2", (*Stand).createUserList)
	handle("GET", "/user-lists/*", "2", (*Stand).getUserList)
	handle("DELETE", "/user-lists/*", "2", (*Stand).deleteUserList)
	handle("GET", "/user-lists/*/users", "2", (*Stand).listUserListUsers)
	handle("GET", "/user-lists/*/settings/self-registration", "2", (*Stand).getSelfRegistration)
	handle("PUT", "/user-lists/*/settings/self-registration", "2", (*Stand).putSelfRegistration)
	handle("GET", "/user-lists/*/settings/account-services-settings", "2", (*Stand).listAccountServices)
	handle("POST", "/user-lists/*/settings/account-services-settings", "2", (*Stand).addAccountService)
	handle("PUT", "/user-lists/*/settings/account-services-settings/*", "2", (*Stand).putAccountService)
	handle("DELETE", "/user-lists/*/settings/account-services-settings/*", "2", (*Stand).deleteAccountService)
}

func matchRoute(def *routeDef, method string, segs []string) ([]string, bool) {
	if def.method != method || len(def.pattern) != len(segs) {
		return nil, false
	}
	var params []string
	for i, p := range def.pattern {
		if p == "*" {
			if segs[i] == "" {
				return nil, false
			}
			params = append(params, segs[i])
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func (s *Stand) handleAPI(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, apiPrefix)
	shown := strings.TrimPrefix(r.URL.EscapedPath(), apiPrefix)
	var v21 bool
	var sub string
	switch {
	case strings.HasPrefix(rest, "/v2.1/"):
		v21, sub = true, rest[len("/v2.1"):]
	case strings.HasPrefix(rest, "/v2/"):
		sub = rest[len("/v2"):]
	default:
		writeUnknownHandler(w, r.Method, shown)
		return
	}
	segs := strings.Split(strings.Trim(sub, "/"), "/")
	s.mu.Lock()
	api21 := s.api21
	var found *routeDef
	var params []string
	for i := range routes {
		def := &routes[i]
		if (v21 && (!def.v21 || !api21)) || (!v21 && !def.v2) {
			continue
		}
		if p, ok := matchRoute(def, r.Method, segs); ok {
			if def.gate != nil && !def.gate(s, v21) {
				continue
			}
			found, params = def, p
			break
		}
	}
	s.mu.Unlock()
	if found == nil {
		writeUnknownHandler(w, r.Method, shown)
		return
	}
	if !s.tokenAccepted(w, r, time.Now()) {
		return
	}
	base := s.URL()
	if base == "" {
		base = "http://" + r.Host
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The clock is read under the lock so operations start in the order
	// their requests were served.
	q := &req{w: w, r: r, params: params, now: time.Now(), v21: v21, baseURL: base, plan: planOf(r)}
	s.settle(q.now)
	found.h(s, q)
	s.saveIfDirty()
}
