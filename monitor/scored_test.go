package monitor

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/access"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// storeIndex builds the engine index of the store's current records, as
// serve keeps it.
func storeIndex(t testing.TB, db *store.Store) func() (*engine.Index, error) {
	t.Helper()
	var recs []*record.Record
	if err := db.ForEachRecord(func(r *record.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	ix := engine.NewIndex(recs)
	return func() (*engine.Index, error) { return ix, nil }
}

func scoredParams(id, names string, minScore float64) Params {
	p := individual(id, names)
	p.Fuzzy, p.Match, p.MinScore = 1, query.Scored, minScore
	return p
}

// TestScoredProfileNotifiedOfVariant: a scored profile with a middle name
// the list does not carry is notified of the record a change set adds,
// which the strict profile of the same name is not; a scored profile of
// another person is not, nor one whose source access excludes the record.
// The fixture list has eight records, so every word is weak evidence and
// scores are low: the profiles use a threshold of 0.4 (Olga Ivanova
// scores about 0.5 against it).
func TestScoredProfileNotifiedOfVariant(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{Index: storeIndex(t, db)})
	register(t, m, []reg{
		{ownerA, individual("strict-olga", "Olga Petrovna Ivanova"), access.Policy{}},
		{ownerA, scoredParams("scored-olga", "Olga Petrovna Ivanova", 0.4), access.Policy{}},
		{ownerA, scoredParams("scored-other", "Dmitri Sokolov", 0.4), access.Policy{}},
		{ownerB, scoredParams("scored-olga", "Olga Petrovna Ivanova", 0.4), access.Policy{Sources: access.Sources{Excluded: []string{"ofac_sdn"}}}},
	})
	applyFile(t, db, "testdata/delta1.jsonl", v0, v1, m.Hook())
	got := queuedWants(t, db)
	want := []want{{ownerA, "scored-olga", "ADD", "R7"}}
	if !slices.Equal(got, want) {
		t.Fatalf("queued %v, want %v", got, want)
	}
}

// TestScoredProfileWithoutIndexFails: a change set that meets a scored
// profile without the index to score it fails whole, never notifying
// less than it should.
func TestScoredProfileWithoutIndexFails(t *testing.T) {
	db, _ := newStore(t)
	register(t, New(db, Options{}), []reg{{ownerA, scoredParams("scored-olga", "Olga Petrovna Ivanova", 0), access.Policy{}}})
	before, err := db.Version()
	if err != nil {
		t.Fatal(err)
	}
	_, err = applyDelta(db, "testdata/delta1.jsonl", v0, v1, New(db, Options{}).Hook())
	if err == nil || !strings.Contains(err.Error(), "scored") {
		t.Fatalf("apply without an index: %v", err)
	}
	if after, _ := db.Version(); after != before {
		t.Errorf("version moved from %v to %v: the change set was half applied", before, after)
	}
	if got := queuedWants(t, db); len(got) != 0 {
		t.Errorf("queued %v", got)
	}
}

// TestProfileRemembersMatchMode: a scored profile is stored with its mode
// and threshold; a profile stored without them (earlier versions) reads
// as strict; a threshold without scored mode is refused.
func TestProfileRemembersMatchMode(t *testing.T) {
	db, _ := newStore(t)
	m := New(db, Options{})
	register(t, m, []reg{{ownerA, scoredParams("s", "Olga Ivanova", 0.9), access.Policy{}}, {ownerA, individual("p", "Olga Ivanova"), access.Policy{}}})
	s, err := m.Get(ownerA, "s")
	if err != nil || s == nil || s.Match != query.Scored || s.MinScore != 0.9 {
		t.Fatalf("scored profile read back as %+v, %v", s, err)
	}
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"match":"scored"`) || !strings.Contains(string(b), `"min_score":0.9`) {
		t.Errorf("stored as %s, %v", b, err)
	}
	p, err := m.Get(ownerA, "p")
	if err != nil || p == nil || p.Match != query.Strict {
		t.Fatalf("strict profile read back as %+v, %v", p, err)
	}
	if b, _ := json.Marshal(p); strings.Contains(string(b), "match") || strings.Contains(string(b), "min_score") {
		t.Errorf("a strict profile is stored with match fields: %s", b)
	}
	var old Profile
	if err := json.Unmarshal([]byte(`{"owner":"a","profile_id":"x","names":"Olga","kind":"individual"}`), &old); err != nil || old.Match != query.Strict {
		t.Errorf("old profile: %+v, %v", old, err)
	}
	bad := individual("b", "Olga")
	bad.MinScore = 0.5
	if _, _, err := m.Register(ownerA, bad, access.Policy{}, -1); err == nil || !strings.Contains(err.Error(), "min_score") {
		t.Errorf("strict profile with a min_score: %v", err)
	}
}
