package ui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"sync"
	"time"
)

// session is a signed-in browser. Its token is the cookie's value; csrf
// is the token every form of the session carries.
type session struct {
	token   string
	csrf    string
	secret  string // the API key, checked again on every request
	name    string // the key's name when signed in, for logs
	created time.Time
	seen    time.Time
	flash   string // a message for the next page, shown once
}

// sessions holds the sessions of one handler, in memory: a restart signs
// everyone out, which is what a workbench holding API keys should do.
type sessions struct {
	mu   sync.Mutex
	m    map[string]*session
	ttl  time.Duration // absolute lifetime
	idle time.Duration // lifetime without a request
	max  int
}

func newSessions(ttl, idle time.Duration, max int) *sessions {
	return &sessions{m: map[string]*session{}, ttl: ttl, idle: idle, max: max}
}

// randomToken returns 32 random bytes, URL-safe base64.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// create starts a session for secret; ok is false when the handler
// already holds its maximum of live sessions.
func (ss *sessions) create(secret, name string, now time.Time) (*session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.sweepLocked(now)
	if len(ss.m) >= ss.max {
		return nil, false
	}
	s := &session{token: randomToken(), csrf: randomToken(), secret: secret, name: name, created: now, seen: now}
	ss.m[s.token] = s
	return s, true
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
