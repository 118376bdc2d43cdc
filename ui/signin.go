package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/amlscreen/amlscreen/casework"
)

// This file signs people in: local users of the store's casework with a
// password, and (oidc.go) people of the bank's identity provider. API-key
// sign-in stays in pages.go, for machines and sites without users.

// identify returns the identity s acts with through the /v1 API: its key
// for an API-key session; for a person, Config.PeopleKey with her name as
// who decides, or nil when there is none. An error means the session may
// no longer be used: its key is disabled or removed, or its person is
// disabled, removed or has another role since she signed in.
func (h *handler) identify(s *session) (*Identity, error) {
	if s.user == "" {
		return h.b.SignIn(s.secret)
	}
	u, err := h.person(s.user, s.role)
	if err != nil {
		return nil, err
	}
	if u.Stamp != s.stamp {
		return nil, fmt.Errorf("the account of %q changed since she signed in", s.user)
	}
	if h.cfg.PeopleKey == nil {
		return nil, nil
	}
	secret := h.cfg.PeopleKey()
	if secret == "" {
		return nil, nil
	}
	k, err := h.b.SignIn(secret)
	if err != nil {
		// The people's key was disabled: people still work alerts.
		return nil, nil
	}
	return &Identity{ID: k.ID, Name: s.user, Features: k.Features, secret: secret}, nil
}

// person returns the user name of the casework when she may work: known,
// not disabled, and of role when role is not "".
func (h *handler) person(name, role string) (*casework.UserInfo, error) {
	if h.cfg.Casework == nil {
		return nil, errors.New("this server has no casework store")
	}
	u, err := h.cfg.Casework.User(name)
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, fmt.Errorf("user %q is disabled", name)
	}
	if role != "" && u.Role != role {
		return nil, fmt.Errorf("user %q is %s now, not %s", name, u.Role, role)
	}
	return u, nil
}

// actor is who s acts as in the casework: the person signed in, or for an
// API-key session an operator named after the key, which casework refuses
// for working alerts (assign, comment, propose, review). Casework lets an
// operator manage users and settings: pages that do must first pass
// requireRole(casework.Admin), which no API-key session passes.
func (h *handler) actor(s *session) casework.Actor {
	if s.user != "" {
		return casework.User(s.user)
	}
	return casework.Operator("key " + s.name)
}

// roleRank orders roles as casework does: 0 for none (an API-key
// session), then analyst, reviewer, admin.
func roleRank(role string) int { return slices.Index(casework.Roles, role) + 1 }

// requireRole reports whether s is a person of role min or above; if not,
// it answers 403 with a page saying what is needed, and the caller stops.
func (h *handler) requireRole(w http.ResponseWriter, r *http.Request, s *session, min string) bool {
	switch {
	case s == nil:
		h.fail(w, r, nil, http.StatusUnauthorized, "Your session has ended. Sign in again, then repeat what you were doing.")
		return false
	case s.user == "":
		h.fail(w, r, s, http.StatusForbidden, "This needs a person signed in as "+article(min)+" or above; an API key cannot do it. Sign out, then sign in with your own name.")
		return false
	case roleRank(s.role) < roleRank(min):
		h.fail(w, r, s, http.StatusForbidden, fmt.Sprintf("This needs the role %s or above; you are signed in as %s.", min, article(s.role)))
		return false
	}
	return true
}

// article is role with its indefinite article.
func article(role string) string {
	if role != "" && strings.IndexByte("aeiou", role[0]) >= 0 {
		return "an " + role
	}
	return "a " + role
}

// Bounds of password sign-in. Failures are counted per name (whether the
// user exists or not, so that the answer says nothing about which do) and
// per client address, in windows of signinWindow; a name or address at
// its bound is refused before any password is checked. At most
// maxHashing passwords are checked at once: each check takes 19 MiB.
const (
	signinWindow       = 15 * time.Minute
	maxFailsPerName    = 5
	maxFailsPerAddress = 30
	maxAttemptKeys     = 100_000
	maxHashing         = 4
)

// attempts counts failed sign-ins per name and per address.
type attempts struct {
	mu sync.Mutex
	m  map[string]*tries
}

type tries struct {
	n     int
	since time.Time
}

func newAttempts() *attempts { return &attempts{m: map[string]*tries{}} }

// blocked reports whether key has failed limit times in the window
// ending now. A table full of live counts blocks everyone: it can only
// fill under an attack from 100,000 names or addresses at once.
func (a *attempts) blocked(key string, limit int, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.m[key]
	if t != nil && now.Sub(t.since) >= signinWindow {
		delete(a.m, key)
		t = nil
	}
	if t == nil && len(a.m) >= maxAttemptKeys {
		a.sweepLocked(now)
		return len(a.m) >= maxAttemptKeys
	}
	return t != nil && t.n >= limit
}

