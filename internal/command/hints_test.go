package command

import (
	"errors"
	"strings"
	"testing"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/ops/hint"
	"github.com/elemctl/elemctl/internal/platform"
)

// Every face spells a hint from the same description: the command line
// with the catalog's positionals and options and the connection options
// the user gave (never the secret); a tool face as the tool call with its
// parameters, its own env_file included; a command no tool does as a
// command line.
func TestHintsAreSpelledForTheirFace(t *testing.T) {
	verify := hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", "app-1"), hint.Opt("version-id", "b-2")}}
	then := verify
	apply := hint.Command{Path: []string{"apps", "apply"}, Args: []hint.Arg{hint.Pos("app-id", "app-1"), hint.Pos("version-id", "b-2")},
		Tool: "apply_build", Then: &then}
	cleanup := hint.Command{Path: []string{"probe"}, Args: []hint.Arg{hint.Opt("cleanup", "elemctl-probe-ab12cd34")}, Tool: "probe_cleanup"}
	deleteBuild := hint.Command{Path: []string{"builds", "delete"}, Args: []hint.Arg{hint.Pos("version", "1.0 probe"), hint.Opt("project-id", "p-1")}}

	cli := &Context{Naming: CLINames, EnvFile: `my env\.env`,
		Connection: Connection{BaseURL: "https://stand.example", ClientID: "ci", Timeout: 2.5, SecretGiven: true}}
	for _, tc := range []struct {
		h    hint.Command
		want string
	}{
		{verify, `elemctl verify-deploy app-1 --version-id b-2 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{apply, `elemctl apps apply app-1 b-2 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{cleanup, `elemctl probe --cleanup elemctl-probe-ab12cd34 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
		{deleteBuild, `elemctl builds delete "1.0 probe" --project-id p-1 --env-file "my env\.env" --base-url https://stand.example --client-id ci --timeout 2.5`},
	} {
		if got := cli.Hint(tc.h); got != tc.want {
			t.Errorf("command line:\n got %s\nwant %s", got, tc.want)
		}
	}

	tool := &Context{Naming: ToolNames, EnvFile: "/srv/face.env", ownEnvFile: "/srv/other.env"}
	for _, tc := range []struct {
		h    hint.Command
		want string
	}{
		{verify, `verify_deploy {"app_id":"app-1","expected_assembly_id":"b-2","env_file":"/srv/other.env"}`},
		{apply, `apply_build {"app_id":"app-1","version_id":"b-2","env_file":"/srv/other.env"}` +
			i18n.T("hint.then", "call", `verify_deploy {"app_id":"app-1","expected_assembly_id":"b-2","env_file":"/srv/other.env"}`)},
		{cleanup, `probe_cleanup {"app_id":"elemctl-probe-ab12cd34","env_file":"/srv/other.env"}`},
		// No tool deletes a build: the command line, with the call's .env.
		{deleteBuild, `elemctl builds delete "1.0 probe" --project-id p-1 --env-file /srv/face.env`},
	} {
		if got := tool.Hint(tc.h); got != tc.want {
			t.Errorf("tool:\n got %s\nwant %s", got, tc.want)
		}
	}
}

// A change read back and found not made is completed with the command
// that makes it: the same command with the arguments its caller gave,
// for the caller's face.
func TestNotDoneGetsTheCommandThatMakesIt(t *testing.T) {
	cmd := hintCatalog().Path("apps", "token-access")
	in := NewValues()
	in.Set("app-id", "tasks-demo")
	in.Set("user", []string{"demo", "Анна Петрова"})
	in.Set("enable", true)
	notDone := &platform.Error{Kind: platform.KindNotDone, Message: "the token access: not done"}

	cli := &Context{Naming: CLINames, Command: cmd, EnvFile: ".env"}
	err := cli.withRepeatHint(notDone, in)
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

	tool := &Context{Naming: ToolNames, Command: cmd}
	in = NewValues()
	in.Set("app-id", "tasks-demo")
	in.Set("user", []string{"demo"})
	in.Set("enabled", false)
	pe = nil
	errors.As(tool.withRepeatHint(notDone, in), &pe)
	if want := `token_access {"app_id":"tasks-demo","user":["demo"],"enabled":false}`; pe == nil || pe.Hint != want {
		t.Errorf("tool hint %+v, want %s", pe, want)
	}

	// Other errors are left as they are.
	other := errors.New("refused")
	if got := cli.withRepeatHint(other, in); got != other {
		t.Errorf("a refusal was changed: %v", got)
	}
}

// The note that hints leave the secret out is given once, and only when a
// hint shows and the secret came on the command line.
func TestSecretNoteOnlyWithAHint(t *testing.T) {
	var lines []string
	k := &Call{Command: hintCatalog().Path("deploy"), Connection: Connection{SecretGiven: true},
		Log: func(l string) { lines = append(lines, l) }}
	cc := k.Context()
	h := cc.Hint(hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", "a")}})
	cc.Log("no hint here")
	if len(lines) != 1 {
		t.Fatalf("a line without a hint got the note: %q", lines)
	}
	cc.Log("to check: " + h)
	cc.Log("again: " + h)
	note := i18n.T("hint.secret-not-repeated")
	if len(lines) != 4 || lines[1] != note || k.SecretNote(h) != "" {
		t.Errorf("lines %q", lines)
	}
	plain := &Call{Command: hintCatalog().Path("deploy")}
	h = plain.Context().Hint(hint.Command{Path: []string{"verify-deploy"}, Args: []hint.Arg{hint.Pos("app-id", "a")}})
	if plain.SecretNote(h) != "" {
		t.Error("a note without a secret on the command line")
	}
}
