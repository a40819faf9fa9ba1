package catalog

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/ops/readback"
	"github.com/elemctl/elemctl/internal/platform"
)

// userListTargetArgs name the list a command works on: LIST, or the
// default user list of --app.
func userListTargetArgs() []command.Argument {
	return []command.Argument{
		{Name: "list", Help: "cli.arg.user-list", Type: command.String, Positional: true, Metavar: "LIST"},
		{Name: "app", Help: "cli.arg.user-list-app", Type: command.String, Metavar: "APP"},
	}
}

// userListTargetInput are the arguments that name a user list.
type userListTargetInput struct {
	List string `arg:"list"`
	App  string `arg:"app"`
}

// userListSwitchInput are the arguments of a command that reads or
// switches one setting of a list.
type userListSwitchInput struct {
	userListTargetInput
	Enable  bool `arg:"enable"`
	Disable bool `arg:"disable"`
}

// userListSwitch gives c, a command that reads or switches one setting of
// a list, its handler: --enable/--disable read, the list found, then
// apply.
func userListSwitch(c *command.Command, apply func(ctx context.Context, cc *command.Context, cl *platform.Client, id string, want *bool) (any, error)) *command.Command {
	return command.Handle(c, func(ctx context.Context, cc *command.Context, in userListSwitchInput) (any, error) {
		want, err := switchFlags(ctx, in.Enable, in.Disable)
		if err != nil {
			return nil, err
		}
		cl, id, err := userListTarget(ctx, cc, in.userListTargetInput)
		if err != nil {
			return nil, err
		}
		return apply(ctx, cc, cl, id, want)
	})
}

// userListSwitchArgs are --enable and --disable.
func userListSwitchArgs() []command.Argument {
	return []command.Argument{
		{Name: "enable", Help: "cli.arg.user-list-enable", Type: command.Bool},
		{Name: "disable", Help: "cli.arg.user-list-disable", Type: command.Bool},
	}
}

// userListsListInput are the arguments userListsListCommand reads.
type userListsListInput struct {
	Name string `arg:"name"`
}

func userListsListCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"user-lists", "list"}, Order: 1, Examples: []string{"elemctl user-lists list"}, Tool: "list_user_lists",
		Help: "cli.help.user-lists-list", ToolHelp: "mcp.help.list-user-lists", ReadOnly: true, Idempotent: true,
		Args:     []command.Argument{{Name: "name", Help: "cli.arg.user-lists-name", Type: command.String}},
		ToolArgs: []command.Argument{{Name: "name", Help: "mcp.arg.user-lists-name", Type: command.String, Default: ""}},
	}, func(ctx context.Context, cc *command.Context, in userListsListInput) (any, error) {
		cl, err := cc.Client(ctx)
		if err != nil {
			return nil, err
		}
		lists, err := ListUserLists(ctx, cl)
		if err != nil {
			return nil, err
		}
		name := strings.ToLower(in.Name)
		out := []any{}
		for _, l := range lists {
			if name == "" || strings.Contains(strings.ToLower(l.Str("presentation")), name) {
				out = append(out, l)
			}
		}
		return out, nil
	})
}

func userListsGetCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"user-lists", "get"}, Order: 2, Examples: []string{"elemctl user-lists get --app crm-test"},
		Help: "cli.help.user-lists-get", ReadOnly: true, Idempotent: true,
		Args: userListTargetArgs(),
	}, func(ctx context.Context, cc *command.Context, in userListTargetInput) (any, error) {
		cl, id, err := userListTarget(ctx, cc, in)
		if err != nil {
			return nil, err
		}
		return cl.Get(ctx, userListPath(id), nil)
	})
}

func userListsSelfRegistrationCommand() *command.Command {
	return userListSwitch(&command.Command{
		Path: []string{"user-lists", "self-registration"}, Order: 3, Examples: []string{"elemctl user-lists self-registration --app crm-test --enable"},
		Help: "cli.help.user-lists-self-registration",
		Args: append(userListTargetArgs(), userListSwitchArgs()...),
	}, func(ctx context.Context, cc *command.Context, cl *platform.Client, id string, want *bool) (any, error) {
		settings, _, err := SelfRegistration(ctx, cl, id, want, cc.Log)
		if err != nil {
			return nil, err
		}
		return jsonx.New("list-id", id, "self-registration", settings), nil
	})
}

