package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSessionsPerKeyBounded: one key signing in again and again keeps at
// most perKey sessions, its oldest ending, so it cannot fill the table;
// other keys still sign in.
func TestSessionsPerKeyBounded(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	ss := newSessions(8*time.Hour, time.Hour, 30, 20, nil)
	var first *session
	for i := range 10_000 {
		s, ok := ss.create("flood", "k-flood", "flood", now.Add(time.Duration(i)*time.Millisecond))
		if !ok {
			t.Fatalf("sign-in %d of one key refused", i+1)
		}
		if i == 0 {
			first = s
		}
	}
	if n := len(ss.m); n != 20 {
		t.Fatalf("one key holds %d sessions, want 20", n)
	}
	if ss.get(first.token, now.Add(time.Minute)) != nil {
		t.Error("the oldest session of the key goes on")
	}
	for i := range 10 {
		if _, ok := ss.create("other", "k-other", "other", now.Add(time.Second)); !ok {
			t.Fatalf("sign-in %d of another key refused", i+1)
		}
	}
	if _, ok := ss.create("third", "k-third", "third", now.Add(time.Second)); ok {
		t.Error("a sign-in beyond the table's bound was let in")
	}
}

// TestDisabledKeyFreesItsSessions: when the table is full, the sessions
// of a key that may no longer sign in (disabled by a reload of the keys
// file) are dropped, and the sign-in of another key goes through.
func TestDisabledKeyFreesItsSessions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	disabled := map[string]bool{}
	ss := newSessions(8*time.Hour, time.Hour, 10, 5, func(secret string) bool { return !disabled[secret] })
	var held []*session
	for _, k := range []string{"a", "b"} {
		for range 5 {
			s, ok := ss.create(k, "id-"+k, k, now)
			if !ok {
				t.Fatal("refused below the bound")
			}
			held = append(held, s)
		}
	}
	if _, ok := ss.create("c", "id-c", "c", now); ok {
		t.Fatal("a full table let a sign-in in")
	}
	disabled["a"] = true
	if _, ok := ss.create("c", "id-c", "c", now); !ok {
		t.Fatal("the disabled key's sessions still fill the table")
	}
	for _, s := range held[:5] {
		if ss.get(s.token, now) != nil {
			t.Error("a session of the disabled key goes on")
		}
	}
	for _, s := range held[5:] {
		if ss.get(s.token, now) == nil {
			t.Error("a session of another key ended")
		}
	}
}

// TestSignInsBeyondTheKeysBound: over HTTP, the 21st sign-in of a key ends
// its first session; the others go on; a disabled key loses every session
// on the next request of any of them.
func TestSignInsBeyondTheKeysBound(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	var cs []*client
	for range 21 {
		cs = append(cs, b.signedIn(t, keyA))
	}
	if r := cs[0].get("/ui/screen"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/ui/signin") {
		t.Errorf("first session after 21 sign-ins: %d %q, want the sign-in", r.status, r.location)
	}
	for i, c := range cs[1:] {
		if r := c.get("/ui/screen"); r.status != http.StatusOK {
			t.Fatalf("session %d: %d", i+2, r.status)
		}
	}
	keys := testKeys()
	keys[0].Disabled = true
	if err := b.srv.SetKeys(keys); err != nil {
		t.Fatal(err)
	}
	cs[1].get("/ui/screen") // ends every session of the key
	for i, c := range cs[2:] {
		if r := c.get("/ui/screen"); r.status != http.StatusSeeOther {
			t.Errorf("session %d of the disabled key: %d", i+3, r.status)
		}
	}
}
