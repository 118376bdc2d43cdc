package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/amlscreen/amlscreen/casework"
)

// OIDC configures sign-in through the bank's identity provider, with
// OpenID Connect's authorization code flow, PKCE (S256), state and nonce.
type OIDC struct {
	// Issuer is the provider's issuer URL; its discovery document is read
	// at the first sign-in, and again after a failure.
	Issuer string
	// ClientID and ClientSecret are the workbench's registration at the
	// provider; ClientSecret may be empty for a public client.
	ClientID     string
	ClientSecret string
	// RedirectURL is the callback registered at the provider; "" derives
	// it from each request: its scheme and host, then /ui/oidc/callback.
	RedirectURL string
	// UserClaim names the claim that is the person's user name; ""
	// means preferred_username.
	UserClaim string
	// RoleClaim names the claim (a string or a list of strings) whose
	// values Roles maps to roles; the highest role mapped wins, and the
	// person is added to the store's users, or given that role, at
	// sign-in. "" takes the role of the store's user of the same name
	// instead, and refuses people the store does not hold.
	RoleClaim string
	Roles     map[string]string
	// Client makes the requests to the provider; nil means
	// http.DefaultClient.
	Client *http.Client
}

// Bounds of the sign-ins under way at the provider: each is kept at most
// oidcPendingTTL, and at most oidcMaxPending at once.
const (
	oidcPendingTTL = 10 * time.Minute
	oidcMaxPending = 10_000
	oidcCookie     = "amlscreen_oidc"
	oidcTimeout    = 20 * time.Second
)

// oidcClient is the OIDC state of a handler.
type oidcClient struct {
	cfg OIDC
	mu  sync.Mutex
	// provider is the discovered provider, nil until discovery succeeds.
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	pending  map[string]*oidcPending
}

// oidcPending is a sign-in sent to the provider, by its state.
type oidcPending struct {
	nonce, verifier, redirect, next string
	created                         time.Time
}

// oidcName names the identity provider the sign-in page offers; "" for
// none.
func (h *handler) oidcName() string {
	if h.oidc == nil {
		return ""
	}
	if u, err := url.Parse(h.oidc.cfg.Issuer); err == nil && u.Host != "" {
		return u.Host
	}
	return "your identity provider"
}

func (o *oidcClient) context(ctx context.Context) context.Context {
	if o.cfg.Client != nil {
		ctx = oidc.ClientContext(ctx, o.cfg.Client)
	}
	return ctx
}

// discover returns the provider and the ID token verifier, reading the
// discovery document the first time (and after a failure). The request
// runs without the lock, so a slow provider holds up no other sign-in's
// state.
func (o *oidcClient) discover(ctx context.Context) (*oidc.Provider, *oidc.IDTokenVerifier, error) {
	o.mu.Lock()
	p, v := o.provider, o.verifier
	o.mu.Unlock()
	if p != nil {
		return p, v, nil
	}
	p, err := oidc.NewProvider(o.context(ctx), o.cfg.Issuer)
	if err != nil {
		return nil, nil, fmt.Errorf("discovery of %s: %w", o.cfg.Issuer, err)
	}
	v = p.Verifier(&oidc.Config{ClientID: o.cfg.ClientID})
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.provider == nil {
		o.provider, o.verifier = p, v
	}
	return o.provider, o.verifier, nil
}

// oauth returns the OAuth 2 configuration with the redirect URL.
func (o *oidcClient) oauth(p *oidc.Provider, redirect string) *oauth2.Config {
	return &oauth2.Config{ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: redirect, Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
}

// put keeps a pending sign-in; false when too many are under way.
func (o *oidcClient) put(state string, p *oidcPending) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) >= oidcMaxPending {
		for s, q := range o.pending {
			if p.created.Sub(q.created) >= oidcPendingTTL {
				delete(o.pending, s)
			}
		}
		if len(o.pending) >= oidcMaxPending {
			return false
		}
	}
	o.pending[state] = p
	return true
}

// take removes and returns the pending sign-in of state: each state is
// used once.
func (o *oidcClient) take(state string, now time.Time) *oidcPending {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.pending[state]
	delete(o.pending, state)
	if p == nil || now.Sub(p.created) >= oidcPendingTTL {
		return nil
	}
	return p
}

