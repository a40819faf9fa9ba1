// Package releasekey holds the public keys elemctl's releases are signed
// with, and the one way a release's SHA256SUMS is signed (make dist) and
// verified (self-update): an Ed25519 signature in minisign's format,
// SHA256SUMS.minisig, whose trusted comment names the release.
//
// A binary trusts the keys compiled into it. During a key rotation the list
// holds the old key and the new one, so binaries built before the rotation
// accept releases signed with either until every supported release
// carries the new one (docs/install.md, "Rotating the signing key").
package releasekey

import (
	"errors"
	"fmt"
	"strings"

	"aead.dev/minisign"
)

// SignatureName is the signature file beside SHA256SUMS.
const SignatureName = "SHA256SUMS.minisig"

// keys are the trusted public keys in minisign's text form (the second
// line of a minisign .pub file), separated by spaces or commas. Tests link
// other keys in with -X github.com/elemctl/elemctl/internal/releasekey.keys=...
var keys = "RWRumwvqm702o5xMn+vL5aJBtAzDhbnJNP7BWKWGLiilDCpS5KpR4NvL"

// Trusted are the compiled-in public keys.
func Trusted() ([]minisign.PublicKey, error) {
	var out []minisign.PublicKey
	for _, line := range strings.FieldsFunc(keys, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		var k minisign.PublicKey
		if err := k.UnmarshalText([]byte(line)); err != nil {
			return nil, fmt.Errorf("the compiled-in release key %q: %w", line, err)
		}
		out = append(out, k)
	}
	return out, nil
}

// KeyID is a key's id as minisign prints it.
func KeyID(id uint64) string { return fmt.Sprintf("%016X", id) }

// TrustedIDs are the ids of the compiled-in keys, comma separated.
func TrustedIDs() string {
	ks, _ := Trusted()
	ids := make([]string, len(ks))
	for i, k := range ks {
		ids[i] = KeyID(k.ID())
	}
	return strings.Join(ids, ", ")
}

// Comment is the trusted comment of a release's signature: it binds the
// checksums to the release, so a signed SHA256SUMS of an older release
// cannot be passed off as a newer one.
func Comment(version string) string { return "elemctl " + version + " SHA256SUMS" }

// Sign signs a release's SHA256SUMS.
func Sign(key minisign.PrivateKey, sums []byte, version string) []byte {
	return minisign.SignWithComments(key, sums, Comment(version), "signature of elemctl "+version+" SHA256SUMS, key "+KeyID(key.ID()))
}

// LoadPrivateKey reads a minisign secret key file's text, decrypting it
// with password when it is encrypted.
func LoadPrivateKey(text []byte, password string) (minisign.PrivateKey, error) {
	if minisign.IsEncrypted(text) {
		return minisign.DecryptKey(password, text)
	}
	var k minisign.PrivateKey
	err := k.UnmarshalText(text)
	return k, err
}

// PublicOf is the public key of a private one.
func PublicOf(key minisign.PrivateKey) minisign.PublicKey {
	return key.Public().(minisign.PublicKey)
}

// Why a signature is refused.
var (
	// ErrMalformed: the file is no minisign signature.
	ErrMalformed = errors.New("not a minisign signature")
	// ErrMismatch: made by a trusted key, but over other bytes.
	ErrMismatch = errors.New("the signature does not match the file")
)

// ForeignKeyError: the signature was made by a key the binary does not
// trust.
type ForeignKeyError struct{ KeyID string }

func (e *ForeignKeyError) Error() string {
	return "signed by key " + e.KeyID + ", which is not trusted"
}

// OtherReleaseError: a good signature whose trusted comment names another
// release.
type OtherReleaseError struct{ Comment string }

func (e *OtherReleaseError) Error() string { return "the signature is for " + e.Comment }

// Verify checks a release's SHA256SUMS against its signature and the
// trusted keys.
func Verify(trusted []minisign.PublicKey, sums, signature []byte, version string) error {
	var sig minisign.Signature
	if err := sig.UnmarshalText(signature); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	for _, k := range trusted {
		if k.ID() != sig.KeyID {
			continue
		}
		if !minisign.Verify(k, sums, signature) {
			return ErrMismatch
		}
		if sig.TrustedComment != Comment(version) {
			return &OtherReleaseError{Comment: sig.TrustedComment}
		}
		return nil
	}
	return &ForeignKeyError{KeyID: KeyID(sig.KeyID)}
}
