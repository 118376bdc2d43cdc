package ui

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
)

func TestSignIn(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.client(t)
	// Pages need a session: a GET is sent to the sign-in, keeping where
	// it was going.
	r := c.get("/ui/screen?names=ivan")
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/ui/signin?next=") {
		t.Fatalf("unsigned GET: %d to %q", r.status, r.location)
	}
	for _, tt := range []struct {
		key    string
		status int
		msg    string
	}{
		{"nope", http.StatusUnauthorized, "This API key is not known to this server."},
		{keyDisabled, http.StatusForbidden, "This API key is disabled."},
		{"", http.StatusBadRequest, "Enter your API key."},
	} {
		r := c.signIn(tt.key)
		if r.status != tt.status || !strings.Contains(r.body, tt.msg) {
			t.Errorf("sign-in with %q: %d, want %d with %q", tt.key, r.status, tt.status, tt.msg)
		}
		if strings.Contains(r.body, tt.key) && tt.key != "" {
			t.Errorf("the refused key is shown on the page")
		}
	}
	// A sign-in without the form's token (posted from elsewhere) is
	// refused.
	r = c.post("/ui/signin/submit", url.Values{"token": {"forged"}, "key": {keyA}})
	if r.status != http.StatusForbidden {
		t.Errorf("sign-in with a forged token: %d", r.status)
	}
	page := c.get("/ui/signin?next=" + url.QueryEscape("/ui/data"))
	r = c.post("/ui/signin/submit", url.Values{"token": {find(t, tokenRE, page.body)}, "key": {keyA}, "next": {"/ui/data"}})
	if r.status != http.StatusSeeOther || r.location != "/ui/data" {
		t.Fatalf("sign-in: %d to %q", r.status, r.location)
	}
	cookie := r.header.Values("Set-Cookie")
	var session string
	for _, c := range cookie {
		if strings.HasPrefix(c, sessionCookie+"=") {
			session = c
		}
	}
	for _, attr := range []string{"Path=/ui/", "HttpOnly", "SameSite=Strict", "Max-Age=28800"} {
		if !strings.Contains(session, attr) {
			t.Errorf("session cookie %q lacks %s", session, attr)
		}
	}
	if strings.Contains(session, "Secure") {
		t.Errorf("session cookie over plain HTTP is Secure: %q", session)
	}
	if r := c.get("/ui/data"); r.status != http.StatusOK || !strings.Contains(r.body, "analyst-a") {
		t.Errorf("signed-in page: %d", r.status)
	}
	// Behind a proxy that ended TLS, the cookie is Secure.
	p := b.client(t)
	p.header.Set("X-Forwarded-Proto", "https")
	if r := p.signIn(keyA); !strings.Contains(strings.Join(r.header.Values("Set-Cookie"), "\n"), "Secure") {
		t.Errorf("cookie behind TLS is not Secure: %v", r.header.Values("Set-Cookie"))
	}
	// Sign-out ends the session.
	out := c.post("/ui/signout", url.Values{"csrf": {c.csrf()}})
	if out.status != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", out.status)
	}
	if r := c.get("/ui/screen"); r.status != http.StatusSeeOther {
		t.Errorf("after sign-out: %d", r.status)
	}
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	idle := b.signedIn(t, keyA)
	b.clock.add(59 * time.Minute)
	if r := idle.get("/ui/screen"); r.status != http.StatusOK {
		t.Fatalf("after 59 idle minutes: %d", r.status)
	}
	b.clock.add(time.Hour)
	if r := idle.get("/ui/screen"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/ui/signin") {
		t.Errorf("after an idle hour: %d to %q, want the sign-in", r.status, r.location)
	}
	// A session in use ends eight hours after sign-in all the same.
	busy := b.signedIn(t, keyA)
	for i := 0; i < 15; i++ {
		b.clock.add(30 * time.Minute)
		if r := busy.get("/ui/screen"); r.status != http.StatusOK {
			t.Fatalf("busy session ended after %v", time.Duration(i+1)*30*time.Minute)
		}
	}
	b.clock.add(30 * time.Minute)
	if r := busy.get("/ui/screen"); r.status != http.StatusSeeOther {
		t.Errorf("after 8 hours: %d, want the sign-in", r.status)
	}
	// A POST of an ended session changes nothing and says so.
	if r := busy.post("/ui/decide", url.Values{"csrf": {"x"}}); r.status != http.StatusUnauthorized || !strings.Contains(r.body, "Your session has ended") {
		t.Errorf("POST after expiry: %d", r.status)
	}
}

