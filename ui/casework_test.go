package ui

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/record"
)

// caseBench is a bench whose store reopens alerts on record changes (as
// serve registers casework's hook) and whose people screen with keyA,
// with an analyst (maria), a reviewer (omar) and a second analyst (alf).
func caseBench(t *testing.T) *bench {
	t.Helper()
	recs, srcs := benchData(t)
	b := openBench(t, recs, srcs, peopleKeyA)
	b.st.OnApply(b.cw.Hook)
	b.addUser(t, "maria", casework.Analyst)
	b.addUser(t, "alf", casework.Analyst)
	b.addUser(t, "omar", casework.Reviewer)
	return b
}

// peopleKeyA has people screen with keyA.
func peopleKeyA(c *Config) { c.PeopleKey = func() string { return keyA } }

// benchData reads testdata/records.jsonl and sources.json.
func benchData(t testing.TB) ([]*record.Record, []record.Source) {
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
	raw, err := os.ReadFile("testdata/sources.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &srcs); err != nil {
		t.Fatal(err)
	}
	return recs, srcs
}

var timeZero time.Time

var alertLinkRE = regexp.MustCompile(`href="/ui/alert\?id=(\d+)`)

// alertIDs returns the alert ids a queue page links to, in order.
func alertIDs(body string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range alertLinkRE.FindAllStringSubmatch(body, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// postAlert posts an action of the alert page with the session's token.
func (c *client) postAlert(action, id string, kv ...string) response {
	c.t.Helper()
	page := c.get("/ui/alert?id=" + id)
	if page.status != http.StatusOK {
		c.t.Fatalf("alert page %s: %d\n%s", id, page.status, page.body)
	}
	v := url.Values{"csrf": {find(c.t, csrfRE, page.body)}, "id": {id}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return c.post("/ui/alert/"+action, v)
}

func wantStatus(t *testing.T, what string, r response, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("%s: %d, want %d\n%s", what, r.status, want, r.body)
	}
}

// TestCaseworkFlow walks the four-eyes flow through the pages: a
// screening raises an alert, the queue lists it with the record's date of
// birth and citizenship, the analyst proposes, cannot approve her own
// proposal, the reviewer approves, the next screening suppresses the hit
// and raises nothing, a change to the record reopens the alert, and the
// audit log holds every step and verifies.
func TestCaseworkFlow(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")

	r := maria.screen("ivan petrov")
	wantStatus(t, "screen", r, http.StatusOK)
	if !strings.Contains(hitsTable(r.body), "R1") {
		t.Fatalf("R1 is not among the hits:\n%s", hitsTable(r.body))
	}
	q := maria.get("/ui/queue")
	wantStatus(t, "queue", q, http.StatusOK)
	ids := alertIDs(q.body)
	if len(ids) != 2 {
		t.Fatalf("queue lists alerts %v, want two (R1 and X1)", ids)
	}
	for _, want := range []string{"Ivan Petrov", "12/03/1960", "RU", "SANCTION", "screening", "ivan petrov"} {
		if !strings.Contains(q.body, want) {
			t.Errorf("queue row lacks %q", want)
		}
	}
	id := alertOf(t, b, "R1")
	// A screening again raises no second alert.
	maria.screen("ivan petrov")
	if got := alertIDs(maria.get("/ui/queue").body); len(got) != 2 {
		t.Fatalf("after a second screening the queue lists %v", got)
	}

	wantStatus(t, "propose", maria.postAlert("propose", id, "outcome", "false_positive", "reason", "customer born 1971, passport checked"), http.StatusSeeOther)
	wantStatus(t, "analyst approves", maria.postAlert("approve", id, "note", "self"), http.StatusForbidden)
	alf := b.person(t, "alf")
	wantStatus(t, "analyst comments", alf.postAlert("comment", id, "text", "same name, other person"), http.StatusSeeOther)
	page := omar.get("/ui/alert?id=" + id)
	if !strings.Contains(page.body, `id="approve-form"`) || !strings.Contains(page.body, "customer born 1971") {
		t.Fatalf("the reviewer's page offers no approval:\n%s", page.body)
	}
	wantStatus(t, "approve", omar.postAlert("approve", id), http.StatusSeeOther)
	wantStatus(t, "approve twice", omar.postAlert("approve", id), http.StatusConflict)

	page = omar.get("/ui/alert?id=" + id)
	for _, want := range []string{"alert.raise", "alert.propose", "alert.comment", "alert.approve", "Approved by <strong>omar</strong>", "Proposed by <strong>maria</strong>"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("alert page lacks %q", want)
		}
	}

	// The next screening suppresses the hit.
	r = maria.screen("ivan petrov")
	if strings.Contains(hitsTable(r.body), "R1") || !strings.Contains(suppressedTable(r.body), "R1") {
		t.Fatalf("R1 is not suppressed after the approval:\n%s", r.body)
	}
	// The record changes: the alert is open again.
	b.change(t, "R1", func(r *record.Record) { r.Address = append(r.Address, "St Petersburg") })
	a, err := b.cw.Alert(mustUint(t, id))
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != casework.Open || a.Reopened != 1 {
		t.Fatalf("after the change the alert is %s, reopened %d", a.Status, a.Reopened)
	}
	if r = maria.screen("ivan petrov"); !strings.Contains(hitsTable(r.body), "R1") {
		t.Fatal("R1 is not back among the hits after the change")
	}

	au := omar.get("/ui/audit?record=R1")
	wantStatus(t, "audit", au, http.StatusOK)
	for _, want := range []string{"screening", "alert.raise", "alert.propose", "alert.approve", "decision", "alert.reopen", "maria", "omar"} {
		if !strings.Contains(au.body, ">"+want+"<") && !strings.Contains(au.body, want) {
			t.Errorf("audit page lacks %q", want)
		}
	}
	if v := omar.get("/ui/audit?verify=1"); !strings.Contains(v.body, "is whole") {
		t.Errorf("the audit page's verify does not say the chain is whole")
	}
	if n, err := b.cw.Verify(); err != nil || n < 8 {
		t.Fatalf("verify: %d entries, %v", n, err)
	}
	// Screenings are logged with the person, the version and the ids.
	var screenings int
	b.cw.Each(timeZero, timeZero, func(e casework.Entry) error {
		if e.Action == casework.ActionScreening {
			screenings++
			if e.Actor != "maria" || e.Version == "" || !slices.Contains(e.IDs, "R1") || !strings.Contains(e.Query, "ivan petrov") {
				t.Errorf("screening entry %+v", e)
			}
		}
		return nil
	})
	if screenings != 4 {
		t.Errorf("%d screenings logged, want 4", screenings)
	}
}

// TestCaseworkRolesAndTokens: every change of the casework pages is
// refused without the session's CSRF token, to an API-key session, and
// to a person below the role it needs; with both it is done.
func TestCaseworkRolesAndTokens(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")
	maria.screen("ivan petrov")
	id := alertIDs(maria.get("/ui/queue").body)[0]
	key := b.signedIn(t, keyA)
	keyToken := key.csrf()
	for _, tc := range []struct {
		action string
		form   []string
		role   *client // a person allowed to
		below  *client // a person not allowed to, or nil
	}{
		{"assign", []string{"assignee", "me"}, maria, nil},
		{"comment", []string{"text", "looked at it"}, maria, nil},
		{"propose", []string{"outcome", "true_match", "reason", "same date of birth"}, maria, nil},
		{"return", []string{"reason", "check the passport"}, omar, maria},
	} {
		v := url.Values{"id": {id}}
		for i := 0; i+1 < len(tc.form); i += 2 {
			v.Set(tc.form[i], tc.form[i+1])
		}
		wantStatus(t, tc.action+" without a token", tc.role.post("/ui/alert/"+tc.action, v), http.StatusForbidden)
		v.Set("csrf", "wrong")
		wantStatus(t, tc.action+" with a wrong token", tc.role.post("/ui/alert/"+tc.action, v), http.StatusForbidden)
		v.Set("csrf", keyToken)
		wantStatus(t, tc.action+" by an API key", key.post("/ui/alert/"+tc.action, v), http.StatusForbidden)
		if tc.below != nil {
			wantStatus(t, tc.action+" below its role", tc.below.postAlert(tc.action, id, tc.form...), http.StatusForbidden)
		}
		wantStatus(t, tc.action, tc.role.postAlert(tc.action, id, tc.form...), http.StatusSeeOther)
	}
	// The pages too need a person.
	for _, p := range []string{"/ui/queue", "/ui/alert?id=" + id, "/ui/audit", "/ui/summary", "/ui/alert/report?id=" + id} {
		wantStatus(t, p+" by an API key", key.get(p), http.StatusForbidden)
	}
	bulk := url.Values{"id": {id}, "action": {"assign_me"}}
	wantStatus(t, "bulk without a token", maria.post("/ui/queue/bulk", bulk), http.StatusForbidden)
	bulk.Set("csrf", keyToken)
	wantStatus(t, "bulk by an API key", key.post("/ui/queue/bulk", bulk), http.StatusForbidden)
}

// TestQueueFiltersAndBulk: the queue filters by status, origin, source
// type, score range and assignee, and bulk actions act on a selection at
// once.
func TestQueueFiltersAndBulk(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")
	maria.screen("ivan", "type", "individual")
	q := maria.get("/ui/queue")
	ids := alertIDs(q.body)
	if len(ids) < 2 {
		t.Fatalf("screening 'ivan' raised %d alerts, want 2 or more", len(ids))
	}
	token := find(t, csrfRE, q.body)
	r := maria.post("/ui/queue/bulk", url.Values{"csrf": {token}, "id": ids[:2], "action": {"assign_me"}})
	wantStatus(t, "bulk assign", r, http.StatusSeeOther)
	if got := alertIDs(maria.get("/ui/queue?status=open&assignee=me").body); len(got) != 2 {
		t.Fatalf("mine: %v, want 2 alerts", got)
	}
	if got := alertIDs(maria.get("/ui/queue?status=open&assignee=none").body); len(got) != len(ids)-2 {
		t.Fatalf("unassigned: %v", got)
	}
	// An analyst assigns to herself only: all or none.
	r = maria.post("/ui/queue/bulk", url.Values{"csrf": {token}, "id": ids, "action": {"assign"}, "assignee": {"alf"}})
	wantStatus(t, "analyst assigns to another", r, http.StatusForbidden)
	r = maria.post("/ui/queue/bulk", url.Values{"csrf": {token}, "id": ids[:2], "action": {"propose_fp"}, "reason": {"other dates of birth"}})
	wantStatus(t, "bulk propose", r, http.StatusSeeOther)
	if got := alertIDs(omar.get("/ui/queue?status=proposed").body); len(got) != 2 {
		t.Fatalf("to review: %v, want 2", got)
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"status=any", len(ids)},
		{"status=any&origin=screening", len(ids)},
		{"status=any&origin=batch", 0},
		{"status=any&source=SANCTION", -1},
		{"status=any&min_score=0.5", 0}, // strict screenings carry no score
		{"escalated=1", 0},
		{"status=closed", 0},
	} {
		got := alertIDs(omar.get("/ui/queue?" + tc.query).body)
		if tc.want >= 0 && len(got) != tc.want {
			t.Errorf("%s: %d alerts, want %d", tc.query, len(got), tc.want)
		}
	}
	if got := omar.get("/ui/queue?status=any&per_page=100"); !strings.Contains(got.body, `<option value="100" selected>`) || len(alertIDs(got.body)) != len(ids) {
		t.Errorf("per_page=100: %d alerts", len(alertIDs(got.body)))
	}
	for _, bad := range []string{"status=lost", "min_score=2", "age=forever", "sort=name"} {
		wantStatus(t, bad, omar.get("/ui/queue?"+bad), http.StatusBadRequest)
	}
	// Too many ids at once are refused before any work.
	many := make([]string, queueMaxPage+1)
	for i := range many {
		many[i] = strconv.Itoa(i + 1)
	}
	wantStatus(t, "bulk of too many", maria.post("/ui/queue/bulk", url.Values{"csrf": {token}, "id": many, "action": {"assign_me"}}), http.StatusBadRequest)
}