// fail counts a failure of key.
func (a *attempts) fail(key string, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.m[key]
	if t == nil || now.Sub(t.since) >= signinWindow {
		if len(a.m) >= maxAttemptKeys {
			a.sweepLocked(now)
		}
		t = &tries{since: now}
		a.m[key] = t
	}
	t.n++
}

// reset forgets the failures of key (a name that signed in).
func (a *attempts) reset(key string) {
	a.mu.Lock()
	delete(a.m, key)
	a.mu.Unlock()
}

func (a *attempts) sweepLocked(now time.Time) {
	for k, t := range a.m {
		if now.Sub(t.since) >= signinWindow {
			delete(a.m, k)
		}
	}
}

// clientAddress is the address a request came from, without its port.
// X-Forwarded-For is not read: any client can set it.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// signinPassword signs a local user in with her name and password.
func (h *handler) signinPassword(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	next := localURL(r.PostForm.Get("next"), "")
	c, err := r.Cookie(signinCookie)
	if err != nil || !sameToken(r.PostForm.Get("token"), c.Value) {
		h.showSignin(w, r, http.StatusForbidden, "The sign-in form expired. Sign in again.", next)
		return nil
	}
	if h.cfg.Casework == nil {
		h.showSignin(w, r, http.StatusNotFound, "This server has no users: sign in with an API key.", next)
		return nil
	}
	name := strings.TrimSpace(r.PostForm.Get("name"))
	password := r.PostForm.Get("password")
	if name == "" || password == "" {
		h.showSignin(w, r, http.StatusBadRequest, "Enter your name and your password.", next)
		return nil
	}
	now := h.now()
	nameKey, addrKey := "n:"+strings.ToLower(name), "a:"+clientAddress(r)
	if h.attempts.blocked(nameKey, maxFailsPerName, now) || h.attempts.blocked(addrKey, maxFailsPerAddress, now) {
		h.log.Warn("workbench sign-in refused: too many failures", "user", name, "remote", r.RemoteAddr)
		h.showSignin(w, r, http.StatusTooManyRequests, fmt.Sprintf("Too many failed sign-ins for this name or from this address: try again in %s.", spell(signinWindow)), next)
		return nil
	}
	u, err := h.checkPassword(r.Context(), name, password)
	if err != nil {
		if errors.Is(err, casework.ErrForbidden) {
			h.attempts.fail(nameKey, now)
			h.attempts.fail(addrKey, now)
			h.log.Warn("workbench sign-in refused", "user", name, "remote", r.RemoteAddr)
			h.showSignin(w, r, http.StatusUnauthorized, "The name or the password is not right, or this user may not sign in.", next)
			return nil
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			h.showSignin(w, r, http.StatusServiceUnavailable, "The workbench is busy checking other sign-ins; try again.", next)
			return nil
		}
		return err
	}
	h.attempts.reset(nameKey)
	return h.startPerson(w, r, u, "password", next)
}

// checkPassword runs casework's password check, at most maxHashing at
// once.
func (h *handler) checkPassword(ctx context.Context, name, password string) (*casework.UserInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	select {
	case h.hashing <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-h.hashing }()
	return h.cfg.Casework.Authenticate(name, password)
}

// startPerson starts the session of the person u and sends her on to
// next, or to the first page she may use.
func (h *handler) startPerson(w http.ResponseWriter, r *http.Request, u *casework.UserInfo, via, next string) error {
	s, ok := h.sessions.createPerson(u.Name, u.Role, u.Stamp, via, h.now())
	if !ok {
		h.showSignin(w, r, http.StatusServiceUnavailable, "The workbench has too many open sessions; try again later.", next)
		return nil
	}
	h.log.Info("workbench sign-in", "user", u.Name, "role", u.Role, "via", via, "remote", r.RemoteAddr)
	h.setCookie(w, r, signinCookie, "", -1)
	h.setCookie(w, r, sessionCookie, s.token, int(h.sessions.ttl/time.Second))
	if next == "" {
		next = h.landing(s)
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// landing is the first page of a session: personHome for a person when
// set (the alert queue), else the screen page.
func (h *handler) landing(s *session) string {
	if s.user != "" && personHome != "" {
		return personHome
	}
	return Prefix + "screen"
}

// personHome is where a person lands after signing in, set by the file
// that serves the alert queue; "" for the screen page.
var personHome = ""