func TestDisabledKeyEndsSessions(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	keys := testKeys()
	keys[0].Disabled = true
	if err := b.srv.SetKeys(keys); err != nil {
		t.Fatal(err)
	}
	if r := c.get("/ui/screen"); r.status != http.StatusSeeOther {
		t.Errorf("the session of a disabled key goes on: %d", r.status)
	}
}

func TestCSRFRefused(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	page := c.get("/ui/record?id=R1&subject=C-1")
	form := url.Values{"record_id": {"R1"}, "subject": {"C-1"}, "status": {decision.FalsePositive},
		"fingerprint": {find(t, fingerprintRE, page.body)}}
	for name, csrf := range map[string][]string{"no token": nil, "wrong token": {"x" + c.csrf()}, "another session's": {b.signedIn(t, keyA).csrf()}} {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		if csrf != nil {
			f["csrf"] = csrf
		}
		if r := c.post("/ui/decide", f); r.status != http.StatusForbidden || !strings.Contains(r.body, "nothing was changed") {
			t.Errorf("%s: %d", name, r.status)
		}
	}
	// A form posted from another site is refused, token or not.
	c.header.Set("Origin", "http://evil.example")
	f := url.Values{"csrf": {find(t, csrfRE, page.body)}}
	for k, v := range form {
		f[k] = v
	}
	if r := c.post("/ui/decide", f); r.status != http.StatusForbidden {
		t.Errorf("cross-origin post: %d", r.status)
	}
	c.header.Del("Origin")
	if n, _ := b.book.Count(""); n != 0 {
		t.Fatalf("%d decisions stored by refused forms", n)
	}
	// Sign-out is a state change too.
	if r := c.post("/ui/signout", url.Values{}); r.status != http.StatusForbidden {
		t.Errorf("sign-out without token: %d", r.status)
	}
	if r := c.post("/ui/decide", f); r.status != http.StatusSeeOther {
		t.Errorf("the real form: %d\n%s", r.status, r.body)
	}
}

// TestDecisionsStick is the workflow: a false positive is suppressed on
// the next screening, comes back marked when the record changes, and a
// true match is never suppressed.
func TestDecisionsStick(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	r := c.screen("ivan petrov")
	if r.status != http.StatusOK || !strings.Contains(hitsTable(r.body), "R1") {
		t.Fatalf("screening: %d\n%s", r.status, r.body)
	}
	subject := "q:individual:names=ivan petrov"
	if !strings.Contains(r.body, subject) {
		t.Errorf("the page does not name the subject %q", subject)
	}
	d := c.decide("R1", subject, decision.FalsePositive, "born 1971")
	if d.status != http.StatusSeeOther {
		t.Fatalf("decide: %d\n%s", d.status, d.body)
	}
	r = c.screen("Petrov Ivan") // the same subject, words in another order
	if strings.Contains(hitsTable(r.body), ">R1<") || !strings.Contains(suppressedTable(r.body), "R1") {
		t.Fatalf("R1 not suppressed:\n%s", r.body)
	}
	if !strings.Contains(r.body, "Recorded false positive on record R1") {
		t.Errorf("no confirmation of the decision")
	}
	// Another subject is not affected.
	if r := c.screen("ivan petrov", "subject", "C-9"); !strings.Contains(hitsTable(r.body), "R1") {
		t.Errorf("a decision for the query suppresses the hit for customer C-9")
	}
	// The record changes: the hit comes back, marked.
	b.change(t, "R1", func(r *record.Record) { r.Address = append(r.Address, "Limassol") })
	r = c.screen("ivan petrov")
	table := hitsTable(r.body)
	if !strings.Contains(table, "R1") || !strings.Contains(table, "Changed since decision") || suppressedTable(r.body) != "" {
		t.Fatalf("after the change R1 is not back, marked:\n%s", r.body)
	}
	// Deciding again on the new content suppresses it again.
	c.decide("R1", subject, decision.FalsePositive, "still not him")
	if r := c.screen("ivan petrov"); !strings.Contains(suppressedTable(r.body), "R1") {
		t.Errorf("not suppressed after deciding again")
	}
	// A true match stays visible with its decision.
	c.decide("R2", subject, decision.TrueMatch, "confirmed")
	table = hitsTable(c.screen("ivan petrov", "fuzzy", "2").body)
	if !strings.Contains(table, "R2") || !strings.Contains(table, "true match") {
		t.Errorf("true match not shown with its decision:\n%s", table)
	}
	// The record page shows the audit trail.
	page := c.get("/ui/record?id=R1&subject=" + url.QueryEscape(subject))
	if !strings.Contains(page.body, "still not him") || !strings.Contains(page.body, "born 1971") {
		t.Errorf("record page lacks the history")
	}
	// And when the record last changed.
	if !strings.Contains(page.body, "<p>Updated ") || !strings.Contains(page.body, "version <code>"+b.version+"</code>") {
		t.Errorf("record page does not say when R1 changed")
	}
	if p := c.get("/ui/record?id=R3"); !strings.Contains(p.body, "Unchanged since the database was first imported") {
		t.Errorf("record page of an unchanged record:\n%s", p.body)
	}
	h, _ := b.book.History(access.KeyID(keyA), subject, "R1")
	if len(h) != 2 || h[0].Who != "analyst-a" || h[0].Note != "born 1971" {
		t.Errorf("history %+v", h)
	}
	// The decisions download is the key's audit trail.
	csv := c.get("/ui/decisions.csv")
	if csv.status != http.StatusOK || strings.Count(csv.body, "\n") != 4 || !strings.Contains(csv.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("decisions.csv: %d\n%s", csv.status, csv.body)
	}
}

