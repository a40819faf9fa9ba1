package command

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/spf13/pflag"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/spelling"
)

// A value outside an option's choices (a plugin declares them) and an
// option the command lacks are refused with the nearest known word, in the
// user's language; with none near, the refusal says no more.
func TestRefusalsNameTheNearestWord(t *testing.T) {
	i18n.Register(Messages, spelling.Messages)
	c := &Command{Path: []string{"greet"}, Args: []Argument{
		{Name: "tone", Type: String, Choices: []string{"warm", "formal", "brief"}},
		{Name: "times", Type: Int},
	}}
	parse := func(ctx context.Context, words ...string) error {
		flags := pflag.NewFlagSet("greet", pflag.ContinueOnError)
		flags.SetOutput(io.Discard)
		binder := NewWordBinder(ctx, c, flags)
		if err := flags.Parse(words); err != nil {
			return FlagErrorAmong(ctx, err, flags)
		}
		_, err := binder.Bind(ctx, flags.Args())
		return err
	}
	en := i18n.WithLang(context.Background(), i18n.EN)
	ru := i18n.WithLang(context.Background(), i18n.RU)
	for _, c := range []struct {
		ctx   context.Context
		words []string
		want  string
	}{
		{en, []string{"--tone", "frmal"}, `invalid value for --tone: "frmal" (choose from warm, formal, brief) – did you mean formal?`},
		{ru, []string{"--tone", "wram"}, `недопустимое значение --tone: "wram" (допустимы: warm, formal, brief) – может быть, warm?`},
		{en, []string{"--tone", "loud"}, `invalid value for --tone: "loud" (choose from warm, formal, brief)`},
		{en, []string{"--tmies", "2"}, `unknown flag: --tmies – did you mean --times?`},
		{ru, []string{"--ton", "warm"}, `неизвестный ключ: --ton – может быть, --tone?`},
		{en, []string{"--volume", "2"}, `unknown flag: --volume`},
	} {
		err := parse(c.ctx, c.words...)
		var usage *UsageError
		if !errors.As(err, &usage) || err.Error() != c.want {
			t.Errorf("%v: got %v, want the usage error %q", c.words, err, c.want)
		}
	}
	// Without the command's options at hand, an unknown one is told as before.
	flags := pflag.NewFlagSet("x", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	if err := FlagError(en, flags.Parse([]string{"--tmies"})); err.Error() != "unknown flag: --tmies" {
		t.Errorf("got %v", err)
	}
}
