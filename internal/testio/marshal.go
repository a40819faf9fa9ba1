package testio

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TrickyText is a text that JSON encoders are apt to write differently:
// HTML's special characters, U+2028 and U+2029, quotes, a backslash,
// control characters, Cyrillic and broken UTF-8.
const TrickyText = "<b>&amp;</b> \u2028\u2029 \"quoted\" \\ \n\t Приложение \xff\xfe end"

// EncodesAsJSONMarshal fails t for each message that encode writes
// otherwise than json.Marshal does, byte for byte.
func EncodesAsJSONMarshal[M any](t testing.TB, encode func(M) ([]byte, error), messages []M) {
	t.Helper()
	for i, m := range messages {
		got, err := encode(m)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("message %d (%T):\n got %s\nwant %s", i, m, got, want)
		}
	}
}
