//go:build !windows

package i18n

// UserLocale is the user's locale of messages: on Unix the environment's,
// as POSIX resolves it (LC_ALL, LC_MESSAGES, LANG; the first non-empty
// wins). "" when none is set.
func UserLocale(getenv func(string) string) string { return POSIXLocale(getenv) }
