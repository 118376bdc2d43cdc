package casework

import (
	"errors"
	"fmt"
	"time"

	"github.com/amlscreen/amlscreen/store"
)

// User returns the user name as the store holds it now; ErrNotFound
// when there is none. Sign-in sessions read it on every request, so that
// a user disabled or given another role since loses her sessions.
func (c *Casework) User(name string) (*UserInfo, error) {
	var u *UserInfo
	err := c.db.Read(func(tx *store.Tx) error {
		var err error
		u, err = userIn(tx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// ActionUserRole is an audit entry for a user's role set from her
// identity provider's claim at sign-in.
const ActionUserRole = "user.role"

// SignInExternal records that name signed in through the identity
// provider issuer with role, as its claims say, and returns her: a user
// the store does not hold is added with that role and no password (she
// signs in through the provider only); a user it holds gets that role.
// A disabled user is refused with ErrForbidden. Additions and changes
// of role are in the audit log, by operator "oidc:" and the issuer; a
// sign-in that changes nothing writes nothing.
func (c *Casework) SignInExternal(name, role, issuer string) (*UserInfo, error) {
	if err := ValidUserName(name); err != nil {
		return nil, err
	}
	if _, err := ParseRole(role); err != nil {
		return nil, err
	}
	// Most sign-ins change nothing: a read transaction answers them.
	if u, err := c.User(name); err == nil && u.Role == role && !u.Disabled {
		return u, nil
	}
	actor := Operator("oidc:" + issuer).String()
	var out *UserInfo
	err := c.update(func(tx *store.Tx, now time.Time, log *auditWriter) error {
		su, err := storedUserIn(tx, name)
		switch {
		case errors.Is(err, ErrNotFound):
			su = &storedUser{UserInfo: UserInfo{Name: name, Role: role, Created: now, Updated: now}}
			if err := putUser(tx, su); err != nil {
				return err
			}
			out = su.info()
			return log.add(Entry{Actor: actor, Action: ActionUserAdd, User: name, Detail: "role " + role + ", signs in through " + issuer})
		case err != nil:
			return err
		case su.Disabled:
			return fmt.Errorf("user %q is disabled: %w", name, ErrForbidden)
		case su.Role == role:
			out = su.info()
			return nil
		}
		old := su.Role
		su.Role, su.Updated = role, now
		if err := putUser(tx, su); err != nil {
			return err
		}
		out = su.info()
		return log.add(Entry{Actor: actor, Action: ActionUserRole, User: name, Detail: "role " + old + " → " + role})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
