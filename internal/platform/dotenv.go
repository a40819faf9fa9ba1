package platform

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// DotEnv is a parsed .env file: values in the order their keys first
// appeared, later duplicates overwriting earlier values.
type DotEnv struct {
	Keys   []string
	Values map[string]string
	// Encoding is how the file was written: "UTF-8", "UTF-8 with BOM",
	// "UTF-16 LE" or "UTF-16 BE".
	Encoding string
}

// Get returns the value of key and whether the file set it to something
// non-empty (an empty value is kept but does not count as set).
func (d *DotEnv) Get(key string) (string, bool) {
	if d == nil {
		return "", false
	}
	v, ok := d.Values[key]
	return v, ok && v != ""
}

// Encodings of .env files as messages name them.
const (
	EncodingUTF8    = "UTF-8"
	EncodingUTF8BOM = "UTF-8 with BOM"
	EncodingUTF16LE = "UTF-16 LE"
	EncodingUTF16BE = "UTF-16 BE"
	EncodingUTF32LE = "UTF-32 LE"
	EncodingUTF32BE = "UTF-32 BE"
	EncodingBinary  = "binary (NUL bytes)"
)

// DotEnvEncodingError is a .env file in an encoding elemctl does not read:
// UTF-32, damaged UTF-16, or not text at all.
type DotEnvEncodingError struct{ Encoding string }

func (e *DotEnvEncodingError) Error() string {
	return "the .env file is in " + e.Encoding + ", not UTF-8 or UTF-16"
}

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	bomUTF32LE = []byte{0xFF, 0xFE, 0x00, 0x00}
	bomUTF32BE = []byte{0x00, 0x00, 0xFE, 0xFF}
)

// DecodeDotEnv turns the bytes of a .env file into text. Windows editors
// save .env files in more than UTF-8: Notepad's "Unicode" is UTF-16 LE
// with a byte-order mark, "Unicode big endian" UTF-16 BE, and "UTF-8 with
// BOM" puts EF BB BF first. All of them are read. UTF-16 without a mark is
// recognised by the zero bytes of its ASCII characters. UTF-32 and files
// with NUL bytes that are not UTF-16 are refused with their encoding named,
// so a user learns why no variable was found.
func DecodeDotEnv(data []byte) (text, encoding string, err error) {
	switch {
	case bytes.HasPrefix(data, bomUTF32LE):
		return "", EncodingUTF32LE, &DotEnvEncodingError{EncodingUTF32LE}
	case bytes.HasPrefix(data, bomUTF32BE):
		return "", EncodingUTF32BE, &DotEnvEncodingError{EncodingUTF32BE}
	case bytes.HasPrefix(data, bomUTF8):
		return string(data[len(bomUTF8):]), EncodingUTF8BOM, nil
	case bytes.HasPrefix(data, bomUTF16LE):
		return decodeUTF16(data[2:], binary.LittleEndian, EncodingUTF16LE)
	case bytes.HasPrefix(data, bomUTF16BE):
		return decodeUTF16(data[2:], binary.BigEndian, EncodingUTF16BE)
	}
	if bytes.IndexByte(data, 0) < 0 {
		return string(data), EncodingUTF8, nil
	}
	// No mark but zero bytes: UTF-16 when the first character is ASCII,
	// its zero byte on the side of the byte order.
	if len(data) >= 2 {
		switch {
		case data[0] != 0 && data[1] == 0:
			return decodeUTF16(data, binary.LittleEndian, EncodingUTF16LE)
		case data[0] == 0 && data[1] != 0:
			return decodeUTF16(data, binary.BigEndian, EncodingUTF16BE)
		}
	}
	return "", EncodingBinary, &DotEnvEncodingError{EncodingBinary}
}

func decodeUTF16(data []byte, order binary.ByteOrder, encoding string) (string, string, error) {
	if len(data)%2 != 0 {
		return "", encoding, &DotEnvEncodingError{"damaged " + encoding + " (an odd number of bytes)"}
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = order.Uint16(data[2*i:])
	}
	text := string(utf16.Decode(units))
	if strings.IndexByte(text, 0) >= 0 {
		// A NUL character is no text a .env holds: the guess was wrong.
		return "", EncodingBinary, &DotEnvEncodingError{EncodingBinary}
	}
	return text, encoding, nil
}

// ParseDotEnv reads .env bytes (any encoding DecodeDotEnv reads) with the
// rules users' files were written for: each line trimmed; blank lines and
// lines starting with # skipped; a leading "export " dropped; lines without
// "=" skipped; split on the first "="; key and value trimmed; a value of at
// least two characters wrapped in the same quote (' or ") is unwrapped with
// no escape processing; later duplicates win.
func ParseDotEnv(data []byte) (*DotEnv, error) {
	text, encoding, err := DecodeDotEnv(data)
	if err != nil {
		return nil, err
	}
	env := ParseDotEnvText(text)
	env.Encoding = encoding
	return env, nil
}

// ParseDotEnvText applies the line rules of ParseDotEnv to decoded text.
func ParseDotEnvText(text string) *DotEnv {
	env := &DotEnv{Values: map[string]string{}, Encoding: EncodingUTF8}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			line = strings.TrimSpace(rest)
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if key == "" {
			continue
		}
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		if _, seen := env.Values[key]; !seen {
			env.Keys = append(env.Keys, key)
		}
		env.Values[key] = value
	}
	return env
}