func userListsPasswordLoginCommand() *command.Command {
	return userListSwitch(&command.Command{
		Path: []string{"user-lists", "password-login"}, Order: 4, Examples: []string{"elemctl user-lists password-login --app crm-test --disable"},
		Help: "cli.help.user-lists-password-login",
		Args: append(userListTargetArgs(), userListSwitchArgs()...),
	}, func(ctx context.Context, cc *command.Context, cl *platform.Client, id string, want *bool) (any, error) {
		enabled, changed, err := PasswordLogin(ctx, cl, id, want, cc.Log)
		if err != nil {
			return nil, err
		}
		warnNoLocal(ctx, cc, id, want, enabled)
		return jsonx.New("list-id", id, "enabled", optBool(enabled), "changed", changed), nil
	})
}

func userListsCalculationRulesCommand() *command.Command {
	return command.Handle(&command.Command{
		Path: []string{"user-lists", "calculation-rules"}, Order: 5, Examples: []string{"elemctl user-lists calculation-rules --app crm-test --rules-file rules.json"},
		Help: "cli.help.user-lists-calculation-rules",
		Args: append(userListTargetArgs(),
			command.Argument{Name: "rules-file", Help: "cli.arg.rules-file", Type: command.String, Metavar: "F"},
			command.Argument{Name: "response-kind", Help: "cli.arg.rule-response-kind", Type: command.String},
			command.Argument{Name: "presentation-rule", Help: "cli.arg.rule-presentation", Type: command.String},
			command.Argument{Name: "phone-rule", Help: "cli.arg.rule-phone", Type: command.String},
			command.Argument{Name: "email-rule", Help: "cli.arg.rule-email", Type: command.String},
			command.Argument{Name: "service", Help: "cli.arg.rule-service", Type: command.String, Metavar: "ID"},
			command.Argument{Name: "service-type", Help: "cli.arg.rule-service-type", Type: command.String, Default: "Oidc", Metavar: "TYPE"},
		),
	}, runCalculationRules)
}

func configureUserListTool() *command.Command {
	return command.Handle(&command.Command{
		Tool: "configure_user_list", ToolHelp: "mcp.help.configure-user-list",
		ToolArgs: []command.Argument{
			{Name: "list_id", Key: "list", Help: "mcp.arg.user-list-id", Type: command.String, Default: ""},
			{Name: "app_id", Key: "app", Help: "mcp.arg.user-list-app", Type: command.String, Default: ""},
			{Name: "self_registration", Help: "mcp.arg.self-registration", Type: command.Bool, Nullable: true},
			{Name: "password_login", Help: "mcp.arg.password-login", Type: command.Bool, Nullable: true},
		},
	}, runConfigureUserList)
}

func userListPath(id string) string { return "/user-lists/" + url.PathEscape(id) }

// ListUserLists reads every user list.
func ListUserLists(ctx context.Context, cl *platform.Client) ([]*jsonx.Object, error) {
	return cl.List(ctx, platform.Request{Path: "/user-lists"}, "user-lists")
}

// switchFlags reads --enable/--disable: nil when neither was given.
func switchFlags(ctx context.Context, enable, disable bool) (*bool, error) {
	switch {
	case enable && disable:
		return nil, platform.ConfigErrorf(ctx, "cli.enable-disable-both")
	case enable:
		return boolPtr(true), nil
	case disable:
		return boolPtr(false), nil
	}
	return nil, nil
}

