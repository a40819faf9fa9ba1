package stand_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/stand"
)

func TestUsersAndTokenAccess(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	me := c.obj("GET", "/me", nil)
	if me["login"] != "admin" || me["id"] == "" || me["user-list-id"] == "" || me["presentation"] == "" {
		t.Fatalf("/me %v", me)
	}
	users := c.list("/applications/" + d.AppID + "/users")
	byLogin := map[string]map[string]any{}
	for _, u := range users {
		byLogin[u["presentation"].(string)] = u
	}
	// Control-panel users are connected and presented by their login.
	admin, demo := byLogin["admin"], byLogin["demo"]
	if admin == nil || demo == nil || admin["user-id"] != me["id"] || admin["user-list-id"] != me["user-list-id"] ||
		admin["is-admin"] != true || admin["token-access-enabled"] != false {
		t.Fatalf("app users %v", users)
	}

	entry := c.obj("PUT", "/applications/"+d.AppID+"/users/change-token-access",
		map[string]any{"user-list-id": me["user-list-id"], "user-id": me["id"], "enable-access": true})
	if entry["token-access-enabled"] != true || entry["user-id"] != me["id"] {
		t.Fatalf("answer %v", entry)
	}
	for _, u := range c.list("/applications/" + d.AppID + "/users") {
		if u["user-id"] == me["id"] && u["token-access-enabled"] != true {
			t.Fatal("the flag did not move")
		}
	}
	// The same method under 2.1.
	c.must(200, "PUT", "/v2.1/applications/"+d.AppID+"/users/change-token-access",
		map[string]any{"user-list-id": me["user-list-id"], "user-id": me["id"], "enable-access": false})

	// A user named with a list they are not in is not connected.
	other := c.createApp("other", c.obj("GET", "/applications/"+d.AppID, nil)["source"].(map[string]any)["project-version-id"].(string))
	otherCard := c.obj("GET", "/applications/"+other, nil)
	st, body := c.do("PUT", "/applications/"+d.AppID+"/users/change-token-access",
		map[string]any{"user-list-id": otherCard["default-user-list"], "user-id": me["id"], "enable-access": true})
	if st != 500 || string(body) != `{"message":"Can't change user token access"}` {
		t.Fatalf("unconnected user: HTTP %d %s", st, body)
	}
	if st, _ := c.do("PUT", "/applications/"+d.AppID+"/users/change-token-access", map[string]any{"user-id": me["id"]}); st != 400 {
		t.Fatalf("incomplete body: HTTP %d", st)
	}
}