// TestStaleReviewRefused: a decision on content the analyst did not see
// is refused, so it can never suppress a record that changed meanwhile.
func TestStaleReviewRefused(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	page := c.get("/ui/record?id=R1&subject=C-1")
	b.change(t, "R1", func(r *record.Record) { r.AliasNames = []string{"Ivan Petroff"} })
	r := c.post("/ui/decide", url.Values{"csrf": {find(t, csrfRE, page.body)}, "record_id": {"R1"}, "subject": {"C-1"},
		"status": {decision.FalsePositive}, "note": {"kept"}, "fingerprint": {find(t, fingerprintRE, page.body)}})
	if r.status != http.StatusConflict || !strings.Contains(r.body, "changed while you were reviewing it") || !strings.Contains(r.body, "Ivan Petroff") {
		t.Errorf("stale decision: %d\n%s", r.status, r.body)
	}
	if !strings.Contains(r.body, ">kept</textarea>") {
		t.Errorf("the note typed is lost")
	}
	if n, _ := b.book.Count(""); n != 0 {
		t.Errorf("%d decisions stored", n)
	}
}

func TestKeysAreIsolated(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	a := b.signedIn(t, keyA)
	a.decide("R1", "C-1", decision.FalsePositive, "secret note of a")
	save := a.post("/ui/profile/save", url.Values{"csrf": {a.csrf()}, "profile_id": {"p-a"}, "type": {"individual"}, "names": {"Ivan Petrov"}})
	if save.status != http.StatusSeeOther {
		t.Fatalf("register: %d\n%s", save.status, save.body)
	}
	other := b.signedIn(t, keyB)
	if r := other.screen("ivan petrov", "subject", "C-1"); !strings.Contains(hitsTable(r.body), "R1") || strings.Contains(r.body, "secret note of a") {
		t.Errorf("key B sees key A's decision")
	}
	if r := other.get("/ui/record?id=R1&subject=C-1"); strings.Contains(r.body, "secret note of a") || strings.Contains(r.body, "Decisions on this record") {
		t.Errorf("key B's record page shows key A's decisions")
	}
	if r := other.get("/ui/monitoring"); strings.Contains(r.body, "p-a") {
		t.Errorf("key B sees key A's profile")
	}
	if r := other.get("/ui/decisions.csv"); strings.Count(r.body, "\n") != 1 {
		t.Errorf("key B's decisions.csv:\n%s", r.body)
	}
	if r := other.get("/ui/data"); !strings.Contains(r.body, "0 decisions") {
		t.Errorf("key B's data page counts key A's decisions")
	}
	// Key B cannot remove key A's profile: removal is per key (it removes
	// B's profile of that id, which does not exist).
	other.post("/ui/profile/remove", url.Values{"csrf": {other.csrf()}, "profile_id": {"p-a"}})
	if ps, _ := b.mon.Profiles(access.KeyID(keyA)); len(ps) != 1 {
		t.Errorf("key A's profile is gone")
	}
}

