// Package readback finds out what a change did when its answer did not
// come. A POST, PUT or DELETE whose connection broke, that timed out or
// that a gateway turned away may or may not have been carried out by the
// platform; repeating it blindly could make a second build or
// application. Instead the change's owner reads the platform back: a
// change in effect is taken as made, one not in effect is reported as not
// made (the command may simply be run again), and nothing is guessed.
package readback

import (
	"context"
	"net/http"
	"time"

	"github.com/elemctl/elemctl/internal/i18n"
	"github.com/elemctl/elemctl/internal/platform"
)

// Uncertain tells a failure after which a change may or may not have been
// made: the connection broke (the answer lost, a reset, a timeout) or a
// gateway or a server under load turned the request away (502, 503, 504,
// 429). Any other answer is the platform's own refusal: nothing changed.
func Uncertain(err error) bool {
	return err != nil && (platform.IsTransport(err) || platform.IsTurnedAway(err))
}

// Change is one change sent to the platform with the way to check it.
type Change struct {
	// What names the change in messages ("the deletion of application
	// X"), in the current language.
	What string
	// Checking is the line logged when the answer is lost, given the
	// failure; nil takes the generic one naming What.
	Checking func(error) string
	// Send sends the change once.
	Send func(ctx context.Context) (any, error)
	// Check reads back whether the change is in effect; nil when the
	// platform shows nothing to check by (the change is then reported as
	// unknown, to be repeated: it must be one a repetition cannot double).
	Check func(ctx context.Context) (bool, error)
	// Settle is how long the reading back goes on before a change not
	// seen is taken as not made (see Await); SettleOf gives the client's.
	Settle time.Duration
	// Look, when set, is a command that shows whether the change was made;
	// an interruption under way names it.
	Look string
	// Log receives the progress lines; nil drops them.
	Log func(string)
}

// Do sends the change. An answer that came is returned as it is (a
// refusal included). When the answer is lost or turned away, it logs that
// the change may have reached the platform and reads back: in effect, the
// change is taken as made (a nil answer); not in effect, the error is a
// KindNotDone error saying nothing was changed; the read failing too, the
// error is the first failure with that said. Interrupted while the request
// was under way, the error says it may have reached the platform.
func (c Change) Do(ctx context.Context) (any, error) {
	answer, err := c.Send(ctx)
	if err == nil || !Uncertain(err) {
		return answer, err
	}
	if ctx.Err() != nil {
		return nil, Interrupted(ctx, c.What, c.Look)
	}
	if c.Checking != nil {
		c.log(c.Checking(err))
	} else {
		c.log(i18n.T(ctx, "readback.checking", "what", c.What, "error", err))
	}
	if c.Check == nil {
		return nil, &platform.Error{Kind: platform.KindNotDone, Err: err,
			Message: i18n.T(ctx, "readback.unverifiable", "what", c.What, "error", err)}
	}
	done, checkErr := Await(ctx, SettleAfter(err, c.Settle), c.Check)
	switch {
	case checkErr != nil && ctx.Err() != nil:
		return nil, Interrupted(ctx, c.What, c.Look)
	case checkErr != nil:
		return nil, Unknown(ctx, c.What, err, checkErr)
	case done:
		c.log(i18n.T(ctx, "readback.made", "what", c.What))
		return nil, nil
	}
	return nil, NotDone(ctx, c.What, err)
}

// settleAfter is how long to look for a change after err: not at all
// (one look) after a server's own 503 or 429, which it gives before
// acting; the settle time after a broken connection, a timeout or a
// gateway's 502 or 504, when the platform may still be carrying the
// request out.
func SettleAfter(err error, settle time.Duration) time.Duration {
	if platform.IsAPIStatus(err, http.StatusServiceUnavailable, http.StatusTooManyRequests) {
		return 0
	}
	return settle
}

// SettleOf is the settle time of a client's changes: its per-request
// timeout – a request that timed out may still be carried out for as long
// again.
func SettleOf(cl *platform.Client) time.Duration {
	if t := cl.Config().Timeout; t > 0 {
		return t
	}
	return platform.DefaultTimeout
}

