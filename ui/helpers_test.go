package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/monitor"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/server"
	"github.com/amlscreen/amlscreen/store"
)

// Keys of the tests.
const (
	keyA        = "key-a-secret"
	keyB        = "key-b-secret"
	keyDisabled = "key-disabled-secret"
	v0          = "2026-11-01T00:00:00Z~1"
)

// clock is a settable clock for sessions.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// bench is a workbench over the real parts: a store, the live index, the
// /v1 server, monitoring and decisions, served over loopback.
type bench struct {
	url  string
	st   *store.Store
	db   *screen.Database
	srv  *server.Server
	mon  *monitor.Monitor
	book *decision.Book
	// cw is the store's casework, the workbench's users.
	cw    *casework.Casework
	clock *clock
	// deliveries is what the handler lists as delivered.
	deliveries *DeliveryLog
	version    string
	step       int
}

// newBench is a bench over testdata/records.jsonl and sources.json.
func newBench(t *testing.T, configure ...func(*Config)) *bench {
	t.Helper()
	f, err := os.Open("testdata/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []record.Source
	b, _ := os.ReadFile("testdata/sources.json")
	if err := json.Unmarshal(b, &srcs); err != nil {
		t.Fatal(err)
	}
	return openBench(t, recs, srcs, configure...)
}

// openBench imports recs and srcs into a new store as version v0 and
// serves the workbench over it, its Config changed by configure.
func openBench(t testing.TB, recs []*record.Record, srcs []record.Source, configure ...func(*Config)) *bench {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "aml.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	i := 0
	next := func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}
	if err := st.ReplaceAll(v0, next, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.PutSources(srcs); err != nil {
		t.Fatal(err)
	}
	db, err := screen.Load(st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close) // before the store closes: cleanups run last first
	mon := monitor.New(st, monitor.Options{})
	srv, err := server.New(server.Config{
		DB: db, Store: st, Keys: testKeys(), FlushEvery: time.Hour,
		Endpoints: server.MonitorEndpoints(mon), ProfileCount: mon.Count,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c := &clock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	book := decision.New(st, decision.Options{})
	dl := NewDeliveryLog()
	cw := casework.New(st, casework.Options{Now: c.now, Argon2: testArgon})
	cfg := Config{Now: c.now, Casework: cw, Backend: NewBackend(Deps{
		API: srv.Handler(), Keys: srv, DB: db, Store: st, Monitor: mon, Decisions: book, Deliveries: dl,
	})}
	for _, fn := range configure {
		fn(&cfg)
	}
	h := Handler(cfg)
	mux := http.NewServeMux()
	mux.Handle(Prefix, h)
	mux.Handle("/", srv.Handler())
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &bench{url: ts.URL, st: st, db: db, srv: srv, mon: mon, book: book, cw: cw, clock: c, deliveries: dl, version: v0}
}

func testKeys() []*access.Key {
	return []*access.Key{
		{Key: keyA, Name: "analyst-a", WebhookURL: "http://127.0.0.1:1/hook"},
		{Key: keyB, Name: "analyst-b"},
		{Key: keyDisabled, Name: "former", Disabled: true},
	}
}

// change applies a change set that alters record id with fn, as serve's
// sync loop does: in the store, then swapped into the live index.
func (b *bench) change(t *testing.T, id string, fn func(r *record.Record)) {
	t.Helper()
	cur, err := b.st.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	next := cur.Clone()
	fn(next)
	b.step++
	nv := fmt.Sprintf("%s~%d", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC).Add(time.Duration(b.step)*time.Hour).Format(time.RFC3339), b.step+1)
	a, err := b.st.ApplyDelta(b.version, nv, []record.Change{{Type: record.ChangeUpdate, Record: *next}}, b.mon.Hook())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.srv.Apply(b.st, a); err != nil {
		t.Fatal(err)
	}
	b.version = nv
}

// client is a browser: a cookie jar and no redirects followed.
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
	// header is added to every request.
	header http.Header
}

func (b *bench) client(t *testing.T) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: b.url, header: http.Header{},
		hc: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// response is what a request got.
type response struct {
	status   int
	body     string
	location string
	header   http.Header
}

func (c *client) do(method, path string, form url.Values) response {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, body: string(b), location: resp.Header.Get("Location"), header: resp.Header}
}

func (c *client) get(path string) response { return c.do(http.MethodGet, path, nil) }