// TestSummaryAndAlertReport: the monthly summary counts the approval,
// as a page and as CSV; the alert's PDF is served.
func TestSummaryAndAlertReport(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")
	maria.screen("ivan petrov")
	id := alertOf(t, b, "R1")
	maria.postAlert("propose", id, "outcome", "false_positive", "reason", "born 1971")
	wantStatus(t, "approve", omar.postAlert("approve", id), http.StatusSeeOther)
	s := omar.get("/ui/summary?month=2026-11")
	wantStatus(t, "summary", s, http.StatusOK)
	if !regexp.MustCompile(`(?s)Opened</dt><dd>2<.*Closed</dt><dd>1<`).MatchString(s.body) || !strings.Contains(s.body, "<td>omar</td>") {
		t.Errorf("summary page:\n%s", s.body)
	}
	c := omar.get("/ui/summary?month=2026-11&format=csv")
	if !strings.Contains(c.body, "2026-11,closed_by_reviewer,omar,1") || !strings.Contains(c.body, "2026-11,opened,,2") {
		t.Errorf("summary CSV:\n%s", c.body)
	}
	wantStatus(t, "bad month", omar.get("/ui/summary?month=11-2026"), http.StatusBadRequest)
	pdf := omar.get("/ui/alert/report?id=" + id)
	wantStatus(t, "alert report", pdf, http.StatusOK)
	if !strings.HasPrefix(pdf.body, "%PDF-") {
		t.Fatalf("alert report is not a PDF: %q", pdf.body[:min(20, len(pdf.body))])
	}
	// The screening's PDF carries the work too.
	omar.postAlert("comment", id, "text", "passport copy on file")
	scr := maria.get("/ui/report?" + url.Values{"names": {"ivan petrov"}, "type": {"individual"}}.Encode())
	wantStatus(t, "screening report", scr, http.StatusOK)
	for name, body := range map[string]string{"alert": pdf.body, "screening": scr.body} {
		text := pdfToText(t, body)
		for _, want := range []string{"Casework", "False positive: born 1971", "maria", "omar", b.version} {
			if !strings.Contains(text, want) {
				t.Errorf("the %s PDF lacks %q", name, want)
			}
		}
	}
	if text := pdfToText(t, scr.body); !strings.Contains(text, "passport copy on file") {
		t.Error("the screening PDF lacks the comment")
	}
}