func TestUserLists(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	card := c.obj("GET", "/applications/"+d.AppID, nil)
	own := card["default-user-list"].(string)
	var panel, app map[string]any
	for _, l := range c.list("/user-lists") {
		switch l["id"] {
		case own:
			app = l
		default:
			if l["presentation"] == "Список пользователей панели управления" {
				panel = l
			}
		}
	}
	if panel == nil || app == nil || app["presentation"] != `Список пользователей приложения "tasks-demo"` || app["space-id"] != d.SpaceID {
		t.Fatalf("user lists: panel %v, app %v", panel, app)
	}
	full := c.obj("GET", "/user-lists/"+own, nil)
	for _, key := range []string{"self-registration", "password-policy", "password-policy-enabled", "account-services-settings", "confirmations", "include-personal-data-in-messages"} {
		if _, ok := full[key]; !ok {
			t.Fatalf("user list card lacks %s: %v", key, full)
		}
	}
	// A new application's own list is empty and has no account service.
	if users := c.list("/user-lists/" + own + "/users"); len(users) != 0 {
		t.Fatalf("own list users %v", users)
	}
	if svcs := c.list("/user-lists/" + own + "/settings/account-services-settings"); len(svcs) != 0 {
		t.Fatalf("own list services %v", svcs)
	}
	panelUsers := c.list("/user-lists/" + panel["id"].(string) + "/users")
	if len(panelUsers) != 2 || panelUsers[0]["login"] != "admin" || len(panelUsers[0]["access-tokens"].([]any)) != 1 {
		t.Fatalf("panel users %v", panelUsers)
	}

	// Self-registration: GET and a whole-object PUT.
	sr := "/user-lists/" + own + "/settings/self-registration"
	if got := c.obj("GET", sr, nil); got["enabled"] != false || got["phone-required"] != false || got["email-required"] != false {
		t.Fatalf("self-registration %v", got)
	}
	if st, _ := c.do("PUT", sr, map[string]any{"enabled": true}); st != 400 {
		t.Fatalf("partial self-registration: HTTP %d", st)
	}
	c.must(204, "PUT", sr, map[string]any{"enabled": true, "phone-required": false, "email-required": true})
	if got := c.obj("GET", sr, nil); got["enabled"] != true || got["email-required"] != true {
		t.Fatalf("after PUT %v", got)
	}

	// Account services: whole-entry PUT, write-only rules, calculation-rules refused.
	base := "/user-lists/" + panel["id"].(string) + "/settings/account-services-settings"
	svcs := c.list(base)
	// The demo adds an Oidc sign-in beside the Local one.
	if len(svcs) != 2 || svcs[0]["account-service-type"] != "Local" || svcs[1]["account-service-type"] != "Oidc" {
		t.Fatalf("panel services %v", svcs)
	}
	entry := svcs[0]
	sid := entry["account-service-id"].(string)
	entry["enabled"] = false
	entry["userPropertiesCalculationRules"] = map[string]any{"response-kind": "JSON", "presentation-rule": "$.name"}
	c.must(200, "PUT", base+"/"+sid, entry)
	after := c.list(base)[0]
	if after["enabled"] != false {
		t.Fatalf("enabled did not change: %v", after)
	}
	if _, has := after["userPropertiesCalculationRules"]; has {
		t.Fatal("rules must never be returned")
	}
	if strings.Contains(string(mustRaw(c, "GET", "/user-lists/"+panel["id"].(string))), "presentation-rule") {
		t.Fatal("rules leak through the list card")
	}
	delete(entry, "userPropertiesCalculationRules")
	entry["calculation-rules"] = map[string]any{"response-kind": "JSON"}
	if st, _ := c.do("PUT", base+"/"+sid, entry); st != 400 {
		t.Fatalf("calculation-rules: HTTP %d, want 400", st)
	}
	if st, _ := c.do("PUT", base+"/"+sid, map[string]any{"enabled": true}); st != 400 {
		t.Fatalf("partial entry: HTTP %d, want 400", st)
	}
	if st, _ := c.do("DELETE", base+"/no-such", nil); st != 404 {
		t.Errorf("deleting an unknown account service: %d", st)
	}
	if st, _ := c.do("DELETE", "/user-lists/no-such-list/settings/account-services-settings/"+sid, nil); st != 404 {
		t.Errorf("an account service of an unknown list: %d", st)
	}
	if st, _ := c.do("PUT", base+"/no-such", entry); st != 404 {
		t.Fatalf("unknown service: HTTP %d", st)
	}

	// An incomplete new list is the console's 500.
	st, body := c.do("POST", "/user-lists", map[string]any{"presentation": "x"})
	if st != 500 || !strings.Contains(string(body), "Failed to parse json") {
		t.Fatalf("incomplete list: HTTP %d %s", st, body)
	}
	newList := c.obj("POST", "/user-lists", map[string]any{"presentation": "Внешние", "password-policy-enabled": false,
		"self-registration": map[string]any{"enabled": false, "phone-required": false, "email-required": false}})
	c.must(204, "DELETE", "/user-lists/"+newList["id"].(string), nil)

	// The documented app↔list links.
	links := c.must(200, "GET", "/applications/"+d.AppID+"/userlists", nil).([]any)
	if len(links) != 2 {
		t.Fatalf("app user lists %v", links)
	}
}

func mustRaw(c *client, method, path string) []byte {
	c.t.Helper()
	st, body := c.do(method, path, nil)
	if st != 200 {
		c.t.Fatalf("%s %s: HTTP %d", method, path, st)
	}
	return body
}

