package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/sign"
	"github.com/amlscreen/amlscreen/store"
	"github.com/amlscreen/amlscreen/syncer"
)

// Keys of testdata/keys.json.
const (
	keyBasic    = "basic-key-0001"
	keyFull     = "full-key-0002"
	keyQuota    = "quota-key-0003"
	keyDisabled = "disabled-key-0004"
	keyPicky    = "picky-key-0005"
)

// testVersion is the version testdata/records.jsonl is imported as.
const testVersion = "2026-11-01T00:00:00Z~1"

// clock is a settable time source shared by the store and the server.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is a server over a store holding testdata/records.jsonl, the
// catalogue of testdata/sources.json and the keys of testdata/keys.json,
// answering over loopback HTTP.
type fixture struct {
	t         testing.TB
	clock     *clock
	storePath string
	keysPath  string
	st        *store.Store
	db        *screen.Database
	ring      *sign.Keyring
	srv       *Server
	ts        *httptest.Server
}

// newFixture starts a fixture; edit changes its Config before New.
func newFixture(t testing.TB, edit ...func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{t: t, clock: &clock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}}
	f.storePath = filepath.Join(dir, "aml.db")
	f.keysPath = filepath.Join(dir, "keys.json")
	copyFile(t, "testdata/keys.json", f.keysPath)
	st, err := store.Open(f.storePath, store.Options{Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.st = st
	t.Cleanup(func() { st.Close() })
	importFixture(t, st)
	f.ring, err = sign.OpenKeyring(filepath.Join(dir, "signing-keys"))
	if err != nil {
		t.Fatal(err)
	}
	f.start(edit...)
	return f
}

// importFixture loads the records and the catalogue into st.
func importFixture(t testing.TB, st *store.Store) {
	t.Helper()
	in, err := os.Open("testdata/records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, err := syncer.ImportFile(st, in, testVersion, nil); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/sources.json")
	if err != nil {
		t.Fatal(err)
	}
	var srcs []record.Source
	if err := json.Unmarshal(raw, &srcs); err != nil {
		t.Fatal(err)
	}
	if err := st.PutSources(srcs); err != nil {
		t.Fatal(err)
	}
}

// start (re)starts the server over the fixture's store.
func (f *fixture) start(edit ...func(*Config)) {
	t := f.t
	t.Helper()
	db, err := screen.Load(f.st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	f.db = db
	cfg := Config{DB: db, Store: f.st, KeysFile: f.keysPath, Signer: f.ring, Now: f.clock.Now, FlushEvery: 20 * time.Millisecond}
	for _, e := range edit {
		e(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	f.ts = httptest.NewServer(srv.Handler())
	t.Cleanup(f.stop)
}

// stop closes the HTTP server and the server, flushing usage.
func (f *fixture) stop() {
	if f.ts != nil {
		f.ts.Close()
		f.ts = nil
	}
	if f.srv != nil {
		if err := f.srv.Close(); err != nil {
			f.t.Error(err)
		}
	}
}

// applyDelta applies a delta fixture to the store and the running server,
// as serve does after a sync, and returns the new version.
func (f *fixture) applyDelta(name, version string) *store.Applied {
	f.t.Helper()
	in, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		f.t.Fatal(err)
	}
	defer in.Close()
	cur, err := f.st.Version()
	if err != nil {
		f.t.Fatal(err)
	}
	a, err := syncer.ApplyFile(f.st, in, cur.ID, version, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := f.srv.Apply(f.st, a); err != nil {
		f.t.Fatal(err)
	}
	return a
}

// answer is a response with its body read.
type answer struct {
	*http.Response
	body []byte
}

// get sends GET path with key (none when "") and extra header pairs.
// testClient is shared so that connections are reused: a client per
// request left one idle connection open each, and a fuzz run ran out of
// file descriptors. No transparent decompression: tests look at what was
// sent.
var testClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

func (f *fixture) get(key, path string, header ...string) answer {
	return f.do(http.MethodGet, key, path, header...)
}

func (f *fixture) do(method, key, path string, header ...string) answer {
	f.t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := testClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return answer{resp, body}
}

// errorMessage checks that a is a JSON error with status and returns its
// message.
func (a answer) errorMessage(t *testing.T, status int) string {
	t.Helper()
	if a.StatusCode != status {
		t.Fatalf("%s: status %d, want %d; body %s", a.Request.URL.Path, a.StatusCode, status, a.body)
	}
	if ct := a.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q, want application/json", a.Request.URL.Path, ct)
	}
	var e map[string]any
	if err := json.Unmarshal(a.body, &e); err != nil {
		t.Fatalf("%s: error body is not JSON: %v: %s", a.Request.URL.Path, err, a.body)
	}
	msg, ok := e["error_message"].(string)
	if !ok || msg == "" || len(e) != 1 {
		t.Fatalf("%s: error body %s: want exactly a non-empty error_message", a.Request.URL.Path, a.body)
	}
	return msg
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestErrorRows sends every error of SERVICE.md §7 and SEMANTICS.md
// "Requests and errors" over HTTP and checks status and JSON body.
func TestErrorRows(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, method, key, path string
		status                  int
		msgHas                  string
	}{
		{"no key", "GET", "", "/v1/checkIndividual?names=putin", 401, "x-api-key"},
		{"unknown key", "GET", "nope", "/v1/checkIndividual?names=putin", 401, "invalid"},
		{"key differing in last byte", "GET", "basic-key-0002", "/v1/checkIndividual?names=putin", 401, "invalid"},
		{"disabled key", "GET", keyDisabled, "/v1/checkIndividual?names=putin", 403, "disabled"},
		{"disabled key on a free endpoint", "GET", keyDisabled, "/v1/usage", 403, "disabled"},
		{"unknown path", "GET", keyBasic, "/v1/checkEverything?names=x", 404, "unknown path"},
		{"unknown path outside v1", "GET", keyBasic, "/", 404, "unknown path"},
		{"POST", "POST", keyBasic, "/v1/checkIndividual?names=putin", 405, "POST"},
		{"DELETE", "DELETE", keyBasic, "/v1/usage", 405, "DELETE"},
		{"citizenship three letters", "GET", keyBasic, "/v1/checkIndividual?names=putin&citizenship=RUS", 400, "citizenship"},
		{"citizenship digits", "GET", keyBasic, "/v1/checkIndividual?names=putin&citizenship=1A", 400, "citizenship"},
		{"names and search_all", "GET", keyBasic, "/v1/checkIndividual?names=putin&search_all=putin", 400, "cannot be combined"},
		{"neither names nor search_all", "GET", keyBasic, "/v1/checkIndividual?dob=07/10/1952", 400, "required"},
		{"neither on checkEntity", "GET", keyBasic, "/v1/checkEntity", 400, "required"},
		{"fuzzy_search 3", "GET", keyBasic, "/v1/checkIndividual?names=putin&fuzzy_search=3", 400, "fuzzy_search"},
		{"fuzzy_search true", "GET", keyBasic, "/v1/checkEntity?names=acme&fuzzy_search=true", 400, "fuzzy_search"},
		{"names twice", "GET", keyBasic, "/v1/checkIndividual?names=putin&names=kim", 400, "names given 2 times"},
		{"includes twice", "GET", keyBasic, "/v1/checkName?names=putin&includes=un_sc&includes=ofac_sdn", 400, "includes given 2 times"},
		{"bad dob", "GET", keyBasic, "/v1/checkIndividual?names=putin&dob=32/01/2000", 400, "dob"},
		{"bad gender", "GET", keyBasic, "/v1/checkIndividual?names=putin&gender=x", 400, "gender"},
		{"unknown includes", "GET", keyBasic, "/v1/checkIndividual?names=putin&includes=included,nowhere", 400, "nowhere"},
		{"names without words", "GET", keyBasic, "/v1/checkName?names=%20-%20", 400, "no word"},
		{"malformed query", "GET", keyBasic, "/v1/checkName?names=%zz", 400, "malformed"},
		{"usage month format", "GET", keyBasic, "/v1/usage?month=2026-1", 400, "yyyy-MM"},
		{"usage month 13", "GET", keyBasic, "/v1/usage?month=2026-13", 400, "yyyy-MM"},
		{"usage month words", "GET", keyBasic, "/v1/usage?month=November", 400, "yyyy-MM"},
		{"usage other parameter", "GET", keyBasic, "/v1/usage?month=2026-11&foo=1", 400, "yyyy-MM"},
		{"usage month twice", "GET", keyBasic, "/v1/usage?month=2026-11&month=2026-10", 400, "month given 2 times"},
		{"keys forbidden character", "GET", keyBasic, "/v1/keys/abc$def", 400, "allowed"},
		{"keys slash", "GET", keyBasic, "/v1/keys/a%2Fb", 400, "allowed"},
		{"keys empty", "GET", keyBasic, "/v1/keys/", 400, "allowed"},
		{"keys unknown", "GET", keyBasic, "/v1/keys/k-2000-01-01T00-00-00Z-000000000000", 404, "unknown"},
		{"keys previous before rotation", "GET", keyBasic, "/v1/keys/previous", 404, "unknown"},
		{"keys without kid", "GET", keyBasic, "/v1/keys", 404, "unknown path"},
		{"delta without previous", "GET", keyBasic, "/v1/getConsolidatedDelta", 400, "previous"},
		{"delta unknown previous", "GET", keyBasic, "/v1/getConsolidatedDelta?previous=2020-01-01T00:00:00Z~9", 400, PreviousUnknown},
		{"file unknown includes", "GET", keyBasic, "/v1/getConsolidatedFile?includes=nowhere", 400, "nowhere"},
		{"report without names", "GET", keyBasic, "/v1/generateIndividualReport?dob=07/10/1952", 400, "names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := f.do(c.method, c.key, c.path)
			msg := a.errorMessage(t, c.status)
			if !strings.Contains(msg, c.msgHas) {
				t.Errorf("message %q does not mention %q", msg, c.msgHas)
			}
			if c.status == 405 && a.Header.Get("Allow") != "GET" {
				t.Errorf("405 without Allow: GET (got %q)", a.Header.Get("Allow"))
			}
		})
	}
	// The delta message is the service's exact text: clients match it.
	a := f.get(keyBasic, "/v1/getConsolidatedDelta?previous=unknown")
	if msg := a.errorMessage(t, 400); msg != PreviousUnknown {
		t.Errorf("delta message %q, want %q", msg, PreviousUnknown)
	}
}

// TestUnknownParameterWarning: parameters an endpoint does not define are
// ignored and named in one Warning header.
func TestUnknownParameterWarning(t *testing.T) {
	f := newFixture(t)
	a := f.get(keyBasic, "/v1/checkIndividual?names=putin&fuzzy=true&country=DE")
	if a.StatusCode != 200 {
		t.Fatalf("status %d: %s", a.StatusCode, a.body)
	}
	got := a.Header.Values("Warning")
	want := []string{`299 - "unknown parameters ignored: country, fuzzy"`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Warning headers %q, want %q", got, want)
	}
	// A filter checkEntity does not define is ignored, not applied: with
	// it applied, the entity (which has no dob) would still pass, so use
	// citizenship on checkEntity against a record with jurisdiction only.
	a = f.get(keyBasic, "/v1/checkEntity?names=acme%20trading%20llc&dob=32/13/2000")
	if a.StatusCode != 200 {
		t.Fatalf("checkEntity with an undefined bad dob: status %d: %s", a.StatusCode, a.body)
	}
	if w := a.Header.Get("Warning"); !strings.Contains(w, "dob") {
		t.Errorf("Warning %q does not name dob", w)
	}
	// A quote in a parameter name cannot break the header.
	a = f.get(keyBasic, `/v1/checkName?names=putin&a%22b=1`)
	if w := a.Header.Get("Warning"); w != `299 - "unknown parameter ignored: a\"b"` {
		t.Errorf("Warning %q", w)
	}
	// No warning when every parameter is known.
	a = f.get(keyBasic, "/v1/checkName?names=putin&fuzzy_search=")
	if w := a.Header.Values("Warning"); len(w) != 0 {
		t.Errorf("unexpected Warning %q", w)
	}
}

// TestOpsEndpoints: health, readiness and metrics need no key.
func TestOpsEndpoints(t *testing.T) {
	f := newFixture(t)
	if a := f.get("", "/healthz"); a.StatusCode != 200 || string(a.body) != `{"status":"ok"}` {
		t.Errorf("healthz: %d %s", a.StatusCode, a.body)
	}
	a := f.get("", "/readyz")
	if a.StatusCode != 200 || !strings.Contains(string(a.body), testVersion) {
		t.Errorf("readyz: %d %s", a.StatusCode, a.body)
	}
	f.get(keyBasic, "/v1/checkIndividual?names=putin")
	f.get(keyBasic, "/v1/checkIndividual?names=putin&fuzzy_search=9")
	f.get(keyBasic, "/nothing")
	fams := f.scrape()
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "/v1/checkIndividual", "code", "200")
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "/v1/checkIndividual", "code", "400")
	wantValue(t, fams, 1, "amlscreen_http_requests_total", "endpoint", "unmatched", "code", "404")
	wantValue(t, fams, 2, "amlscreen_http_request_duration_seconds", "endpoint", "/v1/checkIndividual")
	wantValue(t, fams, 12, "amlscreen_index_records")
	wantValue(t, fams, 1, "amlscreen_store_version_info", "version", testVersion)
	wantValue(t, fams, 1, "amlscreen_ready")
	f.srv.SetReady(false)
	wantValue(t, f.scrape(), 0, "amlscreen_ready")
	if a := f.get("", "/readyz"); a.StatusCode != 503 {
		t.Errorf("readyz while shutting down: %d", a.StatusCode)
	}
	if a := f.do("POST", "", "/healthz"); a.StatusCode != 405 {
		t.Errorf("POST /healthz: %d", a.StatusCode)
	}
}

