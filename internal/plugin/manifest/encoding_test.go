package manifest

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/elemctl/elemctl/internal/i18n"
)

// utf16Text is text as Windows PowerShell 5.1's `>` writes it: UTF-16 with
// a byte-order mark.
func utf16Text(s string, order binary.ByteOrder) string {
	units := utf16.Encode([]rune(s))
	out := make([]byte, 2+2*len(units))
	order.PutUint16(out, 0xFEFF)
	for i, u := range units {
		order.PutUint16(out[2+2*i:], u)
	}
	return string(out)
}

// TestManifestInWindowsEncodings: a manifest saved by PowerShell 5.1 (UTF-16
// LE), as big-endian UTF-16 or with a UTF-8 BOM is read like a UTF-8 one;
// UTF-32 is refused with its encoding named.
func TestManifestInWindowsEncodings(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.EN)
	const text = "{\r\n  \"name\": \"otchet\",\r\n  \"version\": \"Сводка 1\",\r\n  \"executable\": \"run\",\r\n  \"commands\": [{\"name\": \"c\"}]\r\n}\r\n"
	for name, data := range map[string]string{
		"utf-16 le (PowerShell 5.1 >)": utf16Text(text, binary.LittleEndian),
		"utf-16 be":                    utf16Text(text, binary.BigEndian),
		"utf-8 with bom":               "\xef\xbb\xbf" + text,
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Load(ctx, plugin(t, t.TempDir(), "p", data), Options{Getenv: envOf(nil)})
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != "otchet" || p.Version != "Сводка 1" || len(p.Commands) != 1 {
				t.Fatalf("read %+v", p)
			}
		})
	}
	_, err := Load(ctx, plugin(t, t.TempDir(), "p", "\xff\xfe\x00\x00{\x00\x00\x00"), Options{Getenv: envOf(nil)})
	if err == nil || !strings.Contains(err.Error(), "is in UTF-32 LE, not UTF-8 or UTF-16") {
		t.Fatalf("UTF-32: %v", err)
	}
}
