package casework

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/decision"
)

var zeroTime time.Time

// TestRaiseDedupAndReopen: a re-run raises nothing new, a decided alert
// stays closed while the record is unchanged, and comes back open when the
// record changes.
func TestRaiseDedupAndReopen(t *testing.T) {
	c, db := openTest(t)
	addUsers(t, c)
	r1, r2, r3 := testRecord(1, "SANCTION"), testRecord(2, "PEP"), testRecord(3, "SANCTION")
	hits := []NewAlert{hitOn("C-1", r1), hitOn("C-1", r2), hitOn("C-2", r1), hitOn("C-3", r3)}
	res, err := c.Raise("batch", hits)
	if err != nil || res != (RaiseResult{Raised: 4}) {
		t.Fatalf("first run: %+v, %v", res, err)
	}
	res, err = c.Raise("batch", hits)
	if err != nil || res != (RaiseResult{Unchanged: 4}) {
		t.Fatalf("second run: %+v, %v", res, err)
	}
	all, _ := c.Alerts(Filter{})
	if len(all) != 4 {
		t.Fatalf("%d alerts after a re-run, want 4", len(all))
	}
	a, _ := c.AlertFor("C-1", r1.ID)
	if err := c.Propose(User("ana"), []uint64{a.ID}, FalsePositive, "born 1971"); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rev"), []uint64{a.ID}, ""); err != nil {
		t.Fatal(err)
	}
	if res, _ := c.Raise("batch", hits); res.Unchanged != 4 {
		t.Fatalf("run after the decision: %+v", res)
	}
	if a, _ = c.Alert(a.ID); a.Status != Closed {
		t.Fatalf("decided alert is %s after a re-run", a.Status)
	}

	// The record changes: its alerts reopen, for every subject.
	changed := *r1
	changed.AliasNames = []string{"Another Name"}
	hits[0].Record, hits[2].Record = &changed, &changed
	res, err = c.Raise("monitor", hits)
	if err != nil || res != (RaiseResult{Reopened: 2, Unchanged: 2}) {
		t.Fatalf("run after the record changed: %+v, %v", res, err)
	}
	a, _ = c.Alert(a.ID)
	if a.Status != Open || a.Reopened != 1 || a.Fingerprint != decision.Content(&changed) || a.Closure == nil {
		t.Fatalf("reopened alert: %+v", a)
	}
	set, _ := decision.New(db, decision.Options{}).LoadSet(SiteOwner)
	if o := set.Judge("C-1", &changed); o.Suppressed || !o.Changed {
		t.Fatalf("the decision still suppresses the changed record: %+v", o)
	}
	if all, _ := c.Alerts(Filter{}); len(all) != 4 {
		t.Fatalf("%d alerts after the reopen, want 4", len(all))
	}
	if open, _ := c.Alerts(Filter{Status: Open, Origin: OriginBatch}); len(open) != 4 {
		t.Fatalf("%d open batch alerts, want 4", len(open))
	}
	mustVerify(t, c)
}

func TestRaiseRefusesBadHits(t *testing.T) {
	c, _ := openTest(t)
	r := testRecord(1, "SANCTION")
	bad := []struct {
		name string
		edit func(*NewAlert)
	}{
		{"no subject", func(n *NewAlert) { n.Subject = "" }},
		{"control character", func(n *NewAlert) { n.Subject = "C\x001" }},
		{"no record", func(n *NewAlert) { n.Record = nil }},
		{"other record", func(n *NewAlert) { n.Record = testRecord(2, "PEP") }},
		{"origin", func(n *NewAlert) { n.Origin = "fax" }},
	}
	for _, b := range bad {
		n := hitOn("C-1", r)
		b.edit(&n)
		var fe *FieldError
		var de *decision.FieldError
		if _, err := c.Raise("batch", []NewAlert{hitOn("C-0", r), n}); !errors.As(err, &fe) && !errors.As(err, &de) {
			t.Errorf("%s: %v, want a field error", b.name, err)
		}
	}
	if all, _ := c.Alerts(Filter{}); len(all) != 0 {
		t.Fatalf("%d alerts stored by refused calls", len(all))
	}
	if _, err := c.Alerts(Filter{Status: "pending"}); err == nil {
		t.Fatal("a bad status filter was taken")
	}
}

func TestWriterBatches(t *testing.T) {
	c, _ := openTest(t)
	w := c.NewWriter("batch", 100)
	for i := range 1050 {
		if err := w.Add(hitOn("C-1", testRecord(i, "SANCTION"))); err != nil {
			t.Fatal(err)
		}
		if i == 500 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if all, _ := c.Alerts(Filter{}); len(all) != 501 {
				t.Fatalf("%d alerts after Flush, want 501", len(all))
			}
		}
	}
	res, err := w.Close()
	if err != nil || res.Raised != 1050 {
		t.Fatalf("Close: %+v, %v", res, err)
	}
	if n := mustVerify(t, c); n != 1050 {
		t.Fatalf("%d audit entries, want 1050", n)
	}
}