func optBool(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

// userListTarget resolves the list a command works on: LIST (an id, or an
// exact presentation) or the default user list of --app; exactly one of
// the two must be given.
func userListTarget(ctx context.Context, cc *command.Context, in userListTargetInput) (*platform.Client, string, error) {
	list, app := in.List, in.App
	switch {
	case list != "" && app != "":
		return nil, "", platform.ConfigErrorf(ctx, "cli.user-list-both", "list", cc.ArgName("list"), "app", cc.ArgName("app"))
	case list == "" && app == "":
		return nil, "", platform.ConfigErrorf(ctx, "cli.user-list-none", "list", cc.ArgName("list"), "app", cc.ArgUsage("app"))
	}
	cl, err := cc.Client(ctx)
	if err != nil {
		return nil, "", err
	}
	id, err := ResolveUserList(ctx, cl, list, app)
	return cl, id, err
}

// ResolveUserList is the id of a user list given by reference (an id, or
// an exact presentation, any case) or as the default user list of an
// application (an id or an exact name).
func ResolveUserList(ctx context.Context, cl *platform.Client, list, app string) (string, error) {
	if app != "" {
		appID, err := cl.ResolveApp(ctx, app)
		if err != nil {
			return "", err
		}
		card, err := cl.GetApp(ctx, appID)
		if err != nil {
			return "", err
		}
		id := card.Str("default-user-list")
		if id == "" {
			return "", platform.ConfigErrorf(ctx, "cli.user-list-app-none", "app", app)
		}
		return id, nil
	}
	if platform.IsUUID(list) {
		return list, nil
	}
	lists, err := ListUserLists(ctx, cl)
	if err != nil {
		return "", err
	}
	var ids []string
	for _, l := range lists {
		if strings.EqualFold(l.Str("presentation"), list) || l.Str("id") == list {
			ids = append(ids, l.Str("id"))
		}
	}
	switch len(ids) {
	case 0:
		return "", platform.ConfigErrorf(ctx, "cli.user-list-not-found", "ref", list)
	case 1:
		return ids[0], nil
	}
	return "", platform.ConfigErrorf(ctx, "cli.user-list-ambiguous", "ref", list, "ids", strings.Join(ids, ", "))
}

// SelfRegistration reads the self-registration settings of a list and,
// when want is set and differs, switches "enabled": the platform takes
// only the whole object, so the read object goes back with that one field
// changed, and the settings are read again to show what now holds.
func SelfRegistration(ctx context.Context, cl *platform.Client, listID string, want *bool, log func(string)) (*jsonx.Object, bool, error) {
	path := userListPath(listID) + "/settings/self-registration"
	settings, err := cl.GetObject(ctx, path)
	if err != nil {
		return nil, false, err
	}
	if want == nil || (settings.Has("enabled") && settings.Bool("enabled") == *want) {
		return settings, false, nil
	}
	body := settings.Clone()
	body.Set("enabled", *want)
	if _, err := (readback.Change{
		Settle: readback.SettleOf(cl),
		What:   i18n.T(ctx, "readback.what-self-registration", "list", listID),
		Send:   func(ctx context.Context) (any, error) { return cl.Put(ctx, path, body) },
		Check: func(ctx context.Context) (bool, error) {
			now, err := cl.GetObject(ctx, path)
			return err == nil && now.Has("enabled") && now.Bool("enabled") == *want, err
		},
		Log: log,
	}).Do(ctx); err != nil {
		return nil, false, err
	}
	after, err := cl.GetObject(ctx, path)
	if err != nil {
		return nil, true, err
	}
	return after, true, nil
}

// ListAccountServices reads the account services of a user list.
func ListAccountServices(ctx context.Context, cl *platform.Client, listID string) ([]*jsonx.Object, error) {
	return cl.List(ctx, platform.Request{Path: userListPath(listID) + "/settings/account-services-settings"}, "account-services-settings")
}

func accountServicePath(listID, serviceID string) string {
	return userListPath(listID) + "/settings/account-services-settings/" + url.PathEscape(serviceID)
}

// PasswordLogin reads and, when want is set and differs, switches
// sign-in with login and password: the "enabled" flag of the list's Local
// account service. enabled is nil when the list has no Local service.
func PasswordLogin(ctx context.Context, cl *platform.Client, listID string, want *bool, log func(string)) (enabled *bool, changed bool, err error) {
	services, err := ListAccountServices(ctx, cl, listID)
	if err != nil {
		return nil, false, err
	}
	var local *jsonx.Object
	for _, s := range services {
		if strings.EqualFold(s.Str("account-service-type"), "Local") {
			local = s
			break
		}
	}
	if local == nil {
		// Nothing to read or switch: null, unchanged (the caller warns).
		return nil, false, nil
	}
	current := local.Bool("enabled")
	if want == nil || *want == current {
		return &current, false, nil
	}
	body := local.Clone()
	body.Set("enabled", *want)
	serviceID := local.Str("account-service-id")
	if _, err := (readback.Change{
		Settle: readback.SettleOf(cl),
		What:   i18n.T(ctx, "readback.what-password-login", "list", listID),
		Send: func(ctx context.Context) (any, error) {
			return cl.Put(ctx, accountServicePath(listID, serviceID), body)
		},
		Check: func(ctx context.Context) (bool, error) {
			services, err := ListAccountServices(ctx, cl, listID)
			if err != nil {
				return false, err
			}
			for _, s := range services {
				if s.Str("account-service-id") == serviceID {
					return s.Bool("enabled") == *want, nil
				}
			}
			return false, nil
		},
		Log: log,
	}).Do(ctx); err != nil {
		return nil, false, err
	}
	return want, true, nil
}

// warnNoLocal says that a switch of password sign-in was asked of a list
// without a Local account service, which has nothing to switch.
func warnNoLocal(ctx context.Context, cc *command.Context, listID string, want, enabled *bool) {
	if want != nil && enabled == nil {
		cc.Log(i18n.T(ctx, "cli.password-login-no-local", "list", listID))
	}
}

// calculationRuleKeys are the keys the platform accepts in
// userPropertiesCalculationRules.
var calculationRuleKeys = []string{"response-kind", "presentation-rule", "phone-rule", "email-rule"}

// calculationRulesKey is the account-service field the rules are written
// to (camelCase: the one exception to the API's kebab-case; the schema
// name calculation-rules is refused with 400).
const calculationRulesKey = "userPropertiesCalculationRules"

// calculationRulesInput are the arguments runCalculationRules reads.
type calculationRulesInput struct {
	userListTargetInput
	RulesFile string `arg:"rules-file"`
	// The per-key rules: nil when not given.
	ResponseKind     *string `arg:"response-kind"`
	PresentationRule *string `arg:"presentation-rule"`
	PhoneRule        *string `arg:"phone-rule"`
	EmailRule        *string `arg:"email-rule"`
	Service          string  `arg:"service"`
	ServiceType      string  `arg:"service-type"`
}

func runCalculationRules(ctx context.Context, cc *command.Context, in calculationRulesInput) (any, error) {
	rules, err := calculationRules(ctx, cc, in)
	if err != nil {
		return nil, err
	}
	cl, listID, err := userListTarget(ctx, cc, in.userListTargetInput)
	if err != nil {
		return nil, err
	}
	services, err := ListAccountServices(ctx, cl, listID)
	if err != nil {
		return nil, err
	}
	serviceID, serviceType := in.Service, in.ServiceType
	if serviceType == "" {
		serviceType = "Oidc"
	}
	var svc *jsonx.Object
	for _, s := range services {
		if serviceID != "" && s.Str("account-service-id") == serviceID ||
			serviceID == "" && strings.EqualFold(s.Str("account-service-type"), serviceType) {
			svc = s
			break
		}
	}
	if svc == nil {
		ref := serviceID
		if ref == "" {
			ref = serviceType
		}
		if rules == nil {
			// Nothing to write: the answer is that there is no such
			// service to read rules of.
			return jsonx.New("list-id", listID, "service-id", nil, "service-type", nil, "rules", nil,
				"note", i18n.T(ctx, "cli.rules-note-no-service", "service", ref, "list", listID)), nil
		}
		return nil, platform.ConfigErrorf(ctx, "cli.rules-no-service", "service", ref, "list", listID)
	}
	id, typ := svc.Str("account-service-id"), svc.Value("account-service-type")
	if rules == nil {
		return jsonx.New("list-id", listID, "service-id", id, "service-type", typ, "rules", nil,
			"note", i18n.T(ctx, "cli.rules-note-write-only")), nil
	}
	body := svc.Clone()
	body.Set(calculationRulesKey, rules)
	// The platform does not show the rules back: a lost answer leaves the
	// write unknown (Check nil), and writing them again is harmless.
	if _, err := (readback.Change{
		Settle: readback.SettleOf(cl),
		What:   i18n.T(ctx, "readback.what-rules", "list", listID),
		Send:   func(ctx context.Context) (any, error) { return cl.Put(ctx, accountServicePath(listID, id), body) },
		Log:    cc.Log,
	}).Do(ctx); err != nil {
		return nil, err
	}
	after, err := ListAccountServices(ctx, cl, listID)
	if err != nil {
		return nil, err
	}
	var returned *jsonx.Object
	for _, s := range after {
		if s.Str("account-service-id") == id {
			returned = s
			break
		}
	}
	changed := []any{}
	for _, k := range unionKeys(svc, returned) {
		if k == calculationRulesKey {
			continue
		}
		if !sameJSON(svc.Value(k), returned.Value(k)) {
			changed = append(changed, k)
		}
	}
	// returned is the rules value as re-read: null while the platform
	// does not show the rules back (the other fields are judged in
	// other-fields-changed).
	var shown any
	if returned.Has(calculationRulesKey) {
		shown = returned.Value(calculationRulesKey)
	}
	return jsonx.New("list-id", listID, "service-id", id, "service-type", typ, "sent", rules, "written", true,
		"rules-verified", false, "returned", shown, "other-fields-changed", changed,
		"note", i18n.T(ctx, "cli.rules-note-written"), "next", i18n.T(ctx, "cli.rules-next")), nil
}

// calculationRules is the rules object of the file overlaid with the
// per-key flags; nil when neither gives any.
func calculationRules(ctx context.Context, cc *command.Context, in calculationRulesInput) (*jsonx.Object, error) {
	rules := jsonx.New()
	if file := in.RulesFile; file != "" {
		path := file
		if !filepath.IsAbs(path) && cc.Dir != "" {
			path = filepath.Join(cc.Dir, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, platform.ConfigErrorf(ctx, "cli.rules-file-unreadable", "path", file, "error", err)
		}
		v, err := jsonx.Decode(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
		o, isObject := v.(*jsonx.Object)
		if err != nil || !isObject {
			return nil, platform.ConfigErrorf(ctx, "cli.rules-file-not-object", "path", file)
		}
		rules = o
	}
	for i, v := range []*string{in.ResponseKind, in.PresentationRule, in.PhoneRule, in.EmailRule} {
		if v != nil {
			rules.Set(calculationRuleKeys[i], *v)
		}
	}
	var unknown []string
	for _, k := range rules.Keys() {
		if !slices.Contains(calculationRuleKeys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		return nil, platform.ConfigErrorf(ctx, "cli.rules-unknown-keys", "keys", strings.Join(unknown, ", "),
			"allowed", strings.Join(calculationRuleKeys, ", "))
	}
	if rules.Len() == 0 {
		return nil, nil
	}
	return rules, nil
}

func unionKeys(a, b *jsonx.Object) []string {
	keys := a.Keys()
	for _, k := range b.Keys() {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func sameJSON(a, b any) bool {
	ja, errA := jsonx.Compact(a)
	jb, errB := jsonx.Compact(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// configureUserListInput are the arguments runConfigureUserList reads.
type configureUserListInput struct {
	userListTargetInput
	SelfRegistration *bool `arg:"self-registration"`
	PasswordLogin    *bool `arg:"password-login"`
}

// runConfigureUserList is the MCP tool: read the two switches of a list
// and change the ones asked for.
func runConfigureUserList(ctx context.Context, cc *command.Context, in configureUserListInput) (any, error) {
	cl, id, err := userListTarget(ctx, cc, in.userListTargetInput)
	if err != nil {
		return nil, err
	}
	changed := []any{}
	settings, srChanged, err := SelfRegistration(ctx, cl, id, in.SelfRegistration, cc.Log)
	if err != nil {
		return nil, err
	}
	if srChanged {
		changed = append(changed, "self-registration")
	}
	password, pwChanged, err := PasswordLogin(ctx, cl, id, in.PasswordLogin, cc.Log)
	if err != nil {
		return nil, err
	}
	warnNoLocal(ctx, cc, id, in.PasswordLogin, password)
	if pwChanged {
		changed = append(changed, "password-login")
	}
	return jsonx.New("list-id", id, "self-registration-enabled", settings.Value("enabled"),
		"password-login-enabled", optBool(password), "changed", changed), nil
}
