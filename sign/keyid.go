package sign

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Aliases accepted by [Keyring.Document] in place of a key id, as in
// GET /v1/keys/current. They are never key ids themselves, so a keyring
// refuses them as names and a [Verifier] refuses them in a header: a
// signature names the key that made it, not whichever key is current now.
const (
	AliasCurrent  = "current"  // the key that signs now
	AliasPrevious = "previous" // the key replaced by the last rotation
)

var (
	// ErrInvalidKeyID reports a key id with characters outside letters,
	// digits, '.', '_', ':' and '-'; the server answers it with 400.
	ErrInvalidKeyID = errors.New("invalid key id")
	// ErrUnknownKey reports a well-formed key id that names no key; the
	// server answers it with 404.
	ErrUnknownKey = errors.New("unknown key id")
)

// ValidKeyID reports whether kid is non-empty and made only of the
// characters docs/API.md "Keys and signatures" allows: ASCII letters and digits, '.', '_',
// ':' and '-'. Non-ASCII letters are refused so that an id is the same
// string in a URL path, a header and a file name.
func ValidKeyID(kid string) bool {
	if kid == "" {
		return false
	}
	for i := 0; i < len(kid); i++ {
		c := kid[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

// checkKeyID returns an error wrapping ErrInvalidKeyID when kid is not a
// valid id.
func checkKeyID(kid string) error {
	if !ValidKeyID(kid) {
		return fmt.Errorf("%w: %q: only letters, digits, '.', '_', ':' and '-' are allowed", ErrInvalidKeyID, kid)
	}
	return nil
}

// newKeyID names a key after its creation time so that a directory listing
// sorts in creation order, with a random suffix so that two keys made in the
// same second (or on two machines) never share an id.
func newKeyID(now time.Time) (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("key id: %w", err)
	}
	return "k-" + now.UTC().Format("2006-01-02T15-04-05Z") + "-" + hex.EncodeToString(b[:]), nil
}
