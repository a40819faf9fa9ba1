package command

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/jsonx"
	"github.com/elemctl/elemctl/internal/platform"
)

// Stands finds the stand of a call: the configuration and the client of
// the .env it names ("" = the face's own stand) from dir. The
// configuration may be there while the client is not (credentials
// missing): clientErr says why, and a command that never reaches the
// platform still runs. clientcache.Cache is the one implementation.
type Stands interface {
	Resolve(ctx context.Context, dir, envFile string) (cfg *platform.Config, cl *platform.Client, cfgErr, clientErr error)
}

// Call is one run of a command for a face. It builds the command's context
// – the stand, looked up once on first use, so every step of a command
// uses one client; the sinks of progress; the secrets scrubbed from every
// line and error that leaves – and runs the handler, a panic included.
// The CLI, MCP, LSP and the plugin host run commands through it.
type Call struct {
	Command *Command
	Surface Surface
	Naming  Naming
	// Dir is where relative paths (and the default .env) are read from.
	Dir string
	// EnvFile is the .env the call names itself ("" = the face's stand).
	EnvFile string
	// FaceEnvFile is the face's own --env-file: the context reports it as
	// the call's .env when the call names none.
	FaceEnvFile string
	Stands      Stands
	Getenv      func(string) string
	Version     string
	// Log and Status receive the command's progress, scrubbed; nil drops
	// it. Log lines are also kept for Lines.
	Log    func(line string)
	Status func(text string)
	// Pending hears what a forced stop would leave behind (Context.Pending).
	Pending func(text string)
	// Diagnostic receives what only the server log may see: the stack of
	// a recovered panic, scrubbed.
	Diagnostic func(text string)
	// Secrets are values that never leave beside the stand's client
	// secret (a --client-secret given at start).
	Secrets []string
	// Connection is how the command line reached the stand, for hints.
	Connection Connection
	// Catalog is the face's catalog, which hints are spelled by.
	Catalog *Catalog

	resolveOnce sync.Once
	// hints are the command-line hints rendered so far; noted tells that
	// the note on the secret they leave out was given.
	hints     []string
	noted     bool
	lang      i18n.Lang // of the run, for the note progress lines get
	mu        sync.Mutex
	cfg       *platform.Config
	client    *platform.Client
	cfgErr    error
	clientErr error
	lines     []string
}

// Context is the context the command runs with.
func (k *Call) Context() *Context {
	envFile := k.EnvFile
	if envFile == "" {
		envFile = k.FaceEnvFile
	}
	return &Context{
		Surface: k.Surface, Getenv: k.Getenv, Dir: k.Dir, EnvFile: envFile, Version: k.Version,
		Connection: k.Connection, Command: k.Command, Naming: k.Naming, Catalog: k.Catalog,
		LogFunc: k.log, StatusFunc: k.status, PendingFunc: k.pending, ClientFunc: k.platformClient, ConfigFunc: k.config,
		scrub: k.Scrub, diagnostic: k.Diagnostic, ownEnvFile: k.EnvFile,
		rendered: k.rendered,
	}
}

// Run runs the command with in. A call that names its own stand reads it
// first, so a stand that cannot be read fails the call before the command
// starts (a plugin's process included) rather than when it first asks for
// the platform. A panic becomes an error naming the command; its stack
// goes to Diagnostic.
func (k *Call) Run(ctx context.Context, in Values) (any, error) {
	k.mu.Lock()
	k.lang = i18n.LangOf(ctx)
	k.mu.Unlock()
	if k.EnvFile != "" && !k.Command.Local {
		if _, err := k.config(ctx); err != nil {
			return nil, err
		}
	}
	return k.Context().run(ctx, in)
}

// run runs the context's command, a panic included.
func (c *Context) run(ctx context.Context, in Values) (result any, err error) {
	scrub := c.scrub
	if scrub == nil {
		scrub = func(s string) string { return s }
	}
	defer func() {
		if r := recover(); r != nil {
			msg := panicMessage(r)
			if c.diagnostic != nil {
				c.diagnostic(scrub(fmt.Sprintf("panic in %s: %s\n%s", c.Command.Name(), msg, debug.Stack())))
			}
			result, err = nil, &PanicError{&platform.Error{Kind: platform.KindGeneral, Message: i18n.T(ctx, "call.panic", "command", c.Command.Name(), "error", scrub(msg))}}
		}
	}()
	result, err = c.Command.Run(ctx, c, in)
	return result, c.withRepeatHint(ctx, err, in)
}

