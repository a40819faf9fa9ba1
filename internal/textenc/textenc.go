// Package textenc turns the bytes of a text file a user wrote into UTF-8
// text, whatever Windows editor or shell saved it: Notepad's "Unicode" is
// UTF-16 LE with a byte-order mark, "Unicode big endian" UTF-16 BE, "UTF-8
// with BOM" puts EF BB BF first, and Windows PowerShell 5.1's `>` writes
// UTF-16 LE. The .env reader and the plugin manifest reader share it.
package textenc

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Encodings as messages name them.
const (
	UTF8    = "UTF-8"
	UTF8BOM = "UTF-8 with BOM"
	UTF16LE = "UTF-16 LE"
	UTF16BE = "UTF-16 BE"
	UTF32LE = "UTF-32 LE"
	UTF32BE = "UTF-32 BE"
	Binary  = "binary (NUL bytes)"
	// Text that is no UTF-8, named by the code page its letters fit
	// (Windows-1251 is Notepad's "ANSI" on a Russian Windows).
	Windows1251 = "Windows-1251 (ANSI)"
	KOI8R       = "KOI8-R"
	CP866       = "CP866 (OEM)"
	CodePage    = "ANSI/OEM (8-bit)"
)

// Error is text in an encoding elemctl does not read: UTF-32, damaged
// UTF-16, an 8-bit code page, or not text at all.
type Error struct{ Encoding string }

func (e *Error) Error() string { return "the file is in " + e.Encoding + ", not UTF-8 or UTF-16" }

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	bomUTF32LE = []byte{0xFF, 0xFE, 0x00, 0x00}
	bomUTF32BE = []byte{0x00, 0x00, 0xFE, 0xFF}
)

// Decode turns file bytes into text without a byte-order mark and names
// the encoding they were in. UTF-16 without a mark is recognised by the
// zero bytes of its ASCII characters. UTF-32, bytes with NUL that are not
// UTF-16, and text that is no valid UTF-8 (Notepad's "ANSI", Windows-1251
// on a Russian Windows) are refused with their encoding named (*Error),
// so a user learns why the file was not understood instead of meeting
// U+FFFD in a value.
func Decode(data []byte) (text, encoding string, err error) {
	switch {
	case bytes.HasPrefix(data, bomUTF32LE):
		return "", UTF32LE, &Error{UTF32LE}
	case bytes.HasPrefix(data, bomUTF32BE):
		return "", UTF32BE, &Error{UTF32BE}
	case bytes.HasPrefix(data, bomUTF8):
		return string(data[len(bomUTF8):]), UTF8BOM, nil
	case bytes.HasPrefix(data, bomUTF16LE):
		return decodeUTF16(data[2:], binary.LittleEndian, UTF16LE)
	case bytes.HasPrefix(data, bomUTF16BE):
		return decodeUTF16(data[2:], binary.BigEndian, UTF16BE)
	}
	if bytes.IndexByte(data, 0) < 0 {
		if !utf8.Valid(data) {
			cp := codePage(data)
			return "", cp, &Error{cp}
		}
		return string(data), UTF8, nil
	}
	// No mark but zero bytes: UTF-16 when the first character is ASCII,
	// its zero byte on the side of the byte order.
	if len(data) >= 2 {
		switch {
		case data[0] != 0 && data[1] == 0:
			return decodeUTF16(data, binary.LittleEndian, UTF16LE)
		case data[0] == 0 && data[1] != 0:
			return decodeUTF16(data, binary.BigEndian, UTF16BE)
		}
	}
	return "", Binary, &Error{Binary}
}

// codePage names the 8-bit code page non-UTF-8 text most likely is in, by
// where its Cyrillic letters fall: mostly lower case, they sit at E0–FF in
// Windows-1251, at C0–DF in KOI8-R, at A0–AF and E0–EF in CP866.
func codePage(data []byte) string {
	var high, c0df, e0ff, dos int
	for _, b := range data {
		switch {
		case b < 0x80:
			continue
		case b >= 0xE0:
			e0ff++
		case b >= 0xC0:
			c0df++
		case b == 0xA8 || b == 0xB8: // Ё, ё of Windows-1251
			e0ff++
		}
		if b >= 0x80 && b < 0xB0 || b >= 0xE0 && b < 0xF0 {
			dos++
		}
		high++
	}
	switch {
	case high == 0:
		return CodePage
	case 4*(c0df+e0ff) >= 3*high && e0ff >= c0df:
		return Windows1251
	case 4*(c0df+e0ff) >= 3*high:
		return KOI8R
	case 4*dos >= 3*high:
		return CP866
	}
	return CodePage
}

func decodeUTF16(data []byte, order binary.ByteOrder, encoding string) (string, string, error) {
	if len(data)%2 != 0 {
		return "", encoding, &Error{"damaged " + encoding + " (an odd number of bytes)"}
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = order.Uint16(data[2*i:])
	}
	text := string(utf16.Decode(units))
	if strings.IndexByte(text, 0) >= 0 {
		// A NUL character is no text a user writes: the guess was wrong.
		return "", Binary, &Error{Binary}
	}
	return text, encoding, nil
}
