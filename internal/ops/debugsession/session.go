// Package debugsession looks debug sessions up on the platform for the
// DAP proxy, the way `elemctl apps debug` and `elemctl apps get` do: the
// application is an id or an exact name (ELEMENT_APP_ID by default), the
// session comes from POST /applications/{id}/actions/debug and the card
// from GET /applications/{id}. It does not import package dap, so the
// proxy's own tests can use it.
package debugsession

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Options tune the lookup.
type Options struct {
	// Getenv reads the process environment; nil means os.Getenv.
	Getenv func(string) string
	// Overrides are the global connection flags of the command line.
	Overrides platform.Overrides
	// Client tunes the Console API client (token cache, warnings).
	Client platform.ClientOptions
}

// Session is what the platform says about a debug session; the fields
// match dap.SessionInfo.
type Session struct {
	AppID                                        string
	Card                                         map[string]any
	DebugToken, DebugAddress, ClientDebugAddress string
	BaseURL                                      string
}

// Lookup finds the application appRef (an id or an exact name; "" means
// ELEMENT_APP_ID) with the configuration of envFile (or .env in cwd) and
// opens a debug session for it.
func Lookup(ctx context.Context, opts Options, appRef, envFile, cwd string) (*Session, error) {
	cfg, err := platform.LoadConfig(ctx, platform.LoadOptions{
		EnvFile: envFile, Dir: cwd, Overrides: opts.Overrides, Getenv: opts.Getenv,
	})
	if err != nil {
		return nil, err
	}
	cl, err := platform.NewClient(ctx, cfg, opts.Client)
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	if appRef == "" {
		appRef = cfg.AppID
	}
	if appRef == "" {
		return nil, platform.ConfigErrorf(ctx, "dap.app-id-missing")
	}
	id, err := cl.ResolveApp(ctx, appRef)
	if err != nil {
		return nil, withHint(err)
	}
	v, err := cl.OpenDebugSession(ctx, id)
	if err != nil {
		return nil, withHint(err)
	}
	info := &Session{AppID: id, BaseURL: cfg.BaseURL}
	if o, ok := v.(*jsonx.Object); ok {
		info.DebugToken = o.Str("debug-token")
		info.DebugAddress = o.Str("debug-address")
		info.ClientDebugAddress = o.Str("client-debug-address")
	}
	// The card only enriches the session; like the editor extension, a
	// failure to read it is not a failure to debug.
	if card, err := cl.GetApp(ctx, id); err == nil {
		info.Card = plainMap(card)
	}
	return info, nil
}

// withHint adds the platform's hint to the message the user sees.
func withHint(err error) error {
	var ae *platform.APIError
	if errors.As(err, &ae) && ae.Hint != "" {
		return errors.New(ae.Message + " " + ae.Hint)
	}
	return err
}

func plainMap(o *jsonx.Object) map[string]any {
	raw, err := json.Marshal(o)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "dap.app-id-missing",
		RU: "не указано приложение для отладки: задайте appId в конфигурации attach или ELEMENT_APP_ID в .env",
		EN: "no application to debug: set appId in the attach configuration or ELEMENT_APP_ID in .env",
	},
}
