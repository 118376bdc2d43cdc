package casework

import (
	"io"
	"testing"

	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
)

// TestHookReopensOnRecordChange: a change set that updates a record
// reopens its decided alert in the transaction that applies it; one that
// leaves the content as it was, or changes another record, does not.
func TestHookReopensOnRecordChange(t *testing.T) {
	c, db := openTest(t)
	db.OnApply(c.Hook)
	addUsers(t, c)
	recs := []*record.Record{testRecord(1, "SANCTION"), testRecord(2, "SANCTION"), testRecord(3, "PEP")}
	i := 0
	if err := db.ReplaceAll("v1", func() (*record.Record, error) {
		if i == len(recs) {
			return nil, io.EOF
		}
		i++
		return recs[i-1], nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	id1, id2 := raiseOne(t, c, "C-1", recs[0]), raiseOne(t, c, "C-2", recs[0])
	id3 := raiseOne(t, c, "C-1", recs[1])
	if err := c.Propose(User("ana"), []uint64{id1, id3}, FalsePositive, "born 1971"); err != nil {
		t.Fatal(err)
	}
	if err := c.Approve(User("rev"), []uint64{id1, id3}, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Propose(User("ana"), []uint64{id2}, TrueMatch, "same passport"); err != nil {
		t.Fatal(err)
	}
	before := mustVerify(t, c)

	// The same content again, and a change to a record without alerts.
	same, other := *recs[0], *recs[2]
	other.AliasNames = []string{"X"}
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: "UPDATE", Record: same}, {Type: "UPDATE", Record: other}}, nil); err != nil {
		t.Fatal(err)
	}
	if n := mustVerify(t, c); n != before {
		t.Fatalf("%d entries after a change that reopens nothing, had %d", n, before)
	}
	if a, _ := c.Alert(id1); a.Status != Closed {
		t.Fatalf("alert %d is %s after an update without change", id1, a.Status)
	}

	changed := *recs[0]
	changed.DateOfBirth = []string{"1971"}
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: "UPDATE", Record: changed}}, nil); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint64{id1, id2} {
		a, _ := c.Alert(id)
		if a.Status != Open || a.Proposal != nil || a.Version != "v3" || a.Fingerprint != decision.Content(&changed) || a.Reopened != 1 {
			t.Fatalf("alert %d after its record changed: %+v", id, a)
		}
	}
	if a, _ := c.Alert(id3); a.Status != Closed {
		t.Fatalf("alert %d on another record is %s", id3, a.Status)
	}
	var reopened []uint64
	c.Each(zeroTime, zeroTime, func(e Entry) error {
		if e.Action == ActionReopen && e.Actor == "store" && e.Version == "v3" {
			reopened = append(reopened, e.Alert)
		}
		return nil
	})
	if len(reopened) != 2 {
		t.Fatalf("reopen entries for alerts %v, want %d and %d", reopened, id1, id2)
	}
	mustVerify(t, c)
	// Raising the hit on the new content finds the alert as it is.
	if res, _ := c.Raise("batch", []NewAlert{hitOn("C-1", &changed)}); res.Unchanged != 1 {
		t.Fatalf("raise after the hook reopened: %+v", res)
	}
}
