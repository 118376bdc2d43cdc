package ui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/amlscreen/amlscreen/casework"
)

//go:embed templates/*.html static/*
var assets embed.FS

// Config configures Handler. Backend is required.
type Config struct {
	Backend Backend
	// Log receives sign-ins and errors; nil discards.
	Log *slog.Logger
	// Now is the clock of sessions; nil means time.Now.
	Now func() time.Time
	// SessionTTL is how long a sign-in lasts at most; zero means 8 hours.
	SessionTTL time.Duration
	// IdleTimeout ends a session after this long without a request; zero
	// means 1 hour.
	IdleTimeout time.Duration
	// MaxSessions bounds the sessions held at once; zero means 10,000.
	MaxSessions int
	// MaxSessionsPerKey bounds the sessions of one API key; a sign-in
	// beyond it ends the key's oldest session. Zero means 20.
	MaxSessionsPerKey int
	// SecureCookies sets the Secure attribute on cookies also when the
	// request did not come over TLS (behind a proxy that ends TLS).
	// Requests over TLS get it anyway.
	SecureCookies bool
	// Sample reports whether the database answered from is the sample
	// embedded in amlscreen (server.Server.Sample); every page then shows
	// a banner saying no result here is a screening. Nil shows none.
	Sample func() bool
	// Casework is the store's casework: its users sign in as themselves
	// and work alerts. Nil when the server has no store for it: people
	// cannot sign in, and casework pages say they need a store.
	Casework *casework.Casework
	// PeopleKey returns the API key people screen, read records, decide
	// and monitor with (its quota, sources and features; decisions name
	// the person); "" or a nil PeopleKey: people only work alerts.
	PeopleKey func() string
	// OIDC, when set, signs people in through the bank's identity
	// provider; it needs Casework.
	OIDC *OIDC
}

// Prefix is where the workbench is served.
const Prefix = "/ui/"

// Limits of what a browser sends, checked before any work: a query string
// holds a screening's values (names up to 512 characters), a form a note
// of up to 4096 bytes.
const (
	maxQueryBytes = 16 << 10
	maxFormBytes  = 64 << 10
)

// Cookie names.
const (
	sessionCookie = "amlscreen_session"
	signinCookie  = "amlscreen_signin"
)

type handler struct {
	cfg      Config
	b        Backend
	log      *slog.Logger
	now      func() time.Time
	sessions *sessions
	// attempts counts failed password sign-ins; hashing bounds the
	// password checks running at once.
	attempts *attempts
	hashing  chan struct{}
	oidc     *oidcClient // the identity provider's sign-in; nil without Config.OIDC
	pages    map[string]*template.Template
	static   http.Handler
	// assetVersion changes with the embedded CSS and JS, so that
	// browsers may cache them for good.
	assetVersion string
}

// Handler returns the workbench, to be mounted at Prefix ("/ui/") of the
// server that answers the /v1 API.
func Handler(cfg Config) http.Handler {
	h := &handler{cfg: cfg, b: cfg.Backend, log: cfg.Log, now: cfg.Now, attempts: newAttempts(), hashing: make(chan struct{}, maxHashing)}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if cfg.OIDC != nil {
		h.oidc = &oidcClient{cfg: *cfg.OIDC, pending: map[string]*oidcPending{}}
	}
	ttl, idle, max := cfg.SessionTTL, cfg.IdleTimeout, cfg.MaxSessions
	if ttl <= 0 {
		ttl = 8 * time.Hour
	}
	if idle <= 0 {
		idle = time.Hour
	}
	if max <= 0 {
		max = 10000
	}
	perKey := cfg.MaxSessionsPerKey
	if perKey <= 0 {
		perKey = 20
	}
	h.sessions = newSessions(ttl, idle, max, perKey, func(secret string) bool {
		_, err := h.b.SignIn(secret)
		return err == nil
	})
	h.sessions.validUser = func(name string) bool {
		_, err := h.person(name, "")
		return err == nil
	}
	sum := sha256.New()
	for _, name := range []string{"static/app.css", "static/app.js"} {
		b, _ := assets.ReadFile(name)
		sum.Write(b)
	}
	h.assetVersion = hex.EncodeToString(sum.Sum(nil)[:6])
	h.pages = parsedPages()
	sub, _ := fs.Sub(assets, "static")
	h.static = http.StripPrefix(Prefix+"static/", http.FileServer(http.FS(filesOnly{sub})))
	return h
}

// filesOnly serves the files of an fs.FS and hides its directories, so
// that http.FileServer answers 404 for them instead of listing them.
type filesOnly struct{ fs.FS }

// Open opens name, or fails with fs.ErrNotExist when it is a directory.
func (f filesOnly) Open(name string) (fs.File, error) {
	file, err := f.FS.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := file.Stat(); err != nil || st.IsDir() {
		file.Close()
		return nil, fs.ErrNotExist
	}
	return file, nil
}