// TestEscaping: what records, notes and forms hold is shown as text.
func TestEscaping(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	subject := `C-"><script>alert(2)</script>`
	r := c.screen("petrov", "subject", subject, "fuzzy", "0")
	if !strings.Contains(r.body, "X1") {
		t.Fatalf("the fixture is not a hit:\n%s", r.body)
	}
	c.decide("X1", subject, decision.Escalated, `<script>alert(3)</script> & "quoted"`)
	for _, page := range []response{c.screen("petrov", "subject", subject), c.get("/ui/record?id=X1&subject=" + url.QueryEscape(subject))} {
		for _, bad := range []string{"<script>alert", "<img src=x", "<b>bold</b>", `"><script>`} {
			if strings.Contains(page.body, bad) {
				t.Errorf("%q reaches the page unescaped", bad)
			}
		}
		if !strings.Contains(page.body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; Petrov") {
			t.Errorf("the record's name is not shown as text")
		}
	}
	// The only script elements are the page's own.
	page := c.get("/ui/record?id=X1&subject=" + url.QueryEscape(subject))
	if n := strings.Count(page.body, "<script"); n != 1 {
		t.Errorf("%d script elements on the record page, want the one of the layout", n)
	}
	if csp := page.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

// TestBadInput: the page shows the API's own message for bad values,
// with the status it answers, and never a trace.
func TestBadInput(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	api := func(path string, q url.Values) string {
		req, _ := http.NewRequest(http.MethodGet, b.url+path+"?"+q.Encode(), nil)
		req.Header.Set("x-api-key", keyA)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct {
			Message string `json:"error_message"`
		}
		body, _ := io.ReadAll(resp.Body)
		json.Unmarshal(body, &e)
		return e.Message
	}
	for _, tt := range []struct {
		form   []string
		status int
		api    url.Values // the same values sent to the API, whose message the page shows
		msg    string     // or the page's own message
	}{
		{[]string{"dob", "31/02/1980"}, 400, url.Values{"names": {"ivan petrov"}, "dob": {"31/02/1980"}}, ""},
		{[]string{"fuzzy", "7"}, 400, url.Values{"names": {"ivan petrov"}, "fuzzy_search": {"7"}}, ""},
		{[]string{"includes", "nosuchlist"}, 400, url.Values{"names": {"ivan petrov"}, "includes": {"nosuchlist"}}, ""},
		{[]string{"citizenship", "Atlantis"}, 400, url.Values{"names": {"ivan petrov"}, "citizenship": {"Atlantis"}}, ""},
		{[]string{"gender", "x"}, 400, url.Values{"names": {"ivan petrov"}, "gender": {"x"}}, ""},
		{[]string{"names", strings.Repeat("ivan ", 120)}, 400, url.Values{"names": {strings.TrimSpace(strings.Repeat("ivan ", 120))}}, ""},
		{[]string{"type", "vessel"}, 400, nil, "type: &#34;vessel&#34; is not individual, entity or any"},
		{[]string{"mode", "best"}, 400, nil, "match: &#34;best&#34; is not strict or scored"},
		{[]string{"min_score", "0.9"}, 400, url.Values{"names": {"ivan petrov"}, "min_score": {"0.9"}}, ""},
		{[]string{"mode", "scored", "min_score", "7"}, 400, nil, "min_score: &#34;7&#34; is not a number in (0, 1]"},
		{[]string{"subject", "C-1\x01"}, 400, nil, "subject: holds the control character"},
	} {
		r := c.screen("ivan petrov", tt.form...)
		want := tt.msg
		if tt.api != nil {
			want = strings.ReplaceAll(strings.ReplaceAll(api("/v1/checkIndividual", tt.api), `"`, "&#34;"), "'", "&#39;")
			if want == "" {
				t.Fatalf("%v: the API accepts it", tt.form)
			}
		}
		if r.status != tt.status || !strings.Contains(r.body, want) {
			t.Errorf("%v: %d, want %d with %q\n%s", tt.form, r.status, tt.status, want, r.body)
		}
		if strings.Contains(r.body, "goroutine") || strings.Contains(r.body, ".go:") {
			t.Errorf("%v: a trace on the page", tt.form)
		}
		if !strings.Contains(r.body, `role="alert"`) {
			t.Errorf("%v: the message is not announced", tt.form)
		}
	}
	for _, tt := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/ui/nothing-here", http.StatusNotFound},
		{http.MethodGet, "/ui/decide", http.StatusMethodNotAllowed},
		{http.MethodPut, "/ui/screen", http.StatusMethodNotAllowed},
		{http.MethodGet, "/ui/record?id=R404", http.StatusNotFound},
		{http.MethodGet, "/ui/record?id=" + url.QueryEscape("a b"), http.StatusBadRequest},
		{http.MethodGet, "/ui/screen?names=" + strings.Repeat("x", 17<<10), http.StatusRequestURITooLong},
	} {
		r := c.do(tt.method, tt.path, nil)
		if r.status != tt.status || !strings.Contains(r.body, `role="alert"`) {
			t.Errorf("%s %s: %d, want %d with a message", tt.method, tt.path[:min(len(tt.path), 40)], r.status, tt.status)
		}
	}
	big := url.Values{"csrf": {c.csrf()}, "note": {strings.Repeat("n", 70<<10)}}
	if r := c.post("/ui/decide", big); r.status != http.StatusBadRequest {
		t.Errorf("a 70 KiB form: %d", r.status)
	}
}