// GET|POST|DELETE /applications/{id}/userlists: the connected lists as a
// plain set of ids; POST and DELETE take {"user-list-id": ...}.
func TestAppUserListLinks(t *testing.T) {
	_, c := start(t, stand.Options{})
	d := c.createDemo()
	card := c.obj("GET", "/applications/"+d.AppID, nil)
	own := card["default-user-list"].(string)
	path := "/applications/" + d.AppID + "/userlists"
	links := func() []any {
		t.Helper()
		return c.must(200, "GET", path, nil).([]any)
	}
	before := links()
	if len(before) != 2 || !slices.Contains(before, any(own)) {
		t.Fatalf("links %v", before)
	}
	extra := c.obj("POST", "/user-lists", map[string]any{"presentation": "Внешние", "password-policy-enabled": false,
		"self-registration": map[string]any{"enabled": false, "phone-required": false, "email-required": false}})
	extraID := extra["id"].(string)

	expect := func(method string, body any, wantStatus int, wantBody string) {
		t.Helper()
		st, got := c.do(method, path, body)
		if st != wantStatus || string(got) != wantBody {
			t.Fatalf("%s %s %v: HTTP %d %s, want %d %s", method, path, body, st, got, wantStatus, wantBody)
		}
	}
	expect("POST", map[string]any{"user-list-id": extraID}, 204, "")
	expect("POST", map[string]any{"user-list-id": extraID}, 204, "") // a set: no duplicate
	if got := links(); len(got) != 3 || got[2] != extraID {
		t.Fatalf("after connecting: %v", got)
	}
	if ids := c.obj("GET", "/applications/"+d.AppID, nil)["user-lists"].([]any); len(ids) != 3 {
		t.Fatalf("card user-lists %v", ids)
	}

	expect("DELETE", map[string]any{"user-list-id": extraID}, 204, "")
	if got := links(); !slices.Equal(got, before) {
		t.Fatalf("after disconnecting: %v, want %v", got, before)
	}
	expect("DELETE", map[string]any{"user-list-id": extraID}, 404, `{"message":"User list \"`+extraID+`\" not found"}`)
	expect("POST", map[string]any{"id": extraID}, 204, "")
	expect("DELETE", map[string]any{"id": extraID}, 204, "")
	expect("DELETE", nil, 400, `{"error_code":"invalid_request","error_description":"user-list-id must be set"}`)
	expect("POST", map[string]any{}, 400, `{"error_code":"invalid_request","error_description":"user-list-id must be set"}`)
	expect("POST", map[string]any{"user-list-id": "no-such-list"}, 404, `{"message":"User list \"no-such-list\" not found"}`)
	st, body := c.send(func() *http.Request {
		req := c.request("DELETE", "/v2"+path, nil)
		req.Body = io.NopCloser(strings.NewReader("{"))
		req.ContentLength = 1
		req.Header.Set("Content-Type", "application/json")
		return req
	}())
	if want := `{"error_code":"invalid_request","error_description":"Failed to parse json"}`; st != 400 || string(body) != want {
		t.Fatalf("malformed body: HTTP %d %s", st, body)
	}

	// The spec documents no sub-path form.
	st, body = c.do("DELETE", path+"/"+own, nil)
	if want := `{"error":{"code":16,"details":[],"message":"Handler of HTTP request \"[DELETE] /v2` + path + `/` + own +
		`\" in application \"console\" not found.","status":"UNAUTHENTICATED"}}`; st != 401 || string(body) != want {
		t.Fatalf("sub-path: HTTP %d %s", st, body)
	}

	// An unknown application is 404 on every method.
	for _, m := range []string{"GET", "POST", "DELETE"} {
		st, body := c.do(m, "/applications/no-such-app/userlists", map[string]any{"user-list-id": own})
		if want := `{"message":"Application \"no-such-app\" not found"}`; st != 404 || string(body) != want {
			t.Fatalf("%s for an unknown app: HTTP %d %s", m, st, body)
		}
	}
	if got := links(); !slices.Equal(got, before) {
		t.Fatalf("links at the end: %v, want %v", got, before)
	}
}
