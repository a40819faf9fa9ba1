package stand

import (
	"context"
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
	// upload is the body of an upload route, read before the lock.
	upload *spool
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

// route is one method and path of the Console API as the stand serves it.
type route struct {
	v21 bool // served under /v2.1
	// upload routes take an archive: the body is spooled before the
	// stand's lock is taken, so a slow upload holds up no one.
	upload bool
	// gate, when set, can hide the route (an old server without it).
	gate func(s *Stand, v21 bool) bool
	// params are the names of the path's wildcards, in order.
	params []string
	h      func(s *Stand, q *req)
}

// apiRoutes registers the Console API on a method-and-pattern mux, each
// method and path explicitly; whatever else comes (another method, another
// path, HEAD) gets the platform's 401 "Handler of HTTP request ... not found".
func (s *Stand) apiRoutes() *http.ServeMux {
	mux := http.NewServeMux()
	// handle registers a route under the versions "2", "2.1" or "2,2.1";
	// gate, when set, can hide it.
	handle := func(method, pattern, versions string, gate func(s *Stand, v21 bool) bool, upload bool, h func(s *Stand, q *req)) {
		var params []string
		for _, seg := range strings.Split(strings.Trim(pattern, "/"), "/") {
			if name, ok := strings.CutPrefix(seg, "{"); ok {
				params = append(params, strings.TrimSuffix(name, "}"))
			}
		}
		for _, v := range strings.Split(versions, ",") {
			path := apiPrefix + "/v" + v + pattern
			mux.Handle(method+" "+path, s.apiHandler(&route{v21: v == "2.1", gate: gate, upload: upload, params: params, h: h}))
			if method == http.MethodGet {
				// A GET pattern takes HEAD too; the platform does not.
				mux.HandleFunc("HEAD "+path, writeUnknownFor)
			}
		}
	}
	get := func(pattern, versions string, h func(s *Stand, q *req)) {
		handle(http.MethodGet, pattern, versions, nil, false, h)
	}
	post := func(pattern, versions string, h func(s *Stand, q *req)) {
		handle(http.MethodPost, pattern, versions, nil, false, h)
	}
	put := func(pattern, versions string, h func(s *Stand, q *req)) {
		handle(http.MethodPut, pattern, versions, nil, false, h)
	}
	del := func(pattern, versions string, h func(s *Stand, q *req)) {
		handle(http.MethodDelete, pattern, versions, nil, false, h)
	}
	upload := func(pattern string, h func(s *Stand, q *req)) {
		handle(http.MethodPost, pattern, "2", nil, true, h)
	}

	get("/me", "2", (*Stand).getMe)

	get("/applications", "2", (*Stand).listApps)
	post("/applications", "2", (*Stand).createApp)
	get("/applications/{app}", "2", (*Stand).getApp)
	del("/applications/{app}", "2", (*Stand).deleteApp)
	put("/applications/{app}/status/start", "2", (*Stand).startApp)
	put("/applications/{app}/status/stop", "2", (*Stand).stopApp)
	post("/applications/{app}/actions/debug", "2", (*Stand).debugApp)
	post("/applications/{app}/project/update", "2", (*Stand).applyBuild)
	get("/applications/{app}/project", "2,2.1", (*Stand).getAppProject)
	post("/applications/{app}/project/{extension}/export", "2.1", (*Stand).exportExtension)
	post("/applications/{app}/dumps", "2", (*Stand).createDump)
	get("/applications/{app}/dumps/{dump}", "2", (*Stand).getDump)
	get("/applications/{app}/users", "2", (*Stand).listAppUsers)
	put("/applications/{app}/users/change-token-access", "2,2.1", (*Stand).changeTokenAccess)
	get("/applications/{app}/userlists", "2", (*Stand).listAppUserLists)
	post("/applications/{app}/userlists", "2", (*Stand).connectAppUserList)
	del("/applications/{app}/userlists", "2", (*Stand).disconnectAppUserList)
	handle(http.MethodPost, "/applications/{app}/project/export", "2,2.1",
		func(s *Stand, v21 bool) bool { return v21 || s.exportOn }, false, (*Stand).exportApp)

	get("/tasks/application-tasks", "2", (*Stand).listTasks)
	post("/tasks/group-tasks/update-applications-technology", "2", (*Stand).createGroupTask)
	get("/tasks/group-tasks/{task}", "2", (*Stand).getGroupTask)

	get("/spaces", "2", (*Stand).listSpaces)
	upload("/spaces/{space}/projects", (*Stand).uploadIntoSpace)
	get("/projects", "2", (*Stand).listProjects)
	upload("/projects", (*Stand).uploadNoSpace)
	get("/projects/{project}", "2", (*Stand).getProject)
	del("/projects/{project}", "2", (*Stand).deleteProject)
	get("/projects/{project}/assemblies", "2", (*Stand).listBuilds)
	upload("/projects/{project}/assemblies", (*Stand).uploadIntoProject)
	get("/projects/{project}/assemblies/{version}", "2", (*Stand).getBuild)
	del("/projects/{project}/assemblies/{version}", "2", (*Stand).deleteBuild)

	get("/branches", "2", (*Stand).listBranches)
	post("/branches", "2", (*Stand).createBranch)
	get("/branches/{branch}", "2", (*Stand).getBranch)
	put("/branches/{branch}", "2", (*Stand).updateBranch)
	del("/branches/{branch}", "2", (*Stand).deleteBranch)

	get("/user-lists", "2", (*Stand).listUserLists)
	post("/user-lists", "2", (*Stand).createUserList)
	get("/user-lists/{list}", "2", (*Stand).getUserList)
	del("/user-lists/{list}", "2", (*Stand).deleteUserList)
	get("/user-lists/{list}/users", "2", (*Stand).listUserListUsers)
	get("/user-lists/{list}/settings/self-registration", "2", (*Stand).getSelfRegistration)
	put("/user-lists/{list}/settings/self-registration", "2", (*Stand).putSelfRegistration)
	get("/user-lists/{list}/settings/account-services-settings", "2", (*Stand).listAccountServices)
	post("/user-lists/{list}/settings/account-services-settings", "2", (*Stand).addAccountService)
	put("/user-lists/{list}/settings/account-services-settings/{service}", "2", (*Stand).putAccountService)
	del("/user-lists/{list}/settings/account-services-settings/{service}", "2", (*Stand).deleteAccountService)

	// The catch-all matches every method, so the mux never answers 405.
	mux.HandleFunc("/", writeUnknownFor)
	return mux
}

// shownPathKey carries the path as requested, from /v2 on, to the answer
// of an unknown handler.
type shownPathKey struct{}

// writeUnknownFor answers a path or method the console has no handler for.
func writeUnknownFor(w http.ResponseWriter, r *http.Request) {
	shown, _ := r.Context().Value(shownPathKey{}).(string)
	writeUnknownHandler(w, r.Method, shown)
}

// handleAPI serves /console/api/...: the path, with its slashes at either
// end of the version's part trimmed, goes to the mux of the routes. A path
// with an empty, "." or ".." segment is no route (the mux would redirect it).
func (s *Stand) handleAPI(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, apiPrefix)
	shown := strings.TrimPrefix(r.URL.EscapedPath(), apiPrefix)
	var version, sub string
	switch {
	case strings.HasPrefix(rest, "/v2.1/"):
		version, sub = "/v2.1/", rest[len("/v2.1"):]
	case strings.HasPrefix(rest, "/v2/"):
		version, sub = "/v2/", rest[len("/v2"):]
	default:
		writeUnknownHandler(w, r.Method, shown)
		return
	}
	sub = strings.Trim(sub, "/")
	for _, seg := range strings.Split(sub, "/") {
		if seg == "" || seg == "." || seg == ".." {
			writeUnknownHandler(w, r.Method, shown)
			return
		}
	}
	// The mux matches the decoded path: an escaped slash in a segment
	// splits it, as the console's router does.
	u := *r.URL
	u.Path, u.RawPath = apiPrefix+version+sub, ""
	routed := r.WithContext(context.WithValue(r.Context(), shownPathKey{}, shown))
	routed.URL = &u
	s.api.ServeHTTP(w, routed)
}

// apiHandler serves one route: its gates, the bearer token, then the
// handler under the stand's lock.
func (s *Stand) apiHandler(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		params := make([]string, len(rt.params))
		for i, name := range rt.params {
			params[i] = r.PathValue(name)
		}
		s.mu.Lock()
		hidden := (rt.v21 && !s.api21) || (rt.gate != nil && !rt.gate(s, rt.v21))
		s.mu.Unlock()
		if hidden {
			writeUnknownFor(w, r)
			return
		}
		if !s.tokenAccepted(w, r, time.Now()) {
			return
		}
		var body *spool
		if rt.upload {
			var err error
			if body, err = s.spoolUpload(r); err != nil {
				s.note("reading an upload: %v", err)
			}
			defer body.Close()
		}
		base := s.URL()
		if base == "" {
			base = "http://" + r.Host
			if r.TLS != nil {
				base = "https://" + r.Host
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		// The clock is read under the lock so operations start in the order
		// their requests were served.
		q := &req{w: w, r: r, params: params, now: time.Now(), v21: rt.v21, baseURL: base, plan: planOf(r), upload: body}
		markServed(r, q.now)
		s.settle(q.now)
		rt.h(s, q)
		s.saveIfDirty()
	})
}