// TestPage filters, sorts and pages the queue on the summaries, which
// follow every change of an alert.
func TestPage(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	var hits []NewAlert
	for i := range 30 {
		h := hitOn(fmt.Sprintf("C-%02d", i), testRecord(i, []string{"SANCTION", "PEP"}[i%2]))
		if i%3 != 0 {
			score := float64(i) / 100
			h.Hit.Score = &score
		}
		hits = append(hits, h)
	}
	if _, err := c.Raise("batch", hits); err != nil {
		t.Fatal(err)
	}
	if err := c.Assign(User("rev"), []uint64{2, 4, 6}, "ana"); err != nil {
		t.Fatal(err)
	}
	if err := c.Propose(User("ana"), []uint64{4}, TrueMatch, "same passport"); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rev"), []uint64{4}, ""); err != nil {
		t.Fatal(err)
	}
	ids := func(as []*Alert) string {
		var s []string
		for _, a := range as {
			s = append(s, fmt.Sprint(a.ID))
		}
		return strings.Join(s, ",")
	}
	cases := []struct {
		r     PageRequest
		want  string
		total int
	}{
		{PageRequest{Limit: 3}, "1,2,3", 30},
		{PageRequest{Limit: 3, Offset: 28}, "29,30", 30},
		{PageRequest{Offset: 30}, "", 30},
		{PageRequest{Filter: Filter{Assignee: "ana"}}, "2,4,6", 3}, // 4 is closed and keeps its assignee
		{PageRequest{Filter: Filter{Escalated: true}}, "4", 1},
		{PageRequest{Filter: Filter{SourceType: "PEP", MinScore: 0.2}, Sort: SortScore, Desc: true, Limit: 4}, "30,26,24", 3}, // PEP: even ids; scored: i%3 != 0
		{PageRequest{Filter: Filter{Status: Open, SourceType: "SANCTION"}, Sort: SortScore, Limit: 3}, "1,7,13", 15},
		{PageRequest{Filter: Filter{Status: Closed}}, "4", 1},
		{PageRequest{Sort: SortUpdated, Desc: true, Limit: 1}, "4", 30},
	}
	for _, tc := range cases {
		page, total, err := c.Page(tc.r)
		if err != nil || ids(page) != tc.want || total != tc.total {
			t.Errorf("%+v: %s of %d, %v; want %s of %d", tc.r, ids(page), total, err, tc.want, tc.total)
		}
	}
	for _, bad := range []PageRequest{{Sort: "name"}, {Limit: MaxPage + 1}, {Offset: -1}, {Filter: Filter{Origin: "fax"}}} {
		if _, _, err := c.Page(bad); err == nil {
			t.Errorf("%+v taken", bad)
		}
	}
}

// TestSummaries: the summary index says what the alerts say, after every
// kind of change.
func TestSummaries(t *testing.T) {
	c, _ := openTest(t)
	addUsers(t, c)
	h := hitOn("C-1", testRecord(1, "PEP"))
	score := 0.91
	h.Hit.Score = &score
	if _, err := c.Raise("batch", []NewAlert{h, hitOn("C-2", testRecord(2, "SANCTION"))}); err != nil {
		t.Fatal(err)
	}
	c.Assign(User("rev"), []uint64{1}, "ana")
	c.Propose(User("ana"), []uint64{1}, TrueMatch, "same passport")
	c.Approve(User("rev"), []uint64{1}, "")
	sums, err := c.Summaries(Filter{})
	if err != nil || len(sums) != 2 {
		t.Fatalf("summaries: %+v, %v", sums, err)
	}
	show := func(s Summary) string {
		score := "none"
		if s.Score != nil {
			score = fmt.Sprint(*s.Score)
		}
		s.Score = nil
		return fmt.Sprintf("%+v score %s", s, score)
	}
	for _, s := range sums {
		a, _ := c.Alert(s.ID)
		if got, want := show(s), show(summaryOf(a)); got != want {
			t.Errorf("summary %s\nalert says %s", got, want)
		}
	}
	if s := sums[0]; !s.Escalated || s.Status != Closed || s.Assignee != "ana" || s.SourceType != "PEP" || *s.Score != 0.91 || s.Origin != OriginBatch {
		t.Errorf("summary of alert 1: %+v", s)
	}
	if _, err := readSummary(1, []byte{1, 1, 0}); err == nil {
		t.Error("a short summary was read")
	}
}