// route is a page or action: its method and whether it needs a session.
type route struct {
	method string
	public bool
	// role, when set, is the least role of a person the route serves:
	// API-key sessions and people below it get 403.
	role string
	// key marks a route that acts through the /v1 API with a key: a
	// person's session needs Config.PeopleKey for it.
	key   bool
	serve func(h *handler, w http.ResponseWriter, r *http.Request, s *session, id *Identity) error
}

var routes = map[string]route{
	"":               {method: http.MethodGet, public: true, serve: (*handler).home},
	"signin":         {method: http.MethodGet, public: true, serve: (*handler).signinPage},
	"signin/submit":  {method: http.MethodPost, public: true, serve: (*handler).signin},
	"signin/user":    {method: http.MethodPost, public: true, serve: (*handler).signinPassword},
	"oidc/start":     {method: http.MethodGet, public: true, serve: (*handler).oidcStart},
	"oidc/callback":  {method: http.MethodGet, public: true, serve: (*handler).oidcCallback},
	"signout":        {method: http.MethodPost, serve: (*handler).signout},
	"screen":         {method: http.MethodGet, key: true, serve: (*handler).screen},
	"report":         {method: http.MethodGet, key: true, serve: (*handler).report},
	"record":         {method: http.MethodGet, key: true, serve: (*handler).recordPage},
	"decide":         {method: http.MethodPost, key: true, serve: (*handler).decide},
	"decisions.csv":  {method: http.MethodGet, key: true, serve: (*handler).exportDecisions},
	"monitoring":     {method: http.MethodGet, key: true, serve: (*handler).monitoring},
	"profile/save":   {method: http.MethodPost, key: true, serve: (*handler).saveProfile},
	"profile/remove": {method: http.MethodPost, key: true, serve: (*handler).removeProfile},
	"profile/test":   {method: http.MethodPost, key: true, serve: (*handler).testWebhook},
	"outbox/requeue": {method: http.MethodPost, key: true, serve: (*handler).requeue},
	"data":           {method: http.MethodGet, key: true, serve: (*handler).data},
	// Casework: ui/queue.go, ui/alert.go, ui/audit.go.
	"queue":         {method: http.MethodGet, role: casework.Analyst, serve: (*handler).queue},
	"queue/bulk":    {method: http.MethodPost, role: casework.Analyst, serve: (*handler).bulk},
	"alert":         {method: http.MethodGet, role: casework.Analyst, serve: (*handler).alertPage},
	"alert/assign":  {method: http.MethodPost, role: casework.Analyst, serve: assignAlert},
	"alert/comment": {method: http.MethodPost, role: casework.Analyst, serve: commentAlert},
	"alert/propose": {method: http.MethodPost, role: casework.Analyst, serve: proposeAlert},
	"alert/approve": {method: http.MethodPost, role: casework.Reviewer, serve: approveAlert},
	"alert/return":  {method: http.MethodPost, role: casework.Reviewer, serve: sendBackAlert},
	"alert/report":  {method: http.MethodGet, role: casework.Analyst, serve: (*handler).alertReport},
	"summary":       {method: http.MethodGet, role: casework.Analyst, serve: (*handler).summary},
	"audit":         {method: http.MethodGet, role: casework.Analyst, serve: (*handler).auditPage},
	// The change digest: ui/changes.go.
	"changes": {method: http.MethodGet, serve: (*handler).changes},
}

