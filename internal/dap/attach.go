package dap

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/elemctl/elemctl/internal/i18n"
)

// attachPlan is the outcome of looking at an attach request.
type attachPlan struct {
	body     []byte // the request to forward (nil: answer with errMsg)
	errMsg   string
	url      string // debuggee URL, "" when it cannot be built
	appID    string
	session  string
	warnings []string
}

// prepareAttach completes an attach that names an application but carries
// no session (no debugToken and no uri): it looks the session up and fills
// in every key the adapter expects. Keys the user set are never replaced.
// Any other attach passes through byte for byte.
func (p *proxy) prepareAttach(ctx context.Context, body []byte) attachPlan {
	msg, err := decodeRawObject(body)
	if err != nil {
		return attachPlan{body: body}
	}
	args, err := decodeRawObject(msg.get("arguments"))
	if err != nil {
		return attachPlan{body: body}
	}
	if token, ok := args.str("debugToken"); ok && token != "" {
		p.secrets.add(token)
	}
	if !args.isNull("debugToken") || !args.isNull("uri") {
		return attachPlan{body: body}
	}

	base := p.baseDir(args)
	appRef, _ := args.str("appId")
	envFile, _ := args.str("envFile")
	if envFile != "" && !filepath.IsAbs(envFile) {
		envFile = filepath.Join(base, envFile)
	}
	if p.opts.Session == nil {
		return attachPlan{errMsg: i18n.T(ctx, "dap.no-session")}
	}
	info, err := p.opts.Session(ctx, SessionRequest{AppRef: appRef, EnvFile: envFile, Cwd: base})
	if err != nil {
		return attachPlan{errMsg: p.secrets.redact(err.Error())}
	}
	if info == nil || info.DebugToken == "" || info.DebugAddress == "" {
		app := appRef
		if info != nil && info.AppID != "" {
			app = info.AppID
		}
		return attachPlan{errMsg: i18n.T(ctx, "dap.no-debug-info", "app", app)}
	}
	p.secrets.add(info.DebugToken)

	plan := attachPlan{appID: info.AppID}
	if args.isNull("sessionId") {
		args.setValue("sessionId", newUUID())
	}
	if args.isNull("workspace") {
		workspace, ok := findSourcesRoot(base)
		if !ok {
			workspace = base
			plan.warnings = append(plan.warnings, i18n.T(ctx, "dap.no-workspace", "dir", base))
		}
		args.setValue("workspace", workspace)
	}

	args.setDefault("request", "attach")
	args.setDefault("stopOnEntry", false)
	args.setDefault("endSessionIfClientDisconnected", true)
	args.setDefault("clientApplicationPath", "")
	args.setDefault("noDebug", false)
	args.setValue("debugToken", info.DebugToken)
	args.setValue("uri", info.DebugAddress)
	args.setDefault("projectLocations", map[string]any{})
	args.setDefault("locale", string(i18n.LangOf(ctx)))
	if info.ClientDebugAddress != "" {
		args.setDefault("clientDebugAddress", info.ClientDebugAddress)
	}
	args.setDefault("application", applicationOf(info))
	args.setDefault("retryTimeout", "60")
	msg.setValue("arguments", args)
	plan.body = mustMarshal(msg)

	plan.session, _ = args.str("sessionId")
	appURL, _ := args.str("applicationUrl")
	if appURL == "" {
		appURL = resolveAppURL(cardString(info.Card, "uri"), info.BaseURL)
	}
	authMode, _ := args.str("authMode")
	cda, _ := args.str("clientDebugAddress")
	plan.url = debuggeeURL(appURL, cda, plan.session, authMode)
	return plan
}

// baseDir is where relative paths of the attach configuration start: its
// "cwd" when given, else the directory the proxy runs in.
func (p *proxy) baseDir(args *rawObject) string {
	if cwd, ok := args.str("cwd"); ok && cwd != "" {
		if abs, err := filepath.Abs(cwd); err == nil {
			return abs
		}
		return cwd
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

// applicationOf turns the platform card (kebab-case) into the camelCase
// object the adapter reads.
func applicationOf(info *SessionInfo) *rawObject {
	card := info.Card
	app := &rawObject{vals: map[string]json.RawMessage{}}
	id := card["id"]
	if id == nil && info.AppID != "" {
		id = info.AppID
	}
	if id != nil {
		app.setValue("id", id)
	}
	if v, ok := card["name"]; ok {
		app.setValue("name", v)
	}
	app.setValue("error", card["error"]) // null when the card has none
	if v, ok := card["status"]; ok {
		app.setValue("status", v)
	}
	if v := card["display-name"]; v != nil && v != "" {
		app.setValue("displayName", v)
	} else if v, ok := card["name"]; ok {
		app.setValue("displayName", v)
	}
	if v, ok := card["uri"]; ok {
		app.setValue("uri", v)
	}
	if v, ok := card["space-id"]; ok {
		app.setValue("spaceId", v)
	}
	return app
}

func cardString(card map[string]any, key string) string {
	s, _ := card[key].(string)
	return s
}

// resolveAppURL makes a card uri without a scheme absolute against the
// console's base URL.
func resolveAppURL(uri, base string) string {
	if uri == "" || base == "" {
		return uri
	}
	u, err := url.Parse(uri)
	if err != nil || u.IsAbs() {
		return uri
	}
	b, err := url.Parse(base)
	if err != nil {
		return uri
	}
	return b.ResolveReference(u).String()
}

// debuggeeURL is the application URL that makes the browser client join
// this debug session: the newest form, which sends both the full server
// URL (newer clients) and its host and port (older clients).
func debuggeeURL(appURL, clientDebugAddress, sessionID, authMode string) string {
	if appURL == "" || clientDebugAddress == "" {
		return ""
	}
	u, err := url.Parse(clientDebugAddress)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "wss", "https":
			port = "443"
		default:
			port = "80"
		}
	}
	params := []string{
		"debug-server-url=" + encodeURIComponent(clientDebugAddress),
		"debug-server-host=" + encodeURIComponent(host),
		"debug-server-port=" + port,
		"debug-session-id=" + encodeURIComponent(sessionID),
	}
	if authMode == "anonymous" || authMode == "another_user" {
		params = append(params, "force_auth="+authMode)
	}
	fragment := ""
	if i := strings.IndexByte(appURL, '#'); i >= 0 {
		appURL, fragment = appURL[:i], appURL[i:]
	}
	sep := "?"
	if strings.Contains(appURL, "?") {
		sep = "&"
	}
	return appURL + sep + strings.Join(params, "&") + fragment
}

// encodeURIComponent escapes like the JavaScript function of that name,
// which is what browser clients decode.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
			strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("dap: no randomness: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
