package ui

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"

	"github.com/amlscreen/amlscreen/casework"
)

// The identity provider of these tests is zitadel's OpenID provider (op)
// with its in-memory example storage and login page, served on loopback:
// real discovery, RS256-signed ID tokens, PKCE and the userinfo endpoint.
// Its users are "test-user@127.0.0.1" (id1) and "test-user2" (id2),
// both with the password "verysecure".

// idpStorage adds a groups claim to the example storage's userinfo.
type idpStorage struct {
	*storage.Storage
	groups map[string][]any // by subject
}

// SetUserinfoFromToken answers the userinfo endpoint with the groups.
func (s *idpStorage) SetUserinfoFromToken(ctx context.Context, ui *zoidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, ui, tokenID, subject, origin); err != nil {
		return err
	}
	if g, ok := s.groups[ui.Subject]; ok {
		ui.AppendClaims("groups", g)
	}
	return nil
}

const (
	idpClientID = "amlscreen-workbench"
	idpSecret   = "client-secret-of-the-test"
)

// idp is a running provider; register adds the workbench's callback.
type idp struct {
	issuer  string
	clients map[string]*storage.Client
}

func startIdP(t *testing.T, groups map[string][]any) *idp {
	t.Helper()
	return startIdPAt(t, "127.0.0.1", groups)
}

// startIdPAt starts the provider on loopback, its issuer naming host
// (127.0.0.1 or localhost) and the port.
func startIdPAt(t *testing.T, host string, groups map[string][]any) *idp {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	issuer := "http://" + net.JoinHostPort(host, port)
	clients := map[string]*storage.Client{}
	st := storage.NewStorageWithClients(storage.NewUserStore(issuer), clients)
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: exampleop.SetupServer(issuer, &idpStorage{st, groups}, nil, false)}}
	srv.Start()
	t.Cleanup(srv.Close)
	return &idp{issuer: issuer, clients: clients}
}

// register registers the workbench at b as the provider's client, before
// any sign-in.
func (p *idp) register(b *bench) {
	p.clients[idpClientID] = storage.WebClient(idpClientID, idpSecret, b.url+Prefix+"oidc/callback")
}

var (
	idpLoginIDRE = regexp.MustCompile(`name="id" value="([^"]+)"`)
	refreshRE    = regexp.MustCompile(`http-equiv="refresh" content="0;url=([^"]+)"`)
)

// follow sends c's browser to u and on through every redirect, sending
// the provider's login form with user and password when it shows it; it
// returns the workbench's callback answer and the callback's address.
func (c *client) oidcSignIn(t *testing.T, user, password string) (response, string) {
	t.Helper()
	r := c.get("/ui/oidc/start")
	if r.status != http.StatusSeeOther {
		t.Fatalf("oidc/start: %d\n%s", r.status, r.body)
	}
	u := r.location
	for range 10 {
		resp, body := c.fetch(t, http.MethodGet, u, nil)
		if strings.Contains(u, Prefix+"oidc/callback") {
			return response{status: resp.StatusCode, body: body, location: resp.Header.Get("Location"), header: resp.Header}, u
		}
		if resp.StatusCode == http.StatusOK && strings.Contains(body, `name="password"`) {
			form := url.Values{"username": {user}, "password": {password}, "id": {find(t, idpLoginIDRE, body)}}
			resp, body = c.fetch(t, http.MethodPost, u, form)
		}
		loc, err := resp.Location()
		if err != nil {
			t.Fatalf("%s: %d without a redirect\n%s", u, resp.StatusCode, body)
		}
		u = loc.String()
	}
	t.Fatal("no callback after 10 redirects")
	return response{}, ""
}

