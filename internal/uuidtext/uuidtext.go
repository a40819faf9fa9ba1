// Package uuidtext recognises the textual form of a UUID. Both the client
// (name or id?) and the stand (is this path segment an id?) ask it, often;
// a hand-written check keeps a regular expression out of every start.
package uuidtext

// Valid tells whether s is 8-4-4-4-12 hexadecimal digits, any case.
func Valid(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
