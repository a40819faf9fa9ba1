// Command dapmain runs the DAP proxy the way `elemctl dap` will, for the
// end-to-end test with a real DAP client. It is a test tool, not shipped.
//
//	dapmain [--adapter DIR] [--java PATH] [--lang ru|en] dap
//	    proxy a debug session on stdio. Sessions come from the platform
//	    (the attach configuration's envFile, else .env in the current
//	    directory), or from the JSON file named by
//	    ELEMCTL_DAP_SESSION_FIXTURE: {"appId", "card", "debugToken",
//	    "debugAddress", "clientDebugAddress", "baseUrl"} or {"error"}.
//	dapmain stand ENVFILE
//	    serve an emulated stand with the demo application, write a .env
//	    for it to ENVFILE, print {"base-url","app-id","app-name"} and run
//	    until stdin closes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/elemctl/elemctl/dap"
	"github.com/elemctl/elemctl/dap/internal/platformsession"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/platform/stand"
)

func main() {
	adapter := flag.String("adapter", "", "the debug adapter directory (holds repo/)")
	java := flag.String("java", "", "the java launcher")
	lang := flag.String("lang", "", "message language: ru or en")
	grace := flag.Duration("grace", dap.DefaultGracePeriod, "time the adapter has to exit after the client left")
	flag.Parse()
	i18n.SetLang(i18n.Detect(*lang, os.Getenv))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch flag.Arg(0) {
	case "dap":
		session, err := sessionSource()
		if err != nil {
			fmt.Fprintln(os.Stderr, "dapmain:", err)
			os.Exit(2)
		}
		code, err := dap.Run(ctx, dap.Options{
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
			AdapterDir: *adapter, Java: *java, Session: session, GracePeriod: *grace,
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "dapmain:", err)
		}
		os.Exit(code)
	case "stand":
		if err := serveStand(ctx, flag.Arg(1)); err != nil {
			fmt.Fprintln(os.Stderr, "dapmain:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: dapmain [flags] dap | dapmain stand ENVFILE")
		os.Exit(2)
	}
}

type sessionFunc = func(context.Context, dap.SessionRequest) (*dap.SessionInfo, error)

func sessionSource() (sessionFunc, error) {
	path := os.Getenv("ELEMCTL_DAP_SESSION_FIXTURE")
	if path == "" {
		return func(ctx context.Context, req dap.SessionRequest) (*dap.SessionInfo, error) {
			s, err := platformsession.Lookup(ctx, platformsession.Options{}, req.AppRef, req.EnvFile, req.Cwd)
			if err != nil {
				return nil, err
			}
			return &dap.SessionInfo{AppID: s.AppID, Card: s.Card, DebugToken: s.DebugToken, DebugAddress: s.DebugAddress,
				ClientDebugAddress: s.ClientDebugAddress, BaseURL: s.BaseURL}, nil
		}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fx struct {
		AppID              string         `json:"appId"`
		Card               map[string]any `json:"card"`
		DebugToken         string         `json:"debugToken"`
		DebugAddress       string         `json:"debugAddress"`
		ClientDebugAddress string         `json:"clientDebugAddress"`
		BaseURL            string         `json:"baseUrl"`
		Error              string         `json:"error"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(context.Context, dap.SessionRequest) (*dap.SessionInfo, error) {
		if fx.Error != "" {
			return nil, errors.New(fx.Error)
		}
		return &dap.SessionInfo{AppID: fx.AppID, Card: fx.Card, DebugToken: fx.DebugToken, DebugAddress: fx.DebugAddress,
			ClientDebugAddress: fx.ClientDebugAddress, BaseURL: fx.BaseURL}, nil
	}, nil
}

func serveStand(ctx context.Context, envFile string) error {
	if envFile == "" {
		return errors.New("stand: the .env path is missing")
	}
	s, err := stand.New(stand.Options{Speed: 0.001})
	if err != nil {
		return err
	}
	defer s.Close()
	demo, err := s.SeedDemo()
	if err != nil {
		return err
	}
	base, err := s.Listen("127.0.0.1:0")
	if err != nil {
		return err
	}
	env := fmt.Sprintf("ELEMENT_BASE_URL=%s\nELEMENT_CLIENT_ID=%s\nELEMENT_CLIENT_SECRET=%s\nELEMENT_APP_ID=%s\n",
		base, s.ClientID(), s.ClientSecret(), demo.AppID)
	if err := os.WriteFile(envFile, []byte(env), 0o600); err != nil {
		return err
	}
	line, _ := json.Marshal(map[string]string{"base-url": base, "app-id": demo.AppID, "app-name": demo.AppName})
	fmt.Println(string(line))
	stdinClosed := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdinClosed)
	}()
	select {
	case <-ctx.Done():
	case <-stdinClosed:
	}
	return nil
}