// pdfToText extracts a PDF's text with pdftotext (poppler-utils).
func pdfToText(t *testing.T, pdf string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (Debian: apt-get install poppler-utils); skipping the PDF's text check")
	}
	p := filepath.Join(t.TempDir(), "r.pdf")
	if err := os.WriteFile(p, []byte(pdf), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", p, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	return string(out)
}

// alertOf returns the id of the one alert on recordID.
func alertOf(t *testing.T, b *bench, recordID string) string {
	t.Helper()
	return strconv.FormatUint(alertOn(t, b, recordID).ID, 10)
}

// alertOn returns the alert on recordID.
func alertOn(t *testing.T, b *bench, recordID string) *casework.Alert {
	t.Helper()
	as, err := b.cw.Alerts(casework.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if a.Hit.RecordID == recordID {
			return a
		}
	}
	t.Fatalf("no alert on %s", recordID)
	return nil
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAuditSearchAndEscalated: the audit page searches by person,
// subject, record and date and refuses a malformed date; an approved true
// match is listed among the escalated alerts; a sent-back proposal is open
// again with the reason as a comment.
func TestAuditSearchAndEscalated(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")
	maria.screen("ivan petrov")
	r1, x1 := alertOf(t, b, "R1"), alertOf(t, b, "X1")
	wantStatus(t, "propose", maria.postAlert("propose", r1, "outcome", "true_match", "reason", "same date of birth and passport"), http.StatusSeeOther)
	wantStatus(t, "approve", omar.postAlert("approve", r1), http.StatusSeeOther)
	wantStatus(t, "propose", maria.postAlert("propose", x1, "outcome", "false_positive", "reason", "other person"), http.StatusSeeOther)
	wantStatus(t, "send back", omar.postAlert("return", x1, "reason", "check the date of birth"), http.StatusSeeOther)

	if got := alertIDs(omar.get("/ui/queue?escalated=1").body); len(got) != 1 || got[0] != r1 {
		t.Errorf("escalated: %v, want [%s]", got, r1)
	}
	page := omar.get("/ui/alert?id=" + x1)
	if !strings.Contains(page.body, `id="propose-form"`) || !strings.Contains(page.body, "sent back: check the date of birth") {
		t.Errorf("the sent-back alert is not open with the reason as a comment")
	}
	entries := func(query string) int {
		t.Helper()
		r := omar.get("/ui/audit?" + query)
		wantStatus(t, "audit "+query, r, http.StatusOK)
		m := regexp.MustCompile(`id="audit-title">([0-9,]+) entr`).FindStringSubmatch(r.body)
		if m == nil {
			t.Fatalf("audit %s: no count", query)
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		return n
	}
	all := entries("")
	for _, tc := range []struct {
		query string
		ok    func(n int) bool
	}{
		{"person=omar", func(n int) bool { return n == 4 }},                                                      // added, approve, its decision, send back
		{"person=maria", func(n int) bool { return n >= 5 }},                                                     // screening, 2 raises, 2 proposals
		{"record=X1", func(n int) bool { return n >= 4 }},                                                        // screening ids, raise, propose, send back
		{"subject=" + url.QueryEscape("q:individual:names=ivan petrov"), func(n int) bool { return n == all-3 }}, // all but the three users added
		{"from=2026-11-20&to=2026-11-20", func(n int) bool { return n == all }},
		{"from=2026-11-21", func(n int) bool { return n == 0 }},
	} {
		if n := entries(tc.query); !tc.ok(n) {
			t.Errorf("audit %s: %d entries (of %d)", tc.query, n, all)
		}
	}
	wantStatus(t, "bad date", omar.get("/ui/audit?from=20.11.2026"), http.StatusBadRequest)
	wantStatus(t, "no such alert", omar.get("/ui/alert?id=999"), http.StatusNotFound)
	wantStatus(t, "bad alert id", omar.get("/ui/alert?id=x"), http.StatusBadRequest)
}

// TestScreenHitsShowIdentity: the screening's hit table shows each
// record's date of birth and citizenship beside its name.
func TestScreenHitsShowIdentity(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	r := b.person(t, "maria").screen("ivan petrov")
	if !regexp.MustCompile(`(?s)Ivan Petrov</a>.*?born 12/03/1960 · RU`).MatchString(hitsTable(r.body)) {
		t.Errorf("the hit table lacks R1's date of birth and citizenship:\n%s", hitsTable(r.body))
	}
}

// TestBulkAllOrNone: a bulk proposal over a selection with one alert that
// cannot take it changes none of them.
func TestBulkAllOrNone(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria, omar := b.person(t, "maria"), b.person(t, "omar")
	maria.screen("ivan petrov")
	r1, x1 := alertOf(t, b, "R1"), alertOf(t, b, "X1")
	maria.postAlert("propose", r1, "outcome", "false_positive", "reason", "born 1971")
	wantStatus(t, "approve", omar.postAlert("approve", r1), http.StatusSeeOther)
	q := maria.get("/ui/queue?status=any")
	r := maria.post("/ui/queue/bulk", url.Values{"csrf": {find(t, csrfRE, q.body)}, "id": {x1, r1}, "action": {"propose_fp"}, "reason": {"other person"}})
	wantStatus(t, "bulk over a closed alert", r, http.StatusConflict)
	if a, err := b.cw.Alert(mustUint(t, x1)); err != nil || a.Status != casework.Open || a.Proposal != nil {
		t.Fatalf("X1 after the refused bulk: %+v, %v", a, err)
	}
	for _, bad := range []url.Values{{"id": {"0"}}, {"id": {"x"}}, {"id": {x1}, "action": {"delete"}}, {"action": {"assign_me"}}} {
		bad.Set("csrf", find(t, csrfRE, q.body))
		if bad.Get("action") == "" {
			bad.Set("action", "assign_me")
		}
		wantStatus(t, "bulk "+bad.Encode(), maria.post("/ui/queue/bulk", bad), http.StatusBadRequest)
	}
}

func TestAgeAndTabs(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{-time.Minute: "0 min", 30 * time.Minute: "30 min", 5 * time.Hour: "5 h", 50 * time.Hour: "2 d"} {
		if got := age(d); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
	for q, want := range map[string]string{"": "open", "status=proposed": "proposed", "status=open&assignee=me": "mine", "escalated=1": "escalated",
		"status=closed": "closed", "status=open&origin=batch": "", "status=open&assignee=omar": ""} {
		v, _ := url.ParseQuery(q)
		if got := queueTab(queueQueryOf(v)); got != want {
			t.Errorf("tab of %q = %q, want %q", q, got, want)
		}
	}
}

// TestPersonDecisionGoesThroughAlert: with casework, a person's decision
// on the record page proposes on the hit's alert and suppresses nothing
// until a reviewer approves; escalating there, or deciding a hit no alert
// holds, is refused and changes nothing.
func TestPersonDecisionGoesThroughAlert(t *testing.T) {
	t.Parallel()
	b := caseBench(t)
	maria := b.person(t, "maria")
	wantStatus(t, "screen", maria.screen("ivan petrov"), http.StatusOK)
	id := alertOf(t, b, "R1")
	al, err := b.cw.Alert(mustUint(t, id))
	if err != nil {
		t.Fatal(err)
	}
	decide := func(recordID, subject, status string) response {
		page := maria.get("/ui/record?" + url.Values{"id": {recordID}, "subject": {subject}}.Encode())
		wantStatus(t, "record page", page, http.StatusOK)
		return maria.post("/ui/decide", url.Values{"csrf": {find(t, csrfRE, page.body)}, "record_id": {recordID}, "subject": {subject},
			"status": {status}, "note": {"born 1971, passport seen"}, "fingerprint": {find(t, fingerprintRE, page.body)}})
	}
	if r := decide("R1", al.Subject, "escalated"); r.status != http.StatusConflict || !strings.Contains(r.body, "through its alert") {
		t.Errorf("escalate: %d\n%s", r.status, r.body)
	}
	if r := decide("R1", "C-unscreened", "false_positive"); r.status != http.StatusConflict || !strings.Contains(r.body, "No alert holds this hit") {
		t.Errorf("a hit without an alert: %d\n%s", r.status, r.body)
	}
	r := decide("R1", al.Subject, "false_positive")
	wantStatus(t, "decide", r, http.StatusSeeOther)
	if loc := r.header.Get("Location"); loc != "/ui/alert?id="+id {
		t.Errorf("decide went to %q, want the alert", loc)
	}
	now, err := b.cw.Alert(al.ID)
	if err != nil || now.Status != casework.Proposed {
		t.Fatalf("alert after the decision: %+v, %v; want proposed", now, err)
	}
	if n, _ := b.book.Count(""); n != 0 {
		t.Errorf("%d decisions stored before any review", n)
	}
	if !strings.Contains(hitsTable(maria.screen("ivan petrov").body), "R1") {
		t.Error("the hit is suppressed before a reviewer approved")
	}
	key := b.signedIn(t, keyA)
	page := key.get("/ui/record?id=R1&subject=C-1")
	kr := key.post("/ui/decide", url.Values{"csrf": {find(t, csrfRE, page.body)}, "record_id": {"R1"}, "subject": {"C-1"},
		"status": {"false_positive"}, "note": {"n"}, "fingerprint": {find(t, fingerprintRE, page.body)}})
	if kr.status != http.StatusForbidden || !strings.Contains(kr.body, "four eyes") {
		t.Errorf("a key's decision on a site with people: %d\n%s", kr.status, kr.body)
	}
	if n, _ := b.book.Count(""); n != 0 {
		t.Errorf("%d decisions stored by a key", n)
	}
}