// TestKeysReload: a changed keys file takes effect on ReloadKeys (SIGHUP);
// a broken one leaves the keys in place.
func TestKeysReload(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.keysPath, []byte(`[{"key":"new-key-9999","name":"new"},{"key":"basic-key-0001","disabled":true}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.ReloadKeys(); err != nil {
		t.Fatal(err)
	}
	if a := f.get("new-key-9999", "/v1/checkName?names=putin"); a.StatusCode != 200 {
		t.Errorf("new key: %d %s", a.StatusCode, a.body)
	}
	f.get(keyBasic, "/v1/checkName?names=putin").errorMessage(t, 403)
	f.get(keyFull, "/v1/checkName?names=putin").errorMessage(t, 401)

	for _, bad := range []string{
		`{"key":"x"}`,
		`[{"key":""}]`,
		`[{"key":"a"},{"key":"a"}]`,
		`[{"key":"a","montly_quota":5}]`,
		`[{"key":"a","monthly_quota":-1}]`,
		`[{"key":"a b"}]`,
		`[{"key":"a","webhook_url":"ftp://x"}]`,
		// No enabled key: every client would get 401 or 403.
		`null`, `[]`, ` [ ] `, `[{"key":"a","disabled":true}]`,
	} {
		if err := os.WriteFile(f.keysPath, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		err := f.srv.ReloadKeys()
		if err == nil {
			t.Errorf("keys file %s accepted", bad)
			continue
		}
		if strings.Contains(err.Error(), `"a"`) || strings.Contains(err.Error(), "key-9999") {
			t.Errorf("error shows a key: %v", err)
		}
	}
	if a := f.get("new-key-9999", "/v1/checkName?names=putin"); a.StatusCode != 200 {
		t.Errorf("keys lost after a failed reload: %d", a.StatusCode)
	}
}

// TestNoEnabledKeyRefused: a server does not start on a keys file with no
// enabled key, nor on an empty Config.Keys.
func TestNoEnabledKeyRefused(t *testing.T) {
	f := newFixture(t)
	for _, body := range []string{`null`, `[]`, `[{"key":"a","disabled":true}]`} {
		if err := os.WriteFile(f.keysPath, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := New(Config{DB: f.db, KeysFile: f.keysPath})
		if !errors.Is(err, access.ErrNoEnabledKey) || !strings.Contains(err.Error(), f.keysPath) {
			t.Errorf("keys file %s: New gives %v, want access.ErrNoEnabledKey naming the file", body, err)
		}
	}
	if _, err := New(Config{DB: f.db}); !errors.Is(err, access.ErrNoEnabledKey) {
		t.Errorf("no keys: New gives %v", err)
	}
}

// TestRouteTableExtension: an endpoint from Config.Endpoints gets auth,
// usage and errors like the built-in ones; a path taken twice is refused.
func TestRouteTableExtension(t *testing.T) {
	ep := Endpoint{Path: "/v1/removeSearchProfile", Params: []string{"profile_id"}, Handle: func(s *Server, c *Call) error {
		if c.Param("profile_id") == "" {
			return Errorf(400, "profile_id: required")
		}
		return c.JSON([]byte(`{"status":"success"}`))
	}}
	f := newFixture(t, func(c *Config) { c.Endpoints = []Endpoint{ep} })
	if a := f.get(keyBasic, "/v1/removeSearchProfile?profile_id=p1"); a.StatusCode != 200 {
		t.Fatalf("%d %s", a.StatusCode, a.body)
	}
	f.get(keyBasic, "/v1/removeSearchProfile").errorMessage(t, 400)
	f.get("", "/v1/removeSearchProfile?profile_id=p1").errorMessage(t, 401)
	u := usageOf(t, f, keyBasic, "")
	if len(u.Endpoints) != 1 || u.Endpoints[0].Path != "/v1/removeSearchProfile" || u.Endpoints[0].MonthlyUsed != 1 || u.Summary.BilledUsed != 0 {
		t.Errorf("usage %+v", u)
	}
	if _, err := New(Config{DB: f.db, Keys: nil, Endpoints: []Endpoint{{Path: "/v1/usage", Handle: ep.Handle}}}); err == nil {
		t.Error("a second /v1/usage was accepted")
	}
}
