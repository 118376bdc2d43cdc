package store

import (
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/record"
)

func TestLastChanged(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	db, _ := openTest(t, Options{Now: c.now})
	recs := []*record.Record{
		{ID: "R1", Name: "Ivan Petrov", SourceID: "s", SourceType: "SANCTION"},
		{ID: "R2", Name: "Olga Ivanova", SourceID: "s", SourceType: "SANCTION"},
		{ID: "R10", Name: "Acme", SourceID: "s", SourceType: "SANCTION"},
	}
	mustImport(t, db, "v1", recs)
	check := func(id string, found bool, version, effect string, fromFirst bool) {
		t.Helper()
		lc, err := db.LastChanged(id)
		if err != nil {
			t.Fatal(err)
		}
		if lc.Found != found || lc.Version.ID != version || lc.Effect != effect || lc.FromFirst != fromFirst {
			t.Errorf("LastChanged(%s) = %+v, want found %v in %q (%s), from first %v", id, lc, found, version, effect, fromFirst)
		}
	}
	check("R1", false, "", "", true)
	c.t = c.t.Add(time.Hour)
	upd := *recs[0]
	upd.Address = []string{"Moscow"}
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeUpdate, Record: upd}}, nil); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(time.Hour)
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: record.ChangeDelete, Record: record.Record{ID: "R2"}},
		{Type: record.ChangeAdd, Record: record.Record{ID: "R3", Name: "New", SourceID: "s"}}}, nil); err != nil {
		t.Fatal(err)
	}
	check("R1", true, "v2", "UPDATE", false)
	check("R2", true, "v3", "DELETE", false)
	check("R3", true, "v3", "ADD", false)
	check("R10", false, "", "", true) // R1's change is not R10's
	check("R404", false, "", "", true)
	// A search that reaches its budget stops, saying how far it got: the
	// v3 change set is searched whole, v2's is not, so R1 is known
	// unchanged since v2 only.
	defer func(n int64) { maxLastChangeScan = n }(maxLastChangeScan)
	maxLastChangeScan = 200 // v3 logs 164 bytes, v2 another 120
	lc, err := db.LastChanged("R1")
	if err != nil || lc.Found || !lc.Cut || lc.Reach.ID != "v2" {
		t.Errorf("with a small budget: %+v, %v; want cut, reach v2", lc, err)
	}
	maxLastChangeScan = 256 << 20
	// Once the deltas fall out of the retention window, the log reaches
	// back to v3 only: R1 is known unchanged since then.
	c.t = c.t.Add(15 * 24 * time.Hour)
	if _, err := db.ApplyDelta("v3", "v4", []record.Change{{Type: record.ChangeAdd, Record: record.Record{ID: "R4", Name: "Later", SourceID: "s"}}}, nil); err != nil {
		t.Fatal(err)
	}
	lc, err = db.LastChanged("R1")
	if err != nil || lc.Found || lc.FromFirst || lc.Reach.ID != "v3" {
		t.Errorf("after pruning: %+v, %v; want not found, reach v3", lc, err)
	}
}
