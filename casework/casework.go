package casework

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/store"
)

var keyFourEyesOff = []byte("four_eyes_off")

// Casework reads and changes the casework of a store. Its methods are safe
// for concurrent use; every change is one transaction.
type Casework struct {
	db    *store.Store
	now   func() time.Time
	argon Argon2Params
	// dummyHash is verified against when a sign-in names no user, so that
	// the answer takes as long as for a user that exists: it is made with
	// the parameters the users' hashes are made with.
	dummyHash func() string
}

// Options configures New; the zero value works.
type Options struct {
	// Now stamps changes; nil means time.Now.
	Now func() time.Time
	// Argon2 are the parameters new password hashes are made with; the
	// zero value means DefaultArgon2 (tests lower them).
	Argon2 Argon2Params
}

// New returns the casework of db, which must stay open while it is used.
// Reads work on a store opened read-only.
func New(db *store.Store, o Options) *Casework {
	c := &Casework{db: db, now: o.Now, argon: o.Argon2}
	if c.now == nil {
		c.now = time.Now
	}
	if c.argon == (Argon2Params{}) {
		c.argon = DefaultArgon2
	}
	c.dummyHash = sync.OnceValue(func() string { return hashPassword("no user has this password", c.argon) })
	return c
}

// Roles of users.
const (
	// Analyst works alerts: assigns them to herself, comments, proposes.
	Analyst = "analyst"
	// Reviewer also approves and sends back proposals of others, and
	// assigns alerts to anyone.
	Reviewer = "reviewer"
	// Admin also manages users and settings.
	Admin = "admin"
)

// Roles lists the roles, least powerful first.
var Roles = []string{Analyst, Reviewer, Admin}

// ParseRole checks a role name.
func ParseRole(s string) (string, error) {
	for _, r := range Roles {
		if s == r {
			return r, nil
		}
	}
	return "", &FieldError{Field: "role", Msg: fmt.Sprintf("%q is not analyst, reviewer or admin", s)}
}

// rank orders roles: each may do what the ones below it may.
func rank(role string) int {
	for i, r := range Roles {
		if role == r {
			return i + 1
		}
	}
	return 0
}

// Actor is who asks for a change: a user of the store, or an operator
// holding the store file.
type Actor struct {
	name     string
	operator bool
}

// User is the actor signed in as the user name; its role is read from
// the store at every change.
func User(name string) Actor { return Actor{name: name} }

// Operator is someone with the store file in hand (the command line),
// named by label in the audit log: allowed to manage users and settings,
// never to propose or review.
func Operator(label string) Actor { return Actor{name: label, operator: true} }

// String is the actor as the audit log names it: the user's name, or
// "operator:" and the label.
func (a Actor) String() string {
	if a.operator {
		return "operator:" + a.name
	}
	return a.name
}

// Errors the package returns; they are wrapped with the alert or user
// they concern.
var (
	// ErrForbidden is an action the actor's role, status or identity
	// does not allow (a reviewer approving her own proposal among them).
	ErrForbidden = errors.New("not allowed")
	// ErrState is an action the alert's status does not allow.
	ErrState = errors.New("not possible in this status")
	// ErrNotFound is an alert or user the store does not hold.
	ErrNotFound = errors.New("not found")
	// ErrExists is a user added twice.
	ErrExists = errors.New("already exists")
)

// FieldError is a value that breaks a rule; Field names it. It is
// decision's, whose text rules (decision.CheckText) casework shares.
type FieldError = decision.FieldError

// authorize checks, inside tx, that a may act with at least role min:
// an active user of that rank, or an operator when operators are allowed.
func authorize(tx *store.Tx, a Actor, min string, operatorOK bool) (*UserInfo, error) {
	if a.operator {
		if operatorOK && a.name != "" {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w: working alerts needs a signed-in user", a, ErrForbidden)
	}
	u, err := userIn(tx, a.name)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("user %q: %w", a.name, ErrForbidden)
	}
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, fmt.Errorf("user %q is disabled: %w", a.name, ErrForbidden)
	}
	if rank(u.Role) < rank(min) {
		return nil, fmt.Errorf("user %q is %s, this needs %s: %w", a.name, u.Role, min, ErrForbidden)
	}
	return u, nil
}
