package casework

import (
	"errors"
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
