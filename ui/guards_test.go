package ui

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
)

// Messages of the checks every state change passes.
const (
	msgEnded = "Your session has ended"
	msgCSRF  = "This form has expired or did not come from this page"
	msgRole  = "This needs"
	msgKey   = "--workbench-key"
	msgToken = "The sign-in form expired"
)

// TestEveryStateChangeGuarded walks every route that changes state (every
// POST of the routes table, those other files add included): without a
// session it is refused (401); with a session allowed to use it, without
// or with a wrong CSRF token it is refused (403); with the token but
// without the role it needs (an API key, or a person one rank too low) it
// is refused (403); with both it gets past the checks. The sign-in forms,
// which have no session yet, are refused without their own token.
func TestEveryStateChangeGuarded(t *testing.T) {
	t.Parallel()
	b := newBench(t, func(c *Config) { c.PeopleKey = func() string { return keyA } })
	for _, u := range []struct{ name, role string }{{"ana", casework.Analyst}, {"rita", casework.Reviewer}, {"adam", casework.Admin}} {
		b.addUser(t, u.name, u.role)
	}
	personOf := map[string]string{casework.Analyst: "ana", casework.Reviewer: "rita", casework.Admin: "adam"}
	var paths []string
	for p, rt := range routes {
		if rt.method == http.MethodPost {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, want := range []string{"signout", "decide", "profile/save", "outbox/requeue", "signin/user"} {
		if !slices.Contains(paths, want) {
			t.Fatalf("the table lacks %s: %v", want, paths)
		}
	}
	refused := func(t *testing.T, who string, r response, status int, msg string) {
		t.Helper()
		if r.status != status || !strings.Contains(r.body, msg) {
			t.Errorf("%s: %d, want %d saying %q\n%s", who, r.status, status, msg, r.body)
		}
	}
	for _, path := range paths {
		rt := routes[path]
		t.Run(path, func(t *testing.T) {
			if rt.public {
				c := b.client(t)
				c.get("/ui/signin") // the cookie half of the token
				refused(t, "no token", c.post("/ui/"+path, url.Values{"name": {"ana"}, "password": {testPassword}}), http.StatusForbidden, msgToken)
				refused(t, "wrong token", c.post("/ui/"+path, url.Values{"token": {"forged"}, "name": {"ana"}, "password": {testPassword}}), http.StatusForbidden, msgToken)
				return
			}
			refused(t, "no session", b.client(t).post("/ui/"+path, url.Values{"csrf": {"x"}}), http.StatusUnauthorized, msgEnded)
			// Sessions allowed to use the route: a key and a person of
			// the least role when it needs none, else people of its role
			// and above.
			var allowed []func() *client
			var below []func() *client
			if rt.role == "" {
				allowed = append(allowed, func() *client { return b.signedIn(t, keyA) }, func() *client { return b.person(t, "ana") })
			} else {
				for _, role := range casework.Roles {
					p := personOf[role]
					if roleRank(role) >= roleRank(rt.role) {
						allowed = append(allowed, func() *client { return b.person(t, p) })
					} else {
						below = append(below, func() *client { return b.person(t, p) })
					}
				}
				below = append(below, func() *client { return b.signedIn(t, keyA) })
			}
			for _, open := range allowed {
				c := open()
				refused(t, "no CSRF token", c.post("/ui/"+path, url.Values{}), http.StatusForbidden, msgCSRF)
				refused(t, "wrong CSRF token", c.post("/ui/"+path, url.Values{"csrf": {"forged-token"}}), http.StatusForbidden, msgCSRF)
				r := c.post("/ui/"+path, url.Values{"csrf": {c.csrfAny()}})
				for _, msg := range []string{msgEnded, msgCSRF, msgRole, msgKey} {
					if strings.Contains(r.body, msg) {
						t.Errorf("with the token and the role: %d saying %q\n%s", r.status, msg, r.body)
					}
				}
			}
			for _, open := range below {
				c := open()
				refused(t, "without the role", c.post("/ui/"+path, url.Values{"csrf": {c.csrfAny()}}), http.StatusForbidden, msgRole)
			}
		})
	}
}

// TestPersonSessionExpiry: a person's session ends after an idle hour,
// and eight hours after sign-in however busy, as a key's does.
func TestPersonSessionExpiry(t *testing.T) {
	t.Parallel()
	b := newBench(t, func(c *Config) { c.PeopleKey = func() string { return keyA } })
	b.addUser(t, "ana", casework.Analyst)
	idle := b.person(t, "ana")
	b.clock.add(59 * time.Minute)
	if r := idle.get("/ui/screen"); r.status != http.StatusOK {
		t.Fatalf("after 59 idle minutes: %d", r.status)
	}
	b.clock.add(time.Hour)
	if r := idle.get("/ui/screen"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/ui/signin") {
		t.Errorf("after an idle hour: %d to %q, want the sign-in", r.status, r.location)
	}
	busy := b.person(t, "ana")
	for i := range 15 {
		b.clock.add(30 * time.Minute)
		if r := busy.get("/ui/screen"); r.status != http.StatusOK {
			t.Fatalf("busy session ended after %v", time.Duration(i+1)*30*time.Minute)
		}
	}
	b.clock.add(30 * time.Minute)
	if r := busy.get("/ui/screen"); r.status != http.StatusSeeOther {
		t.Errorf("after 8 hours: %d, want the sign-in", r.status)
	}
}

// TestSignInAttemptsBounded: after five failures for one name, even the
// right password is refused for that name (429) until the window has
// passed, while other names still sign in; thirty failures from one
// address stop every name from it.
func TestSignInAttemptsBounded(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	b.addUser(t, "ana", casework.Analyst)
	b.addUser(t, "rita", casework.Reviewer)
	c := b.client(t)
	for i := range maxFailsPerName {
		if r := c.signInUser("ana", "not her password"); r.status != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, r.status)
		}
	}
	if r := c.signInUser("ana", testPassword); r.status != http.StatusTooManyRequests {
		t.Errorf("the right password after %d failures: %d, want 429", maxFailsPerName, r.status)
	}
	if r := c.signInUser("rita", testPassword); r.status != http.StatusSeeOther {
		t.Errorf("another name from the same address: %d", r.status)
	}
	b.clock.add(signinWindow)
	if r := c.signInUser("ana", testPassword); r.status != http.StatusSeeOther {
		t.Errorf("after the window: %d", r.status)
	}
	for i := range maxFailsPerAddress {
		if r := c.signInUser("guess"+string(rune('a'+i%26))+string(rune('a'+i/26)), "password guess"); r.status != http.StatusUnauthorized {
			t.Fatalf("failure %d from the address: %d", i+1, r.status)
		}
	}
	if r := c.signInUser("rita", testPassword); r.status != http.StatusTooManyRequests {
		t.Errorf("a good sign-in from an address at its bound: %d, want 429", r.status)
	}
}
