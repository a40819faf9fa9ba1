package stand

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/elemctl/elemctl/internal/uuidtext"
)

// newID returns a time-ordered UUID (version 7), the shape the platform's ids
// have, so clients that tell ids from names by the UUID pattern behave as
// they do against a real console.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	ms := uint64(time.Now().UnixMilli())
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], ms)
	copy(b[0:6], ts[2:8])
	b[6] = (b[6] & 0x0f) | 0x70
	b[8] = (b[8] & 0x3f) | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// randomHex returns n random bytes as lower-case hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func isUUID(s string) bool { return uuidtext.Valid(s) }

// newJWT builds a JWT-shaped token: three base64url segments. The signature
// is random; the stand recognises its tokens by lookup, not by verification.
func newJWT(subject string, issued, expires time.Time) string {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT"})
	payload, _ := json.Marshal(map[string]any{
		"sub": subject,
		"iat": issued.Unix(),
		"exp": expires.Unix(),
		"jti": randomHex(8),
	})
	sig := make([]byte, 64)
	_, _ = rand.Read(sig)
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "." + enc.EncodeToString(sig)
}

// isoTime formats a moment the way the stand's answers carry dates: UTC,
// millisecond precision, trailing Z. Fixed width keeps the text sortable.
func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// manifestTime formats the Created line of Assembly.yaml.
func manifestTime(t time.Time) string { return t.UTC().Format("2006.01.02 15:04:05") }
