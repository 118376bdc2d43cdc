package ui

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/casework"
)

// A route only the tests serve: it answers who acts, for a reviewer.
func init() {
	routes["test/whoami"] = route{method: http.MethodPost, role: casework.Reviewer,
		serve: func(h *handler, w http.ResponseWriter, r *http.Request, s *session, _ *Identity) error {
			fmt.Fprintf(w, "actor=%s", h.actor(s))
			return nil
		}}
}

// TestPersonSignIn: a user signs in with her name and password and is
// shown as herself; a wrong password, an unknown name and a disabled user
// get the same answer; a person without a key to screen with is told so.
func TestPersonSignIn(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	b.addUser(t, "ana", casework.Analyst)
	b.addUser(t, "dora", casework.Analyst)
	if err := b.cw.DisableUser(casework.Operator("test"), "dora"); err != nil {
		t.Fatal(err)
	}
	c := b.person(t, "ana")
	page := c.get("/ui/screen")
	if page.status != http.StatusForbidden || !strings.Contains(page.body, "--workbench-key") || !strings.Contains(page.body, "ana <span class=\"role\">(analyst)</span>") {
		t.Fatalf("a person without a key on the screen page: %d\n%s", page.status, page.body)
	}
	var msgs []string
	for _, try := range []struct{ name, password string }{
		{"ana", "wrong password here"}, {"nobody", testPassword}, {"dora", testPassword},
	} {
		r := b.client(t).signInUser(try.name, try.password)
		if r.status != http.StatusUnauthorized {
			t.Fatalf("sign-in %s/%s: %d, want 401", try.name, try.password, r.status)
		}
		msgs = append(msgs, find(t, pageErrorRE, r.body))
	}
	if msgs[0] != msgs[1] || msgs[1] != msgs[2] {
		t.Errorf("the refusals differ, so they say which users exist: %q", msgs)
	}
}

// TestRequireRole: a route for reviewers refuses an API-key session and
// an analyst with 403, and serves a reviewer, who acts as herself.
func TestRequireRole(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	b.addUser(t, "ana", casework.Analyst)
	b.addUser(t, "rita", casework.Reviewer)
	for _, tc := range []struct {
		c      *client
		status int
		want   string
	}{
		{b.signedIn(t, keyA), http.StatusForbidden, "an API key cannot"},
		{b.person(t, "ana"), http.StatusForbidden, "you are signed in as an analyst"},
		{b.person(t, "rita"), http.StatusOK, "actor=rita"},
	} {
		r := tc.c.post("/ui/test/whoami", url.Values{"csrf": {tc.c.csrfAny()}})
		if r.status != tc.status || !strings.Contains(r.body, tc.want) {
			t.Errorf("got %d, want %d with %q:\n%s", r.status, tc.status, tc.want, r.body)
		}
	}
}

// TestPersonSessionEndsWithUser: disabling a user, or giving her another
// role, ends her sessions at their next request.
func TestPersonSessionEndsWithUser(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	b.addUser(t, "ana", casework.Analyst)
	c := b.person(t, "ana")
	csrf := c.csrfAny()
	if err := b.cw.DisableUser(casework.Operator("test"), "ana"); err != nil {
		t.Fatal(err)
	}
	if r := c.post("/ui/signout", url.Values{"csrf": {csrf}}); r.status != http.StatusUnauthorized {
		t.Errorf("a disabled user's session goes on: %d", r.status)
	}
	b.addUser(t, "rita", casework.Reviewer)
	c = b.person(t, "rita")
	csrf = c.csrfAny()
	if r := c.post("/ui/test/whoami", url.Values{"csrf": {csrf}}); r.status != http.StatusOK {
		t.Errorf("a reviewer's session: %d", r.status)
	}
	// Another role (here from the identity provider's claims at another
	// sign-in) ends the sessions of the old one.
	if _, err := b.cw.SignInExternal("rita", casework.Admin, "https://idp.example"); err != nil {
		t.Fatal(err)
	}
	if r := c.post("/ui/test/whoami", url.Values{"csrf": {csrf}}); r.status != http.StatusUnauthorized {
		t.Errorf("a session of the old role goes on: %d", r.status)
	}
	// A password reset ends the sessions signed in with the old one; a
	// sign-in after it works.
	b.addUser(t, "omar", casework.Reviewer)
	c = b.person(t, "omar")
	csrf = c.csrfAny()
	if r := c.post("/ui/test/whoami", url.Values{"csrf": {csrf}}); r.status != http.StatusOK {
		t.Fatalf("omar's session before the reset: %d", r.status)
	}
	if err := b.cw.ResetPassword(casework.Operator("test"), "omar", testPassword+" again"); err != nil {
		t.Fatal(err)
	}
	if r := c.post("/ui/test/whoami", url.Values{"csrf": {csrf}}); r.status != http.StatusUnauthorized {
		t.Errorf("a session from before the password reset goes on: %d", r.status)
	}
}

// TestPersonScreensWithPeopleKey: with Config.PeopleKey, a person screens
// through the API with that key, and her decision on a hit is a proposal
// on its alert that names her (TestPersonDecisionGoesThroughAlert has the
// rest of that rule).
func TestPersonScreensWithPeopleKey(t *testing.T) {
	t.Parallel()
	b := newBench(t, func(c *Config) { c.PeopleKey = func() string { return keyA } })
	b.addUser(t, "ana", casework.Analyst)
	c := b.person(t, "ana")
	if r := c.screen("ivan petrov"); r.status != http.StatusOK || !strings.Contains(hitsTable(r.body), "R1") {
		t.Fatalf("a person's screening: %d\n%s", r.status, r.body)
	}
	al := alertOn(t, b, "R1")
	if r := c.decide("R1", al.Subject, "false_positive", "born 1971"); r.status != http.StatusSeeOther {
		t.Fatalf("a person's decision: %d\n%s", r.status, r.body)
	}
	al, err := b.cw.Alert(al.ID)
	if err != nil || al.Proposal == nil || al.Proposal.By != "ana" {
		t.Errorf("the proposal %+v (%v), want one by ana", al, err)
	}
	if h, _ := b.book.History(access.KeyID(keyA), al.Subject, "R1"); len(h) != 0 {
		t.Errorf("decided before review: %+v", h)
	}
}
