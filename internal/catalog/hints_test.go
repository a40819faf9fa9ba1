package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/command"
	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/platform"
)

// Every face spells a hint from the same description, by the catalog's
// declarations: the command line with the catalog's positionals and
// options and the connection options the user gave (never the secret); a
// tool face as the tool call with its parameters, its own env_file
// included; a command no tool does as a command line.
func TestHintsAreSpelledForTheirFace(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	verify := hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", "app-1"), hint.Opt("version-id", "b-2")}}
	then := verify
	apply := hint.Command{Path: []string{"apps", "apply"}, Args: []hint.Arg{hint.Pos("app-id", "app-1"), hint.Pos("version-id", "b-2")},
		Tool: "apply_build", Then: &then}
	cleanup := hint.Command{Path: []string{"probe"}, Args: []hint.Arg{hint.Opt("cleanup", "elemctl-probe-ab12cd34")}, Tool: "probe_cleanup"}
	deleteBuild := hint.Command{Path: []string{"builds", "delete"}, Args: []hint.Arg{hint.Pos("version", "1.0 probe"), hint.Opt("project-id", "p-1")}}
	core := Core()

	cli := (&command.Call{Catalog: core, Naming: command.CLINames, FaceEnvFile: `my env\.env`,
		Connection: command.Connection{BaseURL: "https://stand.example", ClientID: "ci", Timeout: 2.5, SecretGiven: true}}).Context()
	for _, tc := range []struct {
		h    hint.Command
		want string
	}{
		{verify, `elemctl verify-deploy app-1 --version-id b-2 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{apply, `elemctl apps apply app-1 b-2 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{cleanup, `elemctl probe --cleanup elemctl-probe-ab12cd34 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{deleteBuild, `elemctl builds delete "1.0 probe" --project-id p-1 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
	} {
		if got := cli.Hint(ctx, tc.h); got != tc.want {
			t.Errorf("command line:\n got %s\nwant %s", got, tc.want)
		}
	}

	// A tool call naming its own .env: every hint repeats it.
	own := (&command.Call{Catalog: core, Naming: command.ToolNames, FaceEnvFile: "/srv/face.env", EnvFile: "/srv/other.env"}).Context()
	for _, tc := range []struct {
		h    hint.Command
		want string
	}{
		{verify, `verify_deploy {"app_id":"app-1","expected_assembly_id":"b-2","env_file":"/srv/other.env"}`},
		{apply, `apply_build {"app_id":"app-1","version_id":"b-2","env_file":"/srv/other.env"}` +
			i18n.T(ctx, "hint.then", "call", `verify_deploy {"app_id":"app-1","expected_assembly_id":"b-2","env_file":"/srv/other.env"}`)},
		{cleanup, `probe_cleanup {"app_id":"elemctl-probe-ab12cd34","env_file":"/srv/other.env"}`},
		// No tool deletes a build: the command line, with the call's .env.
		{deleteBuild, `elemctl builds delete "1.0 probe" --project-id p-1 --env-file /srv/other.env`},
	} {
		if got := own.Hint(ctx, tc.h); got != tc.want {
			t.Errorf("tool:\n got %s\nwant %s", got, tc.want)
		}
	}

	// A tool call on the face's stand: the tool calls name no .env, the
	// command line names the face's.
	face := (&command.Call{Catalog: core, Naming: command.ToolNames, FaceEnvFile: "/srv/face.env"}).Context()
	if got, want := face.Hint(ctx, verify), `verify_deploy {"app_id":"app-1","expected_assembly_id":"b-2"}`; got != want {
		t.Errorf("tool on the face's stand:\n got %s\nwant %s", got, want)
	}
	if got, want := face.Hint(ctx, deleteBuild), `elemctl builds delete "1.0 probe" --project-id p-1 --env-file /srv/face.env`; got != want {
		t.Errorf("command line on the face's stand:\n got %s\nwant %s", got, want)
	}
}

// failing is core command path answering err, for the hints of a failure.
func failing(path []string, err error) *command.Command {
	c := *Core().Path(path...)
	c.Run = func(context.Context, *command.Context, command.Values) (any, error) { return nil, err }
	return &c
}

// A change read back and found not made is completed with the command
// that makes it: the same command with the arguments its caller gave,
// for the caller's face.
func TestNotDoneGetsTheCommandThatMakesIt(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	notDone := &platform.Error{Kind: platform.KindNotDone, Message: "the token access: not done"}
	cmd := failing([]string{"apps", "token-access"}, notDone)
	in := command.NewValues()
	in.Set("app-id", "tasks-demo")
	in.Set("user", []string{"demo", "Анна Петрова"})
	in.Set("enable", true)

	cli := &command.Call{Catalog: Core(), Naming: command.CLINames, Command: cmd, FaceEnvFile: ".env"}
	_, err := cli.Run(ctx, in)
	var pe *platform.Error
	if !errors.As(err, &pe) || pe.Kind != platform.KindNotDone {
		t.Fatalf("got %v", err)
	}
	want := `elemctl apps token-access tasks-demo --user demo --user "Анна Петрова" --enable --env-file .env`
	if pe.Hint != want || !strings.HasSuffix(pe.Message, want) {
		t.Errorf("hint %q\nmessage %q\nwant %q", pe.Hint, pe.Message, want)
	}
	if got := platform.ErrorObject(err).Str("hint"); got != want {
		t.Errorf("the error object's hint is %q", got)
	}

	tool := &command.Call{Catalog: Core(), Naming: command.ToolNames, Command: cmd}
	in = command.NewValues()
	in.Set("app-id", "tasks-demo")
	in.Set("user", []string{"demo"})
	in.Set("enabled", false)
	pe = nil
	_, err = tool.Run(ctx, in)
	errors.As(err, &pe)
	if want := `token_access {"app_id":"tasks-demo","user":["demo"],"enabled":false}`; pe == nil || pe.Hint != want {
		t.Errorf("tool hint %+v, want %s", pe, want)
	}

	// Other errors are left as they are.
	other := errors.New("refused")
	if _, got := (&command.Call{Catalog: Core(), Naming: command.CLINames,
		Command: failing([]string{"apps", "token-access"}, other)}).Run(ctx, in); got != other {
		t.Errorf("a refusal was changed: %v", got)
	}
}

// The note that hints leave the secret out is given once, and only when a
// hint shows and the secret came on the command line.
func TestSecretNoteOnlyWithAHint(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	var lines []string
	k := &command.Call{Catalog: Core(), Command: Core().Path("deploy"), Connection: command.Connection{SecretGiven: true},
		Log: func(l string) { lines = append(lines, l) }}
	// The run's language is the note's.
	hintOf := func(cc *command.Context) string {
		return cc.Hint(ctx, hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", "a")}})
	}
	logging := *k.Command
	logging.Run = func(ctx context.Context, cc *command.Context, _ command.Values) (any, error) {
		if k.SecretNoteMayFollow() {
			t.Error("a note may follow before any hint")
		}
		h := hintOf(cc)
		if !k.SecretNoteMayFollow() {
			t.Error("a hint given, and no note to follow")
		}
		cc.Log("no hint here")
		if len(lines) != 1 {
			t.Fatalf("a line without a hint got the note: %q", lines)
		}
		cc.Log("to check: " + h)
		cc.Log("again: " + h)
		return h, nil
	}
	k.Command = &logging
	got, err := k.Run(ctx, command.NewValues())
	if err != nil {
		t.Fatal(err)
	}
	note := i18n.T(ctx, "hint.secret-not-repeated")
	if len(lines) != 4 || lines[1] != note || k.SecretNote(ctx, got.(string)) != "" {
		t.Errorf("lines %q", lines)
	}
	if k.SecretNoteMayFollow() {
		t.Error("the note was given, and another may follow")
	}
	plain := &command.Call{Catalog: Core(), Command: Core().Path("deploy")}
	h := hintOf(plain.Context())
	if plain.SecretNote(ctx, h) != "" || plain.SecretNoteMayFollow() {
		t.Error("a note without a secret on the command line")
	}
}
