package catalog

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

func appsUsersCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "users"}, Order: 11, Examples: []string{"elemctl apps users crm-test"}, Tool: "list_app_users",
		Help: "cli.help.apps-users", ToolHelp: "mcp.help.list-app-users", ReadOnly: true, Idempotent: true,
		Args:     []command.Argument{AppArg(false)},
		ToolArgs: []command.Argument{ToolAppArg()},
	}, runAppsUsers)
}

func appsTokenAccessCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"apps", "token-access"}, Order: 12, Examples: []string{"elemctl apps token-access crm-test --user admin --enable"}, Tool: "token_access",
		Help: "cli.help.apps-token-access", ToolHelp: "mcp.help.token-access", Idempotent: true,
		Args: []command.Argument{
			AppArg(false),
			{Name: "user", Help: "cli.arg.token-access-user", Type: command.String, Multiple: true, Metavar: "USER"},
			{Name: "enable", Help: "cli.arg.token-access-enable", Type: command.Bool},
			{Name: "disable", Help: "cli.arg.token-access-disable", Type: command.Bool},
		},
		ToolArgs: []command.Argument{
			ToolAppArg(),
			{Name: "user", Help: "mcp.arg.token-access-user", Type: command.String, Default: "", OrList: true},
			{Name: "enabled", Help: "mcp.arg.token-access-enabled", Type: command.Bool, Nullable: true},
		},
	}, runTokenAccess)
}

// ListAppUsers reads the users connected to an application.
func ListAppUsers(ctx context.Context, cl *platform.Client, appID string) ([]*jsonx.Object, error) {
	return cl.List(ctx, platform.Request{Path: "/applications/" + url.PathEscape(appID) + "/users"}, "users")
}

// AppUsersSummary is the counter line of a user listing.
func AppUsersSummary(ctx context.Context, users []*jsonx.Object) string {
	admins, tokens := 0, 0
	for _, u := range users {
		if u.Bool("is-admin") {
			admins++
		}
		if u.Bool("token-access-enabled") {
			tokens++
		}
	}
	return i18n.T(ctx, "client.app-users-summary", "total", len(users), "admins", admins, "tokens", tokens)
}

func runAppsUsers(ctx context.Context, cc *command.Context, in appInput) (any, error) {
	cl, id, err := TargetApp(ctx, cc, in.AppID, true)
	if err != nil {
		return nil, err
	}
	users, err := ListAppUsers(ctx, cl, id)
	if err != nil {
		return nil, err
	}
	list := objectsToAny(users)
	summary := AppUsersSummary(ctx, users)
	return listing{items: list, key: "users", notes: []string{summary},
		counters: jsonx.New("app-id", id, "total", len(users), "summary", summary)}, nil
}

// objectsToAny turns cards into a JSON array value.
func objectsToAny(cards []*jsonx.Object) []any {
	out := make([]any, len(cards))
	for i, c := range cards {
		out[i] = c
	}
	return out
}

// tokenAccessInput are the arguments runTokenAccess reads.
type tokenAccessInput struct {
	Enable  bool     `arg:"enable"`
	Disable bool     `arg:"disable"`
	Enabled *bool    `arg:"enabled"`
	AppID   string   `arg:"app-id"`
	User    []string `arg:"user"`
}

// runTokenAccess reads or switches the token access of one or several
// users of an application. The application is never taken from
// ELEMENT_APP_ID: the switch changes who may call its HTTP services.
func runTokenAccess(ctx context.Context, cc *command.Context, in tokenAccessInput) (any, error) {
	enable, disable := in.Enable, in.Disable
	if enable && disable {
		return nil, platform.ConfigErrorf(ctx, "cli.token-access-both")
	}
	want := in.Enabled
	switch {
	case enable:
		want = boolPtr(true)
	case disable:
		want = boolPtr(false)
	}
	ref := in.AppID
	if ref == "" {
		return nil, platform.ConfigErrorf(ctx, "cli.token-access-app-missing")
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, err
	}
	appID, err := cl.ResolveApp(ctx, ref)
	if err != nil {
		return nil, err
	}
	given := dedupe(in.User)
	if len(given) == 0 {
		given = []string{""}
	}
	ta := &tokenAccess{cl: cl, appID: appID, log: cc.Log}
	if ta.users, err = ListAppUsers(ctx, cl, appID); err != nil {
		return nil, err
	}
	if len(given) == 1 {
		return ta.one(ctx, given[0], want)
	}
	ok := true
	reports := make([]any, 0, len(given))
	for _, user := range given {
		rep, err := ta.one(ctx, user, want)
		if err != nil {
			ok = false
			failed := jsonx.New("ok", false, "user", user)
			shape := command.ErrorObject(err)
			for _, k := range shape.Keys() {
				failed.Set(k, shape.Value(k))
			}
			reports = append(reports, failed)
			continue
		}
		entry := jsonx.New("ok", true)
		for _, k := range rep.Keys() {
			entry.Set(k, rep.Value(k))
		}
		reports = append(reports, entry)
	}
	return jsonx.New("ok", ok, "app-id", appID, "users", reports), nil
}

func boolPtr(b bool) *bool { return &b }

