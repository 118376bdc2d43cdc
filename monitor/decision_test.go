package monitor

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/decision"
	"github.com/amlscreen/amlscreen/record"
)

// TestFalsePositiveHoldsBackUpdates: an UPDATE of a record its owner
// decided false_positive for the profile is not notified unless a name,
// date of birth or citizenship changed since the decision; other profiles,
// other owners and other decisions are notified as before.
func TestFalsePositiveHoldsBackUpdates(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, []reg{
		{ownerA, individual("p-ivan", "Ivan Petrov"), access.Policy{}},
		{ownerA, individual("p-ivan-2", "Ivan Petrov"), access.Policy{}},
		{ownerB, individual("p-ivan", "Ivan Petrov"), access.Policy{}},
	})
	r1, err := db.Get("R1")
	if err != nil {
		t.Fatal(err)
	}
	book := decision.New(db, decision.Options{})
	decide := func(owner, profile, status string, r *record.Record) {
		t.Helper()
		_, _, err := book.Decide(decision.Decision{Owner: owner, Subject: profile, RecordID: r.ID, Status: status, Who: "analyst",
			Fingerprint: decision.Content(r), IdentityFingerprint: decision.Identity(r)})
		if err != nil {
			t.Fatal(err)
		}
	}
	decide(ownerA, "p-ivan", decision.FalsePositive, r1)
	decide(ownerA, "p-ivan-2", decision.TrueMatch, r1)

	version := v0
	step := 0
	var seen uint64
	// queued returns the notifications queued since the last call.
	queued := func() []want {
		t.Helper()
		es, err := NewOutbox(db).Queued(0)
		if err != nil {
			t.Fatal(err)
		}
		var out []want
		last := seen
		for _, e := range es {
			if e.Seq > seen {
				out = append(out, want{e.Owner, e.ProfileID, e.MatchType, e.RecordID})
				last = max(last, e.Seq)
			}
		}
		seen = last
		return out
	}
	apply := func(change func(r *record.Record)) []want {
		t.Helper()
		cur, err := db.Get("R1")
		if err != nil {
			t.Fatal(err)
		}
		next := cur.Clone()
		change(next)
		step++
		nv := fmt.Sprintf("2026-11-0%dT00:00:00Z~%d", step+1, step+1)
		if _, err := db.ApplyDelta(version, nv, []record.Change{{Type: record.ChangeUpdate, Record: *next}}, m.Hook()); err != nil {
			t.Fatal(err)
		}
		version = nv
		return queued()
	}
	sameSet := func(got, want []want) bool {
		return slices.Equal(sortWants(slices.Clone(got)), sortWants(slices.Clone(want)))
	}
	otherTwo := []want{{ownerA, "p-ivan-2", "UPDATE", "R1"}, {ownerB, "p-ivan", "UPDATE", "R1"}}

	// An address: held back for the false positive only.
	if got := apply(func(r *record.Record) { r.Address = []string{"Limassol"} }); !sameSet(got, otherTwo) {
		t.Errorf("address changed: queued %v, want %v", got, otherTwo)
	}
	// A remark: still held back (the decision's identity is unchanged).
	if got := apply(func(r *record.Record) { r.OtherInformation = []string{"remark"} }); !sameSet(got, otherTwo) {
		t.Errorf("remark added: queued %v, want %v", got, otherTwo)
	}
	all := append([]want{{ownerA, "p-ivan", "UPDATE", "R1"}}, otherTwo...)
	for name, change := range map[string]func(*record.Record){
		"alias added":          func(r *record.Record) { r.AliasNames = append(r.AliasNames, "Ivan Petroff") },
		"date of birth added":  func(r *record.Record) { r.DateOfBirth = append(r.DateOfBirth, "12/03/1961") },
		"citizenship replaced": func(r *record.Record) { r.Citizenship = []string{"CY"} },
	} {
		if got := apply(change); !sameSet(got, all) {
			t.Errorf("%s: queued %v, want %v", name, got, all)
		}
	}
	// Identity changed since the decision: every later UPDATE is sent too,
	// until the analyst decides again.
	if got := apply(func(r *record.Record) { r.Address = []string{"Nicosia"} }); !sameSet(got, all) {
		t.Errorf("after the identity changed: queued %v, want %v", got, all)
	}
	cur, _ := db.Get("R1")
	decide(ownerA, "p-ivan", decision.FalsePositive, cur)
	if got := apply(func(r *record.Record) { r.Address = []string{"Paphos"} }); !sameSet(got, otherTwo) {
		t.Errorf("after deciding again: queued %v, want %v", got, otherTwo)
	}
	// A DELETE is always sent.
	if _, err := db.ApplyDelta(version, "2026-12-01T00:00:00Z~99", []record.Change{{Type: record.ChangeDelete, Record: record.Record{ID: "R1"}}}, m.Hook()); err != nil {
		t.Fatal(err)
	}
	del := queued()
	if len(del) != 3 {
		t.Errorf("delete queued %v, want all three profiles", del)
	}
}
