package i18n

// Primary language identifiers of Windows LANGIDs (the low ten bits).
const (
	langIDRussian = 0x19
	langIDEnglish = 0x09
)

// LangIDLocale names the language of a Windows LANGID the way FromLocale
// reads it: "ru" for Russian, "en" for English, "" for LANG_NEUTRAL (no
// language), and "langid-XXXX" for any other, which counts as not Russian.
func LangIDLocale(id uint16) string {
	switch id & 0x3ff {
	case 0:
		return ""
	case langIDRussian:
		return "ru"
	case langIDEnglish:
		return "en"
	}
	const hex = "0123456789abcdef"
	return "langid-" + string([]byte{hex[id>>12], hex[id>>8&0xf], hex[id>>4&0xf], hex[id&0xf]})
}