// dedupe keeps the first occurrence of each value; "" is a value too.
func dedupe(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// tokenAccess works on the users of one application; users is the latest
// read of them.
type tokenAccess struct {
	cl    *platform.Client
	appID string
	users []*jsonx.Object
	log   func(string)
}

// one reads or switches the flag of one user and reports it. A switch to
// the state the user is already in sends nothing; a sent switch is
// confirmed by reading the users again.
func (t *tokenAccess) one(ctx context.Context, given string, want *bool) (*jsonx.Object, error) {
	u, err := t.find(ctx, given)
	if err != nil {
		return nil, err
	}
	listID, userID := u.Str("user-list-id"), u.Str("user-id")
	current := u.Bool("token-access-enabled")
	report := func(user *jsonx.Object, changed bool) *jsonx.Object {
		return jsonx.New("app-id", t.appID, "user", user.Str("presentation"), "user-id", userID,
			"user-list-id", listID, "token-access-enabled", user.Bool("token-access-enabled"), "changed", changed)
	}
	if want == nil || *want == current {
		return report(u, false), nil
	}
	body := jsonx.New("user-list-id", listID, "user-id", userID, "enable-access", *want)
	if _, err := (readback.Change{
		Settle: readback.SettleOf(t.cl),
		What:   i18n.T(ctx, "readback.what-token-access", "user", u.Str("presentation"), "app", t.appID),
		Send: func(ctx context.Context) (any, error) {
			return t.cl.Call(ctx, platform.Request{Method: http.MethodPut,
				Path: "/applications/" + url.PathEscape(t.appID) + "/users/change-token-access", JSON: body})
		},
		Check: func(ctx context.Context) (bool, error) {
			users, err := ListAppUsers(ctx, t.cl, t.appID)
			if err != nil {
				return false, err
			}
			after := pickUser(users, listID, userID)
			return after != nil && after.Bool("token-access-enabled") == *want, nil
		},
		Log: t.log,
	}).Do(ctx); err != nil {
		return nil, err
	}
	if t.users, err = ListAppUsers(ctx, t.cl, t.appID); err != nil {
		return nil, err
	}
	after := pickUser(t.users, listID, userID)
	name := u.Str("presentation")
	if after == nil {
		return nil, platform.NewError(ctx, platform.KindGeneral, "client.token-access-user-gone", "user", name, "app", t.appID)
	}
	if after.Bool("token-access-enabled") != *want {
		return nil, platform.NewError(ctx, platform.KindGeneral, "client.token-access-not-moved", "user", name, "app", t.appID,
			"state", after.Bool("token-access-enabled"))
	}
	return report(after, true), nil
}

func pickUser(users []*jsonx.Object, listID, userID string) *jsonx.Object {
	for _, u := range users {
		if u.Str("user-id") == userID && (listID == "" || u.Str("user-list-id") == listID) {
			return u
		}
	}
	return nil
}

// find picks the connected user a value names: "" is the account of the
// credentials (GET /me); otherwise a presentation, a user id, or a login
// looked up in the user lists of the connected users.
func (t *tokenAccess) find(ctx context.Context, given string) (*jsonx.Object, error) {
	if given == "" {
		me, err := t.cl.GetObject(ctx, "/me")
		if err != nil {
			return nil, err
		}
		if u := pickUser(t.users, me.Str("user-list-id"), me.Str("id")); u != nil {
			return u, nil
		}
		name := me.Str("login")
		if name == "" {
			name = me.Str("presentation")
		}
		return nil, t.notConnected(ctx, name)
	}
	if u, err := t.single(ctx, given, func(u *jsonx.Object) bool { return strings.EqualFold(u.Str("presentation"), given) }); u != nil || err != nil {
		return u, err
	}
	if u, err := t.single(ctx, given, func(u *jsonx.Object) bool { return strings.EqualFold(u.Str("user-id"), given) }); u != nil || err != nil {
		return u, err
	}
	byLogin := map[string]bool{} // "<list>/<user>" of users whose login is given
	seenList := map[string]bool{}
	for _, u := range t.users {
		list := u.Str("user-list-id")
		if list == "" || seenList[list] {
			continue
		}
		seenList[list] = true
		members, err := t.cl.List(ctx, platform.Request{Path: "/user-lists/" + url.PathEscape(list) + "/users"}, "users")
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			if strings.EqualFold(m.Str("login"), given) {
				byLogin[list+"/"+m.Str("id")] = true
			}
		}
	}
	if u, err := t.single(ctx, given, func(u *jsonx.Object) bool { return byLogin[u.Str("user-list-id")+"/"+u.Str("user-id")] }); u != nil || err != nil {
		return u, err
	}
	return nil, t.notConnected(ctx, given)
}

// single is the one connected user match accepts; several are an error.
func (t *tokenAccess) single(ctx context.Context, given string, match func(*jsonx.Object) bool) (*jsonx.Object, error) {
	var found []*jsonx.Object
	for _, u := range t.users {
		if match(u) {
			found = append(found, u)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, u := range found {
		ids[i] = u.Str("user-list-id") + "/" + u.Str("user-id")
	}
	return nil, platform.ConfigErrorf(ctx, "client.app-user-ambiguous", "user", given, "ids", strings.Join(ids, ", "))
}

// maxNamedUsers is how many connected users a "not connected" error names.
const maxNamedUsers = 10

func (t *tokenAccess) notConnected(ctx context.Context, user string) error {
	var names []string
	for i, u := range t.users {
		if i == maxNamedUsers {
			names = append(names, "…")
			break
		}
		names = append(names, u.Str("presentation"))
	}
	list := strings.Join(names, ", ")
	if list == "" {
		list = i18n.T(ctx, "client.tree-none")
	}
	return platform.ConfigErrorf(ctx, "client.app-user-not-connected", "user", user, "app", t.appID, "users", list)
}