// ServeHTTP answers every request of the workbench: the checks every
// request passes, then its page.
//
// It stays long: the security headers, the recovery, the static files,
// the size limits, the route and method check, the same-origin and CSRF
// checks and the session are steps every request takes in this order.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Frame-Options", "DENY")
	defer func() {
		if p := recover(); p != nil {
			// A bug costs one page, never the process, and shows no trace.
			h.log.Error("panic serving the workbench", "path", r.URL.Path, "panic", fmt.Sprint(p))
			h.fail(w, r, nil, http.StatusInternalServerError, "Something went wrong on the server. It was logged; try again, or tell your administrator.")
		}
	}()
	rest, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if strings.HasPrefix(rest, "static/") {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.static.ServeHTTP(w, r)
		return
	}
	hd.Set("Cache-Control", "no-store")
	if len(r.URL.RawQuery) > maxQueryBytes {
		h.fail(w, r, nil, http.StatusRequestURITooLong, fmt.Sprintf("The address is longer than %d KiB: shorten the names or sources.", maxQueryBytes>>10))
		return
	}
	rt, ok := routes[rest]
	if !ok {
		h.fail(w, r, h.currentSession(r), http.StatusNotFound, "There is no such page.")
		return
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		h.fail(w, r, nil, http.StatusMethodNotAllowed, "This page does not take a "+r.Method+" request.")
		return
	}
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			h.fail(w, r, nil, http.StatusBadRequest, "The form could not be read: it is larger than 64 KiB or malformed.")
			return
		}
		if !sameOrigin(r) {
			h.fail(w, r, nil, http.StatusForbidden, "This form did not come from this workbench, so it was refused.")
			return
		}
	}
	var s *session
	var id *Identity
	if !rt.public {
		s = h.currentSession(r)
		if s != nil {
			var err error
			if id, err = h.identify(s); err != nil {
				// The key was disabled or removed since the sign-in, or
				// the person was disabled or changed role: every session
				// of the key or person ends.
				h.sessions.endKey(s.keyID)
				h.log.Info("workbench session ended: its key or user is no longer valid", "who", s.name, "reason", err.Error())
				s = nil
			}
		}
		if s == nil {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, Prefix+"signin?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			h.fail(w, r, nil, http.StatusUnauthorized, "Your session has ended. Sign in again, then repeat what you were doing.")
			return
		}
		if r.Method == http.MethodPost && !sameToken(r.PostForm.Get("csrf"), s.csrf) {
			h.fail(w, r, s, http.StatusForbidden, "This form has expired or did not come from this page, so nothing was changed. Reload the page and try again.")
			return
		}
		if rt.role != "" && !h.requireRole(w, r, s, rt.role) {
			return
		}
		if rt.key && id == nil {
			h.fail(w, r, s, http.StatusForbidden, "This page screens through the API with a key, and this server names none for people: sign in with an API key, or ask the administrator to start serve with --workbench-key.")
			return
		}
	}
	if err := rt.serve(h, w, r, s, id); err != nil {
		var e *Error
		if errors.As(err, &e) {
			h.fail(w, r, s, e.Status, e.Message)
			return
		}
		h.log.Error("workbench request failed", "path", r.URL.Path, "error", err.Error())
		h.fail(w, r, s, http.StatusInternalServerError, "Something went wrong on the server. It was logged; try again, or tell your administrator.")
	}
}

// sameOrigin refuses a form posted from another site: browsers send
// Origin with every POST, and SameSite=Strict cookies already keep
// sessions out of cross-site requests. A request without Origin (not a
// browser) passes on to the CSRF token check.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && u.Host == r.Host
}

// currentSession returns the request's live session, or nil.
func (h *handler) currentSession(r *http.Request) *session {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil
	}
	return h.sessions.get(c.Value, h.now())
}

// secure says whether cookies get the Secure attribute: over TLS, behind
// a proxy that says it ended TLS (X-Forwarded-Proto: https; a false claim
// only keeps the browser from sending the cookie back over plain HTTP), or
// when configured.
func (h *handler) secure(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") || h.cfg.SecureCookies
}

func (h *handler) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: Prefix, MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: h.secure(r)})
}

// page is what every template gets.
type page struct {
	Title   string
	Nav     string
	Who     *Identity
	CSRF    string
	Flash   string
	Error   string
	Status  int
	Version string // the assets' version, for cache busting
	Sample  bool   // the database is the embedded sample: show the banner
	Data    any
	// User and Role are the person signed in and her role; "" for an
	// API-key session (Who names the key).
	User string
	Role string
}

// render writes a page with status.
func (h *handler) render(w http.ResponseWriter, name string, status int, p page) {
	t := h.pages[name]
	if t == nil {
		panic("ui: no template " + name)
	}
	p.Version = h.assetVersion
	p.Status = status
	p.Sample = h.cfg.Sample != nil && h.cfg.Sample()
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		h.log.Error("workbench page not rendered", "page", name, "error", err.Error())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte("The page could not be shown. It was logged; tell your administrator.\n"))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// fail shows a message page with status.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, s *session, status int, msg string) {
	p := page{Title: http.StatusText(status), Error: msg}
	if s != nil {
		if id, err := h.identify(s); err == nil {
			p.Who, p.CSRF, p.User, p.Role = id, s.csrf, s.user, s.role
		}
	}
	h.render(w, "message", status, p)
}

// base is a page for a session.
func (h *handler) base(s *session, id *Identity, title, nav string) page {
	return page{Title: title, Nav: nav, Who: id, User: s.user, Role: s.role, CSRF: s.csrf, Flash: h.sessions.takeFlash(s)}
}

// localURL returns u when it is a path of this workbench, else fallback:
// "back" and "next" values come from the browser and must not lead
// elsewhere.
func localURL(u, fallback string) string {
	if u == "" || !strings.HasPrefix(u, Prefix) || strings.HasPrefix(u, "//") || strings.ContainsAny(u, "\\\r\n") {
		return fallback
	}
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "" || p.Host != "" || path.Clean(p.Path)+"/" != p.Path && path.Clean(p.Path) != p.Path {
		return fallback
	}
	if !strings.HasPrefix(path.Clean(p.Path)+"/", Prefix) {
		return fallback
	}
	return u
}
