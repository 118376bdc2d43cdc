package ui

import (
	"cmp"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"slices"
	"sync"
	"time"
)

// session is a signed-in browser. Its token is the cookie's value; csrf
// is the token every form of the session carries.
type session struct {
	token   string
	csrf    string
	secret  string // the API key, checked again on every request; "" for a person
	keyID   string // the key's id, or "user:" and the person's name: sessions per key are bounded
	name    string // the key's or the person's name when signed in, for logs
	created time.Time
	n       uint64 // order of creation, for sessions created at one instant
	seen    time.Time
	flash   string // a message for the next page, shown once

	// user is the person signed in (a user of the store's casework) and
	// role her role, read again on every request; both are "" for an
	// API-key session.
	user string
	role string
	// stamp is the person's account as she signed in
	// (casework.UserInfo.Stamp): a change since (a password reset, a new
	// role, disabling) ends the session.
	stamp string
	// via says how the person signed in: "password" or "oidc".
	via string
}

// sessions holds the sessions of one handler, in memory: a restart signs
// everyone out, which is what a workbench holding API keys should do.
type sessions struct {
	mu     sync.Mutex
	m      map[string]*session
	ttl    time.Duration // absolute lifetime
	idle   time.Duration // lifetime without a request
	max    int           // sessions at once
	perKey int           // sessions of one key at once; a new one ends the oldest
	// valid reports whether a key may still sign in (not disabled or
	// removed since); nil: every key. Sessions of keys that may not are
	// dropped when the table is full, and at most once a minute.
	valid func(secret string) bool
	// validUser reports whether a person may still sign in; nil: every
	// person. Used as valid is, for sessions of people.
	validUser func(name string) bool
	lastPrune time.Time
	created   uint64 // sessions created so far
}

func newSessions(ttl, idle time.Duration, max, perKey int, valid func(string) bool) *sessions {
	return &sessions{m: map[string]*session{}, ttl: ttl, idle: idle, max: max, perKey: perKey, valid: valid}
}

// randomToken returns 32 random bytes, URL-safe base64.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// create starts a session for secret, the key keyID; ok is false when
// the handler already holds its maximum of live sessions. A key at its
// own bound (perKey) loses its oldest session instead: one key can never
// fill the table and lock the others out.
func (ss *sessions) create(secret, keyID, name string, now time.Time) (*session, bool) {
	return ss.createFor(&session{secret: secret, keyID: keyID, name: name}, now)
}

// createPerson starts a session for the person user with role, signed in
// through via; people count against the per-key bound under "user:" and
// their name.
func (ss *sessions) createPerson(user, role, stamp, via string, now time.Time) (*session, bool) {
	return ss.createFor(&session{keyID: "user:" + user, name: user, user: user, role: role, stamp: stamp, via: via}, now)
}

// createFor starts the session s, filled in but for its tokens and times.
func (ss *sessions) createFor(s *session, now time.Time) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.sweepLocked(now)
	if len(ss.m) >= ss.max || now.Sub(ss.lastPrune) >= time.Minute {
		ss.pruneLocked(now)
	}
	var mine []*session
	for _, o := range ss.m {
		if o.keyID == s.keyID {
			mine = append(mine, o)
		}
	}
	if len(mine) >= ss.perKey {
		slices.SortFunc(mine, func(a, b *session) int { return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.n, b.n)) })
		for _, o := range mine[:len(mine)-ss.perKey+1] {
			delete(ss.m, o.token)
		}
	}
	if len(ss.m) >= ss.max {
		return nil, false
	}
	ss.created++
	s.token, s.csrf, s.created, s.n, s.seen = randomToken(), randomToken(), now, ss.created, now
	ss.m[s.token] = s
	return s, true
}

// pruneLocked drops the sessions of keys that may no longer sign in: a
// key disabled or removed by a reload of the keys file frees its places
// without waiting for its sessions' next request.
func (ss *sessions) pruneLocked(now time.Time) {
	ss.lastPrune = now
	keyOK, userOK := map[string]bool{}, map[string]bool{}
	for t, s := range ss.m {
		check, arg, ok := ss.valid, s.secret, keyOK
		if s.user != "" {
			check, arg, ok = ss.validUser, s.user, userOK
		}
		if check == nil {
			continue
		}
		v, seen := ok[arg]
		if !seen {
			v = check(arg)
			ok[arg] = v
		}
		if !v {
			delete(ss.m, t)
		}
	}
}

// endKey drops every session of the key keyID.
func (ss *sessions) endKey(keyID string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for t, s := range ss.m {
		if s.keyID == keyID {
			delete(ss.m, t)
		}
	}
}

// get returns the live session of token and marks it seen; expired ones
// are dropped.
func (ss *sessions) get(token string, now time.Time) *session {
	if token == "" {
		return nil
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s := ss.m[token]
	if s == nil {
		return nil
	}
	if ss.expired(s, now) {
		delete(ss.m, token)
		return nil
	}
	s.seen = now
	return s
}

func (ss *sessions) expired(s *session, now time.Time) bool {
	return now.Sub(s.created) >= ss.ttl || now.Sub(s.seen) >= ss.idle
}

// end drops a session.
func (ss *sessions) end(token string) {
	ss.mu.Lock()
	delete(ss.m, token)
	ss.mu.Unlock()
}

// sweepLocked drops expired sessions.
func (ss *sessions) sweepLocked(now time.Time) {
	for t, s := range ss.m {
		if ss.expired(s, now) {
			delete(ss.m, t)
		}
	}
}

// takeFlash returns the session's message once.
func (ss *sessions) takeFlash(s *session) string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	f := s.flash
	s.flash = ""
	return f
}

func (ss *sessions) setFlash(s *session, msg string) {
	ss.mu.Lock()
	s.flash = msg
	ss.mu.Unlock()
}

// sameToken compares a submitted token with the expected one in constant
// time; an empty expected token matches nothing.
func sameToken(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