// redirectURL is the callback the provider sends the browser back to.
func (h *handler) redirectURL(r *http.Request) string {
	if h.oidc.cfg.RedirectURL != "" {
		return h.oidc.cfg.RedirectURL
	}
	scheme := "http"
	if h.secure(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host + Prefix + "oidc/callback"
}

// oidcStart sends the browser to the provider's sign-in. It is a link
// (GET), not a form: the page's Content-Security-Policy (form-action
// 'self') stops a form's redirect to another site, and starting a sign-in
// changes nothing but the bounded table of pending ones.
func (h *handler) oidcStart(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	next := localURL(r.URL.Query().Get("next"), "")
	if h.oidc == nil {
		h.showSignin(w, r, http.StatusNotFound, "This server does not sign in through an identity provider.", next)
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), oidcTimeout)
	defer cancel()
	p, _, err := h.oidc.discover(ctx)
	if err != nil {
		h.log.Error("workbench OIDC sign-in: the provider did not answer", "error", err.Error())
		h.showSignin(w, r, http.StatusBadGateway, "The identity provider did not answer; try again later, or tell your administrator.", next)
		return nil
	}
	state, pend := randomToken(), &oidcPending{nonce: randomToken(), verifier: oauth2.GenerateVerifier(),
		redirect: h.redirectURL(r), next: next, created: h.now()}
	if !h.oidc.put(state, pend) {
		h.showSignin(w, r, http.StatusServiceUnavailable, "Too many sign-ins are under way; try again later.", next)
		return nil
	}
	// The provider sends the browser back with a cross-site navigation,
	// which carries Lax cookies only: this one ties the callback to this
	// browser, for that one request.
	http.SetCookie(w, &http.Cookie{Name: oidcCookie, Value: state, Path: Prefix + "oidc/", MaxAge: int(oidcPendingTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: h.secure(r)})
	u := h.oidc.oauth(p, pend.redirect).AuthCodeURL(state, oidc.Nonce(pend.nonce), oauth2.S256ChallengeOption(pend.verifier))
	http.Redirect(w, r, u, http.StatusSeeOther)
	return nil
}

// errOIDC is a sign-in the provider's answer does not allow; its message
// is logged, the person is told the sign-in failed.
var errOIDC = errors.New("OIDC sign-in refused")

// oidcCallback takes the provider's answer: it checks the state against
// this browser's cookie, exchanges the code with the PKCE verifier,
// verifies the ID token (signature, issuer, audience, expiry) and its
// nonce, finds the person's name and role, and starts her session.
func (h *handler) oidcCallback(w http.ResponseWriter, r *http.Request, _ *session, _ *Identity) error {
	if h.oidc == nil {
		h.showSignin(w, r, http.StatusNotFound, "This server does not sign in through an identity provider.", "")
		return nil
	}
	q := r.URL.Query()
	state := q.Get("state")
	http.SetCookie(w, &http.Cookie{Name: oidcCookie, Value: "", Path: Prefix + "oidc/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: h.secure(r)})
	c, err := r.Cookie(oidcCookie)
	if err != nil || !sameToken(state, c.Value) {
		h.log.Warn("workbench OIDC sign-in refused: state does not match this browser's", "remote", r.RemoteAddr)
		h.showSignin(w, r, http.StatusForbidden, "This sign-in was not started in this browser, or it expired. Sign in again.", "")
		return nil
	}
	pend := h.oidc.take(state, h.now())
	if pend == nil {
		h.showSignin(w, r, http.StatusForbidden, "This sign-in expired or was used already. Sign in again.", "")
		return nil
	}
	if e := q.Get("error"); e != "" {
		h.log.Warn("workbench OIDC sign-in refused by the provider", "error", e, "description", q.Get("error_description"))
		h.showSignin(w, r, http.StatusUnauthorized, "The identity provider did not sign you in ("+shorten(e, 64)+").", pend.next)
		return nil
	}
	ctx, cancel := context.WithTimeout(r.Context(), oidcTimeout)
	defer cancel()
	u, err := h.oidcPerson(ctx, pend, q.Get("code"))
	if err != nil {
		h.log.Warn("workbench OIDC sign-in refused", "error", err.Error(), "remote", r.RemoteAddr)
		msg := "The sign-in through the identity provider failed. Try again, or tell your administrator."
		if errors.Is(err, casework.ErrForbidden) || errors.Is(err, casework.ErrNotFound) {
			msg = "You are not a user of this workbench, or you may not sign in. Ask your administrator for access."
		}
		h.showSignin(w, r, http.StatusForbidden, msg, pend.next)
		return nil
	}
	s, ok := h.sessions.createPerson(u.Name, u.Role, u.Stamp, "oidc", h.now())
	if !ok {
		h.showSignin(w, r, http.StatusServiceUnavailable, "The workbench has too many open sessions; try again later.", pend.next)
		return nil
	}
	h.log.Info("workbench sign-in", "user", u.Name, "role", u.Role, "via", "oidc", "remote", r.RemoteAddr)
	h.setCookie(w, r, signinCookie, "", -1)
	h.setCookie(w, r, sessionCookie, s.token, int(h.sessions.ttl/time.Second))
	next := pend.next
	if next == "" {
		next = h.landing(s)
	}
	// A page, not a redirect: the browser arrived here from the
	// provider's site, and sends the new SameSite=Strict cookie only on a
	// navigation that starts on this site.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	esc := template.HTMLEscapeString(next)
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=%s"><title>Signed in · amlscreen workbench</title></head><body><p>Signed in as %s. <a href="%s">Continue</a></p></body></html>`,
		esc, template.HTMLEscapeString(u.Name), esc)
	return nil
}

// oidcPerson exchanges code and returns the user it signs in.
func (h *handler) oidcPerson(ctx context.Context, pend *oidcPending, code string) (*casework.UserInfo, error) {
	if code == "" {
		return nil, fmt.Errorf("%w: no code", errOIDC)
	}
	p, verifier, err := h.oidc.discover(ctx)
	if err != nil {
		return nil, err
	}
	ctx = h.oidc.context(ctx)
	tok, err := h.oidc.oauth(p, pend.redirect).Exchange(ctx, code, oauth2.VerifierOption(pend.verifier))
	if err != nil {
		return nil, fmt.Errorf("%w: code exchange: %v", errOIDC, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, fmt.Errorf("%w: no id_token in the token response", errOIDC)
	}
	idt, err := verifier.Verify(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errOIDC, err)
	}
	if !sameToken(idt.Nonce, pend.nonce) {
		return nil, fmt.Errorf("%w: the ID token's nonce is not this sign-in's", errOIDC)
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return nil, fmt.Errorf("%w: claims: %v", errOIDC, err)
	}
	userClaim := cmp.Or(h.oidc.cfg.UserClaim, "preferred_username")
	if _, ok := claims[userClaim]; !ok || h.oidc.cfg.RoleClaim != "" && claims[h.oidc.cfg.RoleClaim] == nil {
		// Providers put profile claims in the userinfo answer rather
		// than the ID token (OpenID Connect Core 5.4).
		ui, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return nil, fmt.Errorf("%w: userinfo: %v", errOIDC, err)
		}
		if ui.Subject != idt.Subject {
			return nil, fmt.Errorf("%w: userinfo is of subject %q, the ID token of %q", errOIDC, ui.Subject, idt.Subject)
		}
		more := map[string]any{}
		if err := ui.Claims(&more); err != nil {
			return nil, fmt.Errorf("%w: userinfo claims: %v", errOIDC, err)
		}
		for k, v := range more {
			if _, ok := claims[k]; !ok {
				claims[k] = v
			}
		}
	}
	name, _ := claims[userClaim].(string)
	if err := casework.ValidUserName(name); err != nil {
		return nil, fmt.Errorf("%w: claim %s: %v", errOIDC, userClaim, err)
	}
	if h.cfg.Casework == nil {
		return nil, fmt.Errorf("%w: this server has no casework store", errOIDC)
	}
	if h.oidc.cfg.RoleClaim == "" {
		u, err := h.person(name, "")
		if err != nil {
			return nil, fmt.Errorf("user %q: %w (%v)", name, casework.ErrForbidden, err)
		}
		return u, nil
	}
	role := mapRole(claims[h.oidc.cfg.RoleClaim], h.oidc.cfg.Roles)
	if role == "" {
		return nil, fmt.Errorf("user %q: no value of claim %s maps to a role: %w", name, h.oidc.cfg.RoleClaim, casework.ErrForbidden)
	}
	return h.cfg.Casework.SignInExternal(name, role, h.oidc.cfg.Issuer)
}

// mapRole returns the highest role roles maps a value of claim to (a
// string or a list of strings); "" when none.
func mapRole(claim any, roles map[string]string) string {
	var values []string
	switch v := claim.(type) {
	case string:
		values = []string{v}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				values = append(values, s)
			}
		}
	}
	best := ""
	for _, v := range values {
		if r, ok := roles[v]; ok && roleRank(r) > roleRank(best) {
			best = r
		}
	}
	return best
}

// ParseRoleMap reads the mapping of role claim values to roles:
// VALUE=ROLE pairs separated by commas, each role analyst, reviewer or
// admin. A value may hold "=" (the last one splits) but no comma.
func ParseRoleMap(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		i := strings.LastIndexByte(pair, '=')
		if i <= 0 {
			return nil, fmt.Errorf("%q: want VALUE=ROLE", pair)
		}
		role, err := casework.ParseRole(strings.TrimSpace(pair[i+1:]))
		if err != nil {
			return nil, fmt.Errorf("%q: %v", pair, err)
		}
		out[strings.TrimSpace(pair[:i])] = role
	}
	if len(out) == 0 {
		return nil, errors.New("no VALUE=ROLE pair")
	}
	return out, nil
}

// shorten cuts s to n bytes at most, for messages built from what a
// provider sent.
func shorten(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "")
}
