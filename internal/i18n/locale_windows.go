//go:build windows

package i18n

import "golang.org/x/sys/windows"

var procGetUserDefaultUILanguage = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetUserDefaultUILanguage")

// UserLocale is the user's locale of messages: on Windows the language of
// the user's interface (GetUserDefaultUILanguage), whatever the
// environment says; "" when it cannot be read.
func UserLocale(func(string) string) string {
	if procGetUserDefaultUILanguage.Find() != nil {
		return ""
	}
	id, _, _ := procGetUserDefaultUILanguage.Call()
	return LangIDLocale(uint16(id))
}