// PanicError is a command that panicked: an internal error of elemctl,
// which faces answer as such (an LSP InternalError).
type PanicError struct{ Err *platform.Error }

func (e *PanicError) Error() string { return e.Err.Error() }
func (e *PanicError) Unwrap() error { return e.Err }

// Lines are the progress lines logged so far.
func (k *Call) Lines() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string{}, k.lines...)
}

// Scrub hides the secrets of the call in a text that leaves elemctl.
func (k *Call) Scrub(text string) string {
	k.mu.Lock()
	secrets := append([]string(nil), k.Secrets...)
	if k.cfg != nil {
		secrets = append(secrets, k.cfg.ClientSecret)
	}
	k.mu.Unlock()
	for _, secret := range secrets {
		if len(secret) >= 4 {
			text = strings.ReplaceAll(text, secret, "***")
		}
	}
	return text
}

func (k *Call) resolve(ctx context.Context) {
	k.resolveOnce.Do(func() {
		cfg, cl, cfgErr, clientErr := k.Stands.Resolve(ctx, k.Dir, k.EnvFile)
		k.mu.Lock()
		k.cfg, k.client, k.cfgErr, k.clientErr = cfg, cl, cfgErr, clientErr
		k.mu.Unlock()
	})
}

func (k *Call) config(ctx context.Context) (*platform.Config, error) {
	k.resolve(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.cfg, k.cfgErr
}

func (k *Call) platformClient(ctx context.Context) (*platform.Client, error) {
	k.resolve(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cfgErr != nil {
		return nil, k.cfgErr
	}
	return k.client, k.clientErr
}

func (k *Call) log(line string) {
	line = k.Scrub(line)
	k.mu.Lock()
	lang := k.lang
	k.mu.Unlock()
	if note := k.secretNote(lang, line); note != "" {
		k.emit(note)
	}
	k.emit(line)
}

func (k *Call) emit(line string) {
	k.mu.Lock()
	k.lines = append(k.lines, line)
	k.mu.Unlock()
	if k.Log != nil {
		k.Log(line)
	}
}

// rendered records a command-line hint the call rendered.
func (k *Call) rendered(hint string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.hints = append(k.hints, hint)
}

// SecretNote is the note that the hints leave the client secret out,
// once, when the secret came on the command line and text shows one of
// the call's hints; "" otherwise. Progress lines get it by themselves; a
// face asks for it before it shows the call's answer or error.
func (k *Call) SecretNote(ctx context.Context, text string) string {
	return k.secretNote(i18n.LangOf(ctx), text)
}

// SecretNoteMayFollow tells whether an answer's text may earn SecretNote:
// only then need a face hold the text it prints to search it.
func (k *Call) SecretNoteMayFollow() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.Connection.SecretGiven && !k.noted && len(k.hints) > 0
}

func (k *Call) secretNote(lang i18n.Lang, text string) string {
	if !k.Connection.SecretGiven {
		return ""
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.noted {
		return ""
	}
	for _, h := range k.hints {
		// As it is, or as a JSON answer spells it.
		quoted, _ := jsonx.Compact(h)
		if strings.Contains(text, h) || len(quoted) > 2 && strings.Contains(text, string(quoted[1:len(quoted)-1])) {
			k.noted = true
			return i18n.TL(lang, "hint.secret-not-repeated")
		}
	}
	return ""
}

func (k *Call) pending(text string) {
	if k.Pending != nil {
		k.Pending(k.Scrub(text))
	}
}

func (k *Call) status(text string) {
	if k.Status != nil {
		k.Status(k.Scrub(text))
	}
}

// Nested runs another command inside this one (a plugin's host call): the
// same stand, progress, secrets and environment; the other command's
// arguments as naming spells them; a panic included.
func (c *Context) Nested(cmd *Command, n Naming) Runner {
	nested := *c
	nested.Command, nested.Naming = cmd, n
	return &nested
}

// Run runs the context's command with in.
func (c *Context) Run(ctx context.Context, in Values) (any, error) { return c.run(ctx, in) }

// panicMessage describes a panic value without dumping a Go struct.
func panicMessage(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	// Only the type: the value may hold anything, secrets included.
	t := reflect.TypeOf(r)
	if t.Name() == "" {
		return t.Kind().String()
	}
	return t.String()
}
