package textenc

import (
	"errors"
	"testing"
)

// cp1251 writes Russian text as Notepad's "ANSI" does on a Russian Windows.
func cp1251(s string) []byte {
	var out []byte
	for _, r := range s {
		switch {
		case r < 0x80:
			out = append(out, byte(r))
		case r >= 'А' && r <= 'я':
			out = append(out, byte(0xC0+r-'А'))
		case r == 'Ё':
			out = append(out, 0xA8)
		case r == 'ё':
			out = append(out, 0xB8)
		default:
			panic("not in the test's table: " + string(r))
		}
	}
	return out
}

func TestTextInACodePageIsNamedNotDecoded(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"Windows-1251", cp1251("ELEMENT_APP_ID=Задачи команды\r\nELEMENT_PROJECT_ID=Ёлка\r\n"), Windows1251},
		// "Задачи" in KOI8-R and in CP866
		{"KOI8-R", append([]byte("ELEMENT_APP_ID="), 0xFA, 0xC1, 0xC4, 0xC1, 0xDE, 0xC9), KOI8R},
		{"CP866", append([]byte("ELEMENT_APP_ID="), 0x87, 0xA0, 0xA4, 0xA0, 0xE7, 0xA8), CP866},
		{"Latin-1", []byte("ELEMENT_APP_ID=caf\xe9 cr\xe8me \xb5"), CodePage},
	} {
		t.Run(c.name, func(t *testing.T) {
			text, encoding, err := Decode(c.data)
			var e *Error
			if !errors.As(err, &e) || e.Encoding != c.want || encoding != c.want {
				t.Fatalf("Decode = %q, %q, %v; want the encoding %q named", text, encoding, err, c.want)
			}
		})
	}
}

func TestUTF8IsReadAsItIs(t *testing.T) {
	for _, data := range []string{"ELEMENT_APP_ID=Задачи\n", "A=1\n", "", "\xef\xbb\xbfA=Ё\n"} {
		text, _, err := Decode([]byte(data))
		if err != nil || text == "" && data != "" {
			t.Errorf("Decode(%q) = %q, %v", data, text, err)
		}
	}
}