func TestReport(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.signedIn(t, keyA)
	r := c.get("/ui/report?" + url.Values{"names": {"ivan petrov"}, "type": {"individual"}}.Encode())
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(r.body, "%PDF-") {
		t.Fatalf("report: %d %s", r.status, r.header.Get("Content-Type"))
	}
	if !strings.Contains(r.header.Get("Content-Disposition"), `attachment; filename="amlscreen-report-`) {
		t.Errorf("Content-Disposition %q", r.header.Get("Content-Disposition"))
	}
	if r := c.get("/ui/report?names=ivan&type=any"); r.status != http.StatusBadRequest || !strings.Contains(r.body, "a report is made of an individual or an entity") {
		t.Errorf("report of type any: %d", r.status)
	}
	// The screening page links it only where there is one.
	if !strings.Contains(c.screen("ivan petrov").body, "Download PDF report") {
		t.Error("no report link")
	}
	if strings.Contains(c.screen("ivan petrov", "type", "any").body, "Download PDF report") {
		t.Error("a report link for type any")
	}
}

func TestLocalURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/ui/screen?names=x":    "/ui/screen?names=x",
		"/ui/record?id=R1":      "/ui/record?id=R1",
		"":                      "F",
		"https://evil.example/": "F",
		"//evil.example/ui/":    "F",
		"/ui/../v1/usage":       "F",
		"/uix/screen":           "F",
		"/ui/\\evil":            "F",
		"javascript:alert(1)":   "F",
		"/ui/screen\r\nX: y":    "F",
	} {
		if got := localURL(in, "F"); got != want {
			t.Errorf("localURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStaticAssets(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	c := b.client(t)
	for _, p := range []string{"/ui/static/app.css", "/ui/static/app.js", "/ui/static/favicon.svg"} {
		r := c.get(p)
		if r.status != http.StatusOK || r.body == "" || !strings.Contains(r.header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d %q", p, r.status, r.header.Get("Cache-Control"))
		}
	}
	if r := c.get("/ui/static/nothing.css"); r.status != http.StatusNotFound {
		t.Errorf("missing asset: %d", r.status)
	}
	// Directories are not listed.
	for _, p := range []string{"/ui/static/", "/ui/static/./", "/ui/static/index.html"} {
		if r := c.get(p); r.status == http.StatusOK || strings.Contains(r.body, "app.css") {
			t.Errorf("%s: %d %.100q", p, r.status, r.body)
		}
	}
}

// TestFingerprintsAgree: the record a decision is fingerprinted from is
// the same content whichever path reads it (the store for amlscreen
// decide, the live index for the workbench and batch), also after a delta
// without list_date and for attributes this version does not know; else a
// decision made on one path would never suppress on another.
func TestFingerprintsAgree(t *testing.T) {
	t.Parallel()
	b := newBench(t)
	b.change(t, "R4", func(r *record.Record) { r.ListDate = 0; r.Address = append(r.Address, "Nicosia") })
	b.change(t, "R1", func(r *record.Record) { r.AliasNames = []string{"Ivan Petroff"} })
	// The index keeps no records (it reads those of its hits from the
	// store): what it returns for each id must be the store's content.
	n := 0
	b.st.ForEachRecord(func(stored *record.Record) error {
		n++
		r := b.db.Index().Get(stored.ID)
		if r == nil {
			t.Fatalf("%s: not in the index", stored.ID)
		}
		if decision.Content(stored) != decision.Content(r) || decision.Identity(stored) != decision.Identity(r) {
			t.Errorf("%s: the store and the index hold different content:\n%s\n%s", r.ID,
				stored.Append(nil, record.WriteOptions{}), r.Append(nil, record.WriteOptions{}))
		}
		return nil
	})
	if n != 5 {
		t.Fatalf("%d records in the index", n)
	}
	if r := b.db.Index().Get("R4"); r.ListDate == 0 || len(r.Extra) != 2 {
		t.Errorf("R4 after the delta: %+v", r)
	}
}
