package dist

import (
	"crypto/rand"
	"fmt"
	"os"

	"aead.dev/minisign"

	"github.com/elemctl/elemctl/internal/releasekey"
)

// The variables `make dist` reads the signing key from.
const (
	// SigningKeyVariable holds the minisign secret key file's text.
	SigningKeyVariable = "ELEMCTL_SIGNING_KEY"
	// SigningKeyFileVariable names the file instead.
	SigningKeyFileVariable = "ELEMCTL_SIGNING_KEY_FILE"
	// SigningPasswordVariable is the key's password ("" for a key kept
	// without one).
	SigningPasswordVariable = "ELEMCTL_SIGNING_PASSWORD"
)

// SigningKeyFromEnv reads the release signing key from the environment. It
// refuses when there is none, and when the key is not one the binaries
// trust (internal/releasekey): they would refuse every update to the
// release.
func SigningKeyFromEnv(getenv func(string) string) (*minisign.PrivateKey, error) {
	text := []byte(getenv(SigningKeyVariable))
	if len(text) == 0 {
		file := getenv(SigningKeyFileVariable)
		if file == "" {
			return nil, fmt.Errorf("no signing key: a release's SHA256SUMS is signed with the key in %s (the secret key's text) or %s (its file), with %s its password; `make dist-unsigned` builds an unsigned release for local tests, which self-update refuses",
				SigningKeyVariable, SigningKeyFileVariable, SigningPasswordVariable)
		}
		var err error
		if text, err = os.ReadFile(file); err != nil {
			return nil, fmt.Errorf("the signing key %s: %w", SigningKeyFileVariable, err)
		}
	}
	key, err := releasekey.LoadPrivateKey(text, getenv(SigningPasswordVariable))
	if err != nil {
		return nil, fmt.Errorf("the signing key cannot be read (a minisign secret key, with %s its password): %w", SigningPasswordVariable, err)
	}
	trusted, err := releasekey.Trusted()
	if err != nil {
		return nil, err
	}
	pub := releasekey.PublicOf(key)
	for _, k := range trusted {
		if k.Equal(pub) {
			return &key, nil
		}
	}
	return nil, fmt.Errorf("the signing key %s is not one elemctl trusts (%s): self-update would refuse this release; add its public key %s to internal/releasekey first (docs/install.md, \"Rotating the signing key\")",
		releasekey.KeyID(key.ID()), releasekey.TrustedIDs(), pub.String())
}

// GenerateSigningKey makes a new release key: the secret key file's text
// (encrypted with password unless it is empty) and the public key's text
// for internal/releasekey.
func GenerateSigningKey(password string) (secret []byte, public string, err error) {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return nil, "", err
	}
	if password == "" {
		secret, err = priv.MarshalText()
	} else {
		secret, err = minisign.EncryptKey(password, priv)
	}
	return secret, pub.String(), err
}
