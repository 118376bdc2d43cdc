package conv

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxIDLen is the longest record id the consolidated-file rules allow.
const MaxIDLen = 128

// ValidID reports whether s may be a record id under the consolidated-file
// rules: 1 to MaxIDLen bytes of ASCII letters, digits and "-_.:".
func ValidID(s string) bool {
	if s == "" || len(s) > MaxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IDByte(s[i]) {
			return false
		}
	}
	return true
}

// IDByte reports whether c may appear in a record id (see ValidID).
func IDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == ':'
}

// MakeID returns prefix+raw when that is a valid id. Otherwise (a list's
// own id with spaces, slashes or non-Latin letters, or one too long) every
// byte the rules refuse becomes "_", the result is cut to fit, and a short
// hash of raw is appended, so that two list ids that differ only in those
// bytes still give two record ids, and the same list id always gives the
// same record id from one edition to the next.
func MakeID(prefix, raw string) string {
	if id := prefix + raw; ValidID(id) {
		return id
	}
	sum := sha256.Sum256([]byte(raw))
	tail := "-" + hex.EncodeToString(sum[:6])
	b := []byte(prefix + raw)
	for i, c := range b {
		if !IDByte(c) {
			b[i] = '_'
		}
	}
	if len(b) > MaxIDLen-len(tail) {
		b = b[:MaxIDLen-len(tail)]
	}
	return string(b) + tail
}

// HashID returns prefix followed by 16 hex digits of the SHA-256 of the
// parts joined by a unit separator: the id of a record whose list gives
// none, stable for as long as the parts do not change.
func HashID(prefix string, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x1f")))
	return prefix + hex.EncodeToString(sum[:8])
}

// MaxInputBytes bounds the text a converter reads from one list, after
// decompression: ten times the largest public list it converts, so that a
// damaged or hostile file (a zip or gzip bomb, a file that never ends)
// stops with an error instead of filling the disk or the memory.
const MaxInputBytes int64 = 4 << 30

// ErrInputTooLarge is returned when a list is longer than its limit.
var ErrInputTooLarge = errors.New("input too large")

// LimitReader returns r, failing with an error wrapping ErrInputTooLarge
// once more than limit bytes have been read. io.LimitReader would end the
// input quietly instead, and a list cut short must never look complete.
func LimitReader(r io.Reader, limit int64, what string) io.Reader {
	return &capReader{r: r, left: limit, limit: limit, what: what}
}

type capReader struct {
	r     io.Reader
	left  int64
	limit int64
	what  string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a file of exactly the limit from a longer one.
		var one [1]byte
		for {
			n, err := c.r.Read(one[:])
			if n > 0 {
				return 0, fmt.Errorf("%s: more than %d bytes: %w", c.what, c.limit, ErrInputTooLarge)
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