func (c *client) post(path string, form url.Values) response {
	return c.do(http.MethodPost, path, form)
}

var (
	tokenRE       = regexp.MustCompile(`name="token" value="([^"]+)"`)
	csrfRE        = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	fingerprintRE = regexp.MustCompile(`name="fingerprint" value="([^"]+)"`)
)

func find(t *testing.T, re *regexp.Regexp, body string) string {
	t.Helper()
	m := re.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %s in the page:\n%s", re, body)
	}
	return m[1]
}

// signIn signs c in with key and returns the answer to the sign-in.
func (c *client) signIn(key string) response {
	c.t.Helper()
	page := c.get("/ui/signin")
	return c.post("/ui/signin/submit", url.Values{"token": {find(c.t, tokenRE, page.body)}, "key": {key}})
}

// testArgon makes the users' password hashes cheap in tests.
var testArgon = casework.Argon2Params{Memory: 64, Time: 1, Threads: 1}

// testPassword is every test user's password.
const testPassword = "correct horse battery"

// addUser adds the user name with role and testPassword.
func (b *bench) addUser(t *testing.T, name, role string) {
	t.Helper()
	if err := b.cw.AddUser(casework.Operator("test"), name, role, testPassword); err != nil {
		t.Fatal(err)
	}
}

// signInUser signs c in as the user name with password.
func (c *client) signInUser(name, password string) response {
	c.t.Helper()
	page := c.get("/ui/signin")
	return c.post("/ui/signin/user", url.Values{"token": {find(c.t, tokenRE, page.body)}, "name": {name}, "password": {password}})
}

// person returns a client signed in as the user name (added before).
func (b *bench) person(t *testing.T, name string) *client {
	t.Helper()
	c := b.client(t)
	if r := c.signInUser(name, testPassword); r.status != http.StatusSeeOther {
		t.Fatalf("sign-in as %s: %d\n%s", name, r.status, r.body)
	}
	return c
}

// signedIn returns a client signed in with key.
func (b *bench) signedIn(t *testing.T, key string) *client {
	t.Helper()
	c := b.client(t)
	if r := c.signIn(key); r.status != http.StatusSeeOther {
		t.Fatalf("sign-in with %s: %d\n%s", key, r.status, r.body)
	}
	return c
}

// pageErrorRE is the message of a page that says what was not done.
var pageErrorRE = regexp.MustCompile(`(?s)id="page-error"><strong>[^<]*</strong>(.*?)</div>`)

// csrfAny returns the session's CSRF token from the sign-out form of
// any page, which every session may see (the screen page sends people
// without a key away).
func (c *client) csrfAny() string {
	c.t.Helper()
	return find(c.t, csrfRE, c.get("/ui/screen").body)
}

// csrf returns the session's CSRF token from a page.
func (c *client) csrf() string {
	c.t.Helper()
	return find(c.t, csrfRE, c.get("/ui/screen").body)
}

// screen screens names (an individual, exact) with extra form values.
func (c *client) screen(names string, extra ...string) response {
	c.t.Helper()
	v := url.Values{"names": {names}, "type": {"individual"}}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return c.get("/ui/screen?" + v.Encode())
}

// decide records status on recordID for subject from its record page.
func (c *client) decide(recordID, subject, status, note string) response {
	c.t.Helper()
	page := c.get("/ui/record?" + url.Values{"id": {recordID}, "subject": {subject}}.Encode())
	if page.status != http.StatusOK {
		c.t.Fatalf("record page %s: %d\n%s", recordID, page.status, page.body)
	}
	return c.post("/ui/decide", url.Values{"csrf": {find(c.t, csrfRE, page.body)}, "record_id": {recordID}, "subject": {subject},
		"status": {status}, "note": {note}, "fingerprint": {find(c.t, fingerprintRE, page.body)}})
}

// hitsTable returns the part of a screening page that lists the hits to
// review, without the suppressed ones.
func hitsTable(body string) string {
	start := strings.Index(body, `id="results-title"`)
	if start < 0 {
		return ""
	}
	rest := body[start:]
	if end := strings.Index(rest, `<details class="suppressed"`); end >= 0 {
		return rest[:end]
	}
	return rest
}

// suppressedTable returns the suppressed hits' part of a screening page.
func suppressedTable(body string) string {
	start := strings.Index(body, `<details class="suppressed"`)
	if start < 0 {
		return ""
	}
	return body[start:]
}