// Await reads back with check until it says done or settle has passed
// since the first look, pausing between looks (a quarter of a second,
// doubling up to two). A look that fails on the way (the network, a
// gateway) is looked again while time remains; its error is returned when
// none is left. A look the platform refuses ends the wait with its error.
func Await(ctx context.Context, settle time.Duration, check func(context.Context) (bool, error)) (bool, error) {
	deadline := time.Now().Add(settle)
	pause := 250 * time.Millisecond
	for {
		done, err := check(ctx)
		switch {
		case done:
			return true, nil
		case err != nil && !Uncertain(err):
			return false, err
		}
		left := time.Until(deadline)
		if left <= 0 || ctx.Err() != nil {
			return false, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(min(pause, left)):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

func (c Change) log(line string) {
	if c.Log != nil {
		c.Log(line)
	}
}

// Unknown is the error of a change whose answer was lost (cause) and
// whose reading back failed too (checkErr).
func Unknown(ctx context.Context, what string, cause, checkErr error) error {
	return &platform.Error{Kind: platform.KindGeneral, Err: cause,
		Message: i18n.T(ctx, "readback.unknown", "what", what, "error", cause, "check", checkErr)}
}

// NotDone is the error of a change read back and found not made after
// cause.
func NotDone(ctx context.Context, what string, cause error) error {
	return &platform.Error{Kind: platform.KindNotDone, Err: cause,
		Message: i18n.T(ctx, "readback.not-done", "what", what, "error", cause)}
}

// Interrupted is the error of a change interrupted while its request was
// under way: it may have reached the platform; look, when set, is the
// command that shows whether it did. It wraps the context's error, so
// faces see an interruption.
func Interrupted(ctx context.Context, what, look string) error {
	if look != "" {
		return &platform.Error{Kind: platform.KindGeneral, Err: ctx.Err(), Hint: look,
			Message: i18n.T(ctx, "readback.interrupted-look", "what", what, "command", look)}
	}
	return &platform.Error{Kind: platform.KindGeneral, Err: ctx.Err(),
		Message: i18n.T(ctx, "readback.interrupted", "what", what)}
}

// Messages are this package's entries of the message catalog, for
// i18n.Register.
var Messages = []i18n.Message{
	{Key: "readback.checking",
		RU: "{what}: ответ не получен ({error}) – запрос мог дойти до платформы, проверяю",
		EN: "{what}: no answer ({error}) – the request may have reached the platform, checking",
	},
	{Key: "readback.made",
		RU: "{what}: проверено – платформа это сделала",
		EN: "{what}: checked – the platform did it",
	},
	{Key: "readback.not-done",
		RU: "{what}: не сделано – платформа не ответила ({error}), и проверка показала, что ничего не изменилось",
		EN: "{what}: not done – the platform did not answer ({error}), and reading back shows that nothing changed",
	},
	{Key: "readback.unknown",
		RU: "{what}: неизвестно, сделано ли – платформа не ответила ({error}), и проверить не удалось: {check}",
		EN: "{what}: unknown whether it was done – the platform did not answer ({error}), and checking failed: {check}",
	},
	{Key: "readback.unverifiable",
		RU: "{what}: неизвестно, сделано ли – платформа не ответила ({error}), а записанное она не показывает; повторить безопасно",
		EN: "{what}: unknown whether it was done – the platform did not answer ({error}) and does not show what was written; repeating it is safe",
	},
	{Key: "readback.interrupted-look",
		RU: "прервано, пока шёл запрос ({what}): он мог дойти до платформы. Проверить: {command}",
		EN: "interrupted while the request was under way ({what}): it may have reached the platform. To check: {command}",
	},
	{Key: "readback.status-blank",
		RU: "статус приложения {app} пуст (оно меняет состояние)",
		EN: "application {app} shows a blank status (it is changing state)",
	},
	{Key: "readback.what-start", RU: "запуск приложения {app}", EN: "the start of application {app}"},
	{Key: "readback.what-stop", RU: "остановка приложения {app}", EN: "the stop of application {app}"},
	{Key: "readback.what-delete", RU: "удаление приложения {app}", EN: "the deletion of application {app}"},
	{Key: "readback.what-token-access", RU: "доступ по токену пользователя {user} приложения {app}", EN: "the token access of user {user} of application {app}"},
	{Key: "readback.what-self-registration", RU: "саморегистрация списка {list}", EN: "the self-registration of list {list}"},
	{Key: "readback.what-password-login", RU: "вход по паролю списка {list}", EN: "the password sign-in of list {list}"},
	{Key: "readback.what-rules", RU: "правила расчёта свойств списка {list}", EN: "the calculation rules of list {list}"},
	{Key: "readback.interrupted",
		RU: "прервано, пока шёл запрос ({what}): он мог дойти до платформы",
		EN: "interrupted while the request was under way ({what}): it may have reached the platform",
	},
}
