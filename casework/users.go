package casework

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/amlscreen/amlscreen/store"
	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id parameters of a password hash. Each hash
// records its own, so raising them later leaves older hashes verifiable.
type Argon2Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
}

// DefaultArgon2 is OWASP's first recommended argon2id configuration
// (Password Storage Cheat Sheet): 19 MiB of memory, 2 passes, 1 thread;
// a 16-byte salt and a 32-byte key.
var DefaultArgon2 = Argon2Params{Memory: 19 * 1024, Time: 2, Threads: 1}

const (
	saltBytes = 16
	keyBytes  = 32
	// MinPasswordBytes and MaxPasswordBytes bound a password; the upper
	// bound keeps hashing cost bounded.
	MinPasswordBytes = 12
	MaxPasswordBytes = 1024
	// MaxUserBytes bounds a user name.
	MaxUserBytes = 64
	// maxArgonMemory refuses a stored hash that would make verification
	// take more than 256 MiB.
	maxArgonMemory = 256 * 1024
)

// UserInfo is a user as the store keeps it, without the password hash.
type UserInfo struct {
	Name     string    `json:"name"`
	Role     string    `json:"role"`
	Disabled bool      `json:"disabled"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// Stamp changes whenever the password, role or disabled flag does,
	// and only then: a sign-in session keeps the stamp it began with and
	// ends when the user's differs (a password reset ends her sessions).
	// It is derived, never stored, and reveals nothing of the password.
	Stamp string `json:"-"`
}

// info returns the user as callers see it, with her stamp.
func (su *storedUser) info() *UserInfo {
	u := su.UserInfo
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%t", su.Hash, su.Role, su.Disabled)))
	u.Stamp = hex.EncodeToString(sum[:8])
	return &u
}

// storedUser is the value of the users bucket.
type storedUser struct {
	UserInfo
	// Hash is the PHC string of the password:
	// $argon2id$v=19$m=MEMORY,t=TIME,p=THREADS$SALT$KEY (base64, no padding).
	Hash string `json:"hash"`
}

// ValidUserName reports why s cannot be a user name: 1 to 64 bytes of
// letters, digits and . _ @ -, starting with a letter or digit.
func ValidUserName(s string) error {
	if s == "" || len(s) > MaxUserBytes {
		return &FieldError{Field: "name", Msg: fmt.Sprintf("must be 1 to %d bytes", MaxUserBytes)}
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			i > 0 && strings.ContainsRune("._@-", r)
		if !ok {
			return &FieldError{Field: "name", Msg: fmt.Sprintf("%q: only letters, digits and . _ @ - (not first)", s)}
		}
	}
	return nil
}

func validPassword(p string) error {
	switch {
	case len(p) < MinPasswordBytes:
		return &FieldError{Field: "password", Msg: fmt.Sprintf("at least %d bytes", MinPasswordBytes)}
	case len(p) > MaxPasswordBytes:
		return &FieldError{Field: "password", Msg: fmt.Sprintf("at most %d bytes", MaxPasswordBytes)}
	case !utf8.ValidString(p):
		return &FieldError{Field: "password", Msg: "not valid UTF-8"}
	}
	return nil
}

// hashPassword returns the PHC string of p with a fresh salt.
func hashPassword(p string, ap Argon2Params) string {
	salt := make([]byte, saltBytes)
	rand.Read(salt) // never fails (crypto/rand)
	key := argon2.IDKey([]byte(p), salt, ap.Time, ap.Memory, ap.Threads, keyBytes)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, ap.Memory, ap.Time, ap.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// checkPassword reports whether p matches the PHC string h, comparing the
// keys in constant time. A malformed hash matches nothing.
func checkPassword(p, h string) bool {
	parts := strings.Split(h, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var ap Argon2Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &ap.Memory, &ap.Time, &ap.Threads); err != nil ||
		ap.Memory == 0 || ap.Memory > maxArgonMemory || ap.Time == 0 || ap.Time > 16 || ap.Threads == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 || len(want) > 64 {
		return false
	}
	got := argon2.IDKey([]byte(p), salt, ap.Time, ap.Memory, ap.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

func userIn(tx *store.Tx, name string) (*UserInfo, error) {
	su, err := storedUserIn(tx, name)
	if err != nil {
		return nil, err
	}
	return su.info(), nil
}

func storedUserIn(tx *store.Tx, name string) (*storedUser, error) {
	bk := store.Users.Bucket(tx)
	var v []byte
	if bk != nil && name != "" {
		v = bk.Get([]byte(name))
	}
	if v == nil {
		return nil, fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	var su storedUser
	if err := json.Unmarshal(v, &su); err != nil {
		return nil, fmt.Errorf("user %q: %w", name, err)
	}
	return &su, nil
}

func putUser(tx *store.Tx, su *storedUser) error {
	bk, err := store.Users.Create(tx)
	if err != nil {
		return err
	}
	v, err := json.Marshal(su)
	if err != nil {
		return err
	}
	return bk.Put([]byte(su.Name), v)
}

// AddUser adds the user name with role and password; an admin or an
// operator may. The password is hashed before the transaction starts.
func (c *Casework) AddUser(a Actor, name, role, password string) error {
	if err := ValidUserName(name); err != nil {
		return err
	}
	if _, err := ParseRole(role); err != nil {
		return err
	}
	if err := validPassword(password); err != nil {
		return err
	}
	h := hashPassword(password, c.argon)
	return c.update(func(tx *store.Tx, now time.Time, log *auditWriter) error {
		if _, err := authorize(tx, a, Admin, true); err != nil {
			return err
		}
		if _, err := userIn(tx, name); err == nil {
			return fmt.Errorf("user %q: %w", name, ErrExists)
		}
		su := &storedUser{UserInfo: UserInfo{Name: name, Role: role, Created: now, Updated: now}, Hash: h}
		if err := putUser(tx, su); err != nil {
			return err
		}
		return log.add(Entry{Actor: a.String(), Action: ActionUserAdd, User: name, Detail: "role " + role})
	})
}

// DisableUser disables the user name: it can no longer sign in or act.
// Its past work stays in the audit log; an admin or an operator may.
func (c *Casework) DisableUser(a Actor, name string) error {
	return c.changeUser(a, name, ActionUserDisable, "", func(su *storedUser) { su.Disabled = true })
}

// ResetPassword sets a new password for the user name and enables it
// again; an admin or an operator may.
func (c *Casework) ResetPassword(a Actor, name, password string) error {
	if err := validPassword(password); err != nil {
		return err
	}
	h := hashPassword(password, c.argon)
	return c.changeUser(a, name, ActionUserReset, "", func(su *storedUser) { su.Hash, su.Disabled = h, false })
}

func (c *Casework) changeUser(a Actor, name, action, detail string, change func(*storedUser)) error {
	return c.update(func(tx *store.Tx, now time.Time, log *auditWriter) error {
		if _, err := authorize(tx, a, Admin, true); err != nil {
			return err
		}
		su, err := storedUserIn(tx, name)
		if err != nil {
			return err
		}
		change(su)
		su.Updated = now
		if err := putUser(tx, su); err != nil {
			return err
		}
		return log.add(Entry{Actor: a.String(), Action: action, User: name, Detail: detail})
	})
}

// Users lists the users, by name.
func (c *Casework) Users() ([]UserInfo, error) {
	var out []UserInfo
	err := c.db.Read(func(tx *store.Tx) error {
		bk := store.Users.Bucket(tx)
		if bk == nil {
			return nil
		}
		return bk.ForEach(func(k, v []byte) error {
			var su storedUser
			if err := json.Unmarshal(v, &su); err != nil {
				return fmt.Errorf("user %q: %w", k, err)
			}
			out = append(out, *su.info())
			return nil
		})
	})
	slices.SortFunc(out, func(a, b UserInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}

// Authenticate returns the user name when password is its password and
// it is not disabled; any other case is ErrForbidden, after the same work,
// so that the answer does not say which users exist.
func (c *Casework) Authenticate(name, password string) (*UserInfo, error) {
	var su *storedUser
	err := c.db.Read(func(tx *store.Tx) error {
		var err error
		su, err = storedUserIn(tx, name)
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	h := c.dummyHash()
	if su != nil {
		h = su.Hash
	}
	ok := len(password) <= MaxPasswordBytes && checkPassword(password, h)
	if su == nil || !ok || su.Disabled {
		return nil, fmt.Errorf("sign-in as %q: %w", name, ErrForbidden)
	}
	return su.info(), nil
}