// fetch sends a request to an absolute address with c's cookies.
func (c *client) fetch(t *testing.T, method, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestOIDCRoleFromClaim: with a role claim, a person of the provider
// signs in with the highest role her groups map to, is added to the
// store's users with it, and acts as herself; a person none of whose
// groups maps to a role is refused. A callback used twice, and one
// carrying another sign-in's code, are refused.
func TestOIDCRoleFromClaim(t *testing.T) {
	t.Parallel()
	p := startIdP(t, map[string][]any{"id2": {"aml-analysts", "aml-reviewers", "staff"}, "id1": {"staff"}})
	b := newBench(t, func(c *Config) {
		c.OIDC = &OIDC{Issuer: p.issuer, ClientID: idpClientID, ClientSecret: idpSecret, RoleClaim: "groups",
			Roles: map[string]string{"aml-analysts": casework.Analyst, "aml-reviewers": casework.Reviewer}}
	})
	p.register(b)

	c := b.client(t)
	r, callback := c.oidcSignIn(t, "test-user2", "verysecure")
	if r.status != http.StatusOK {
		t.Fatalf("callback: %d\n%s", r.status, r.body)
	}
	next := find(t, refreshRE, r.body)
	if !strings.HasPrefix(next, Prefix) {
		t.Errorf("the callback sends the browser to %q", next)
	}
	if w := c.post("/ui/test/whoami", url.Values{"csrf": {c.csrfAny()}}); w.status != http.StatusOK || w.body != "actor=test-user2" {
		t.Errorf("as the provider's reviewer: %d %s", w.status, w.body)
	}
	if u, err := b.cw.User("test-user2"); err != nil || u.Role != casework.Reviewer {
		t.Errorf("the store's user: %+v, %v", u, err)
	}
	if again, _ := c.fetch(t, http.MethodGet, callback, nil); again.StatusCode != http.StatusForbidden {
		t.Errorf("a callback used twice: %d", again.StatusCode)
	}

	if r, _ := b.client(t).oidcSignIn(t, "test-user@127.0.0.1", "verysecure"); r.status != http.StatusForbidden ||
		!strings.Contains(r.body, "not a user of this workbench") {
		t.Errorf("a person without a mapped group: %d\n%s", r.status, r.body)
	}

	// Code injection: the code of one sign-in, brought to another
	// browser's callback with that browser's own state, fails PKCE.
	victim, attacker := b.client(t), b.client(t)
	_, stolen := attacker.oidcSignInUntilCallback(t)
	_, own := victim.oidcSignInUntilCallback(t)
	mixed, _ := url.Parse(own)
	q := mixed.Query()
	su, _ := url.Parse(stolen)
	q.Set("code", su.Query().Get("code"))
	mixed.RawQuery = q.Encode()
	if resp, body := victim.fetch(t, http.MethodGet, mixed.String(), nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another sign-in's code was taken: %d\n%s", resp.StatusCode, body)
	}
}

// oidcSignInUntilCallback goes through the provider as test-user2 and
// returns the callback address without calling it.
func (c *client) oidcSignInUntilCallback(t *testing.T) (response, string) {
	t.Helper()
	r := c.get("/ui/oidc/start")
	u := r.location
	for range 10 {
		if strings.Contains(u, Prefix+"oidc/callback") {
			return r, u
		}
		resp, body := c.fetch(t, http.MethodGet, u, nil)
		if resp.StatusCode == http.StatusOK && strings.Contains(body, `name="password"`) {
			form := url.Values{"username": {"test-user2"}, "password": {"verysecure"}, "id": {find(t, idpLoginIDRE, body)}}
			resp, body = c.fetch(t, http.MethodPost, u, form)
		}
		loc, err := resp.Location()
		if err != nil {
			t.Fatalf("%s: %d without a redirect\n%s", u, resp.StatusCode, body)
		}
		u = loc.String()
	}
	t.Fatal("no callback after 10 redirects")
	return r, ""
}

// TestOIDCRoleFromLocalUser: without a role claim, a person of the
// provider signs in with the role of the store's user of the same name;
// a person the store does not hold is refused, and so is one disabled.
func TestOIDCRoleFromLocalUser(t *testing.T) {
	t.Parallel()
	p := startIdP(t, nil)
	b := newBench(t, func(c *Config) {
		c.OIDC = &OIDC{Issuer: p.issuer, ClientID: idpClientID, ClientSecret: idpSecret}
	})
	p.register(b)
	b.addUser(t, "test-user2", casework.Analyst)

	c := b.client(t)
	if r, _ := c.oidcSignIn(t, "test-user2", "verysecure"); r.status != http.StatusOK {
		t.Fatalf("callback: %d\n%s", r.status, r.body)
	}
	if page := c.get("/ui/screen"); !strings.Contains(page.body, `test-user2 <span class="role">(analyst)</span>`) {
		t.Errorf("the page does not show the analyst signed in:\n%s", page.body)
	}
	if r, _ := b.client(t).oidcSignIn(t, "test-user@127.0.0.1", "verysecure"); r.status != http.StatusForbidden {
		t.Errorf("a person the store does not hold: %d\n%s", r.status, r.body)
	}
	if err := b.cw.DisableUser(casework.Operator("test"), "test-user2"); err != nil {
		t.Fatal(err)
	}
	if r, _ := b.client(t).oidcSignIn(t, "test-user2", "verysecure"); r.status != http.StatusForbidden {
		t.Errorf("a disabled user: %d\n%s", r.status, r.body)
	}
}

// TestOIDCProviderDown: a provider that does not answer gets a page
// saying so (502), and no session.
func TestOIDCProviderDown(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	issuer := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	b := newBench(t, func(c *Config) { c.OIDC = &OIDC{Issuer: issuer, ClientID: idpClientID} })
	c := b.client(t)
	page := c.get("/ui/signin")
	if !strings.Contains(page.body, `href="/ui/oidc/start"`) {
		t.Fatalf("the sign-in page offers no provider:\n%s", page.body)
	}
	r := c.get("/ui/oidc/start")
	if r.status != http.StatusBadGateway || !strings.Contains(r.body, "did not answer") {
		t.Errorf("provider down: %d\n%s", r.status, r.body)
	}
}

// TestRoleMap: the mapping flag's pairs, and the highest role a claim's
// values map to.
func TestRoleMap(t *testing.T) {
	t.Parallel()
	m, err := ParseRoleMap(" aml-analysts=analyst, cn=aml-leads=reviewer ,")
	if err != nil || len(m) != 2 || m["aml-analysts"] != casework.Analyst || m["cn=aml-leads"] != casework.Reviewer {
		t.Fatalf("%v, %v", m, err)
	}
	for _, bad := range []string{"", "analyst", "=analyst", "g=boss"} {
		if _, err := ParseRoleMap(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
	roles := map[string]string{"a": casework.Analyst, "r": casework.Reviewer, "x": casework.Admin}
	for _, c := range []struct {
		claim any
		want  string
	}{
		{"a", casework.Analyst}, {[]any{"a", "r", "other"}, casework.Reviewer}, {[]any{"x", "a"}, casework.Admin},
		{[]any{"other", 7}, ""}, {nil, ""}, {map[string]any{"a": true}, ""},
	} {
		if got := mapRole(c.claim, roles); got != c.want {
			t.Errorf("%v: %q, want %q", c.claim, got, c.want)
		}
	}
}
