package casework

import (
	"testing"

	"github.com/amlscreen/amlscreen/internal/storetest"
)

// TestOpensAStoreWrittenBeforeSubStores opens a store written by the
// casework of before its buckets became store sub-stores
// (testdata/main-2026-11.db.gz: the users of addUsers, alerts on R00001,
// R00002 and R00003 for C-1, C-2 and C-3, the first approved as a false
// positive, four eyes off for pep, one logged screening; 17 audit
// entries) and reads it back: the move changed no bucket name and no
// encoding, and the audit chain still verifies.
func TestOpensAStoreWrittenBeforeSubStores(t *testing.T) {
	c := New(storetest.OpenGzipped(t, "testdata/main-2026-11.db.gz"), Options{Argon2: testArgon})
	if n, err := c.Verify(); err != nil || n != 17 {
		t.Fatalf("verify: %d entries, %v", n, err)
	}
	want := map[string]struct {
		record, status string
	}{"C-1": {"R00001", Closed}, "C-2": {"R00002", Open}, "C-3": {"R00003", Open}}
	for subject, w := range want {
		a, err := c.AlertFor(subject, w.record)
		if err != nil || a == nil {
			t.Fatalf("alert for %s: %v, %v", subject, a, err)
		}
		if a.Status != w.status {
			t.Errorf("alert of %s: status %q, want %q", subject, a.Status, w.status)
		}
	}
	all, err := c.Alerts(Filter{})
	if err != nil || len(all) != 3 {
		t.Errorf("alerts: %d, %v", len(all), err)
	}
	sums, err := c.Summaries(Filter{})
	if err != nil || len(sums) != 3 {
		t.Errorf("summaries: %d, %v", len(sums), err)
	}
	if u, err := c.Authenticate("ana", testPassword); err != nil || u.Role != Analyst {
		t.Errorf("authenticate ana: %+v, %v", u, err)
	}
	if off, err := c.FourEyesOff(); err != nil || len(off) != 1 || off[0] != "PEP" {
		t.Errorf("four eyes off: %v, %v", off, err)
	}
	// A change made by this version extends the old chain.
	r := testRecord(4, "sanction")
	raiseOne(t, c, "C-4", r)
	if n, err := c.Verify(); err != nil || n != 18 {
		t.Errorf("verify after a raise: %d entries, %v", n, err)
	}
}
