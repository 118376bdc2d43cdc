package store

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

func rec(id, source, name string) *record.Record {
	return &record.Record{ID: id, SourceID: source, SourceType: record.SourceOther, EntityType: record.EntityIndividual, Name: name}
}

// publicRecords are what the consolidated file put in the store.
func publicRecords() []*record.Record {
	a := rec("OFAC-1", "us_ofac_sdn", "Ivan Examplov")
	a.SourceType, a.ListDate = record.SourceSanction, 1_600_000_000_000
	b := rec("UN-1", "un_sc_sanctions", "Example Group")
	b.SourceType, b.EntityType = record.SourceSanction, record.EntityEntity
	return []*record.Record{a, b}
}

// mergeExpect is the brute-force answer: the store's records without those
// of the merged sources, plus the file's.
func mergeExpect(before map[string]*record.Record, file []*record.Record, sources ...string) map[string]*record.Record {
	out := map[string]*record.Record{}
	for id, r := range before {
		if !slices.Contains(sources, r.SourceID) {
			out[id] = r
		}
	}
	for _, r := range file {
		c := r.Clone()
		if old := before[r.ID]; old != nil && c.ListDate == 0 {
			c.ListDate = old.ListDate
		}
		out[r.ID] = c
	}
	return out
}

func changeList(changes []record.Change) string {
	var s []string
	for _, c := range changes {
		s = append(s, c.Type+" "+c.Record.ID)
	}
	return strings.Join(s, ", ")
}

func TestMergeSourcesAddsReplacesAndLeavesOthers(t *testing.T) {
	// Removing the internal list at the end takes 3 of 5 records: a
	// shrink the guard allows only with AllowShrink (guard_delta_test.go).
	db, _ := openTest(t, Options{AllowShrink: true})
	mustImport(t, db, "v1", publicRecords())
	before := allRecords(t, db)

	// First merge: the internal list appears beside the public ones.
	v1 := []*record.Record{rec("my:1", "my", "Alice Example"), rec("my:2", "my", "Bob Example"), rec("my:3", "my", "Carol Example")}
	var hooked *Applied
	a, err := db.MergeSources("v2", Slice(v1), MergeOptions{}, func(tx *Tx, ap *Applied) error {
		hooked = ap
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.Previous != "v1" || a.Version != "v2" || a.Full || a.Added != 3 || a.Updated+a.Deleted != 0 || a.Records != 5 || hooked != a {
		t.Fatalf("first merge: %+v (hook saw %p)", a, hooked)
	}
	sameSet(t, allRecords(t, db), mergeExpect(before, v1, "my"))

	// Second merge: one changed, one gone, one new, one as it was.
	bob := rec("my:2", "my", "Robert Example")
	v2 := []*record.Record{rec("my:1", "my", "Alice Example"), bob, rec("my:4", "my", "Dave Example")}
	mid := allRecords(t, db)
	a, err = db.MergeSources("v3", Slice(v2), MergeOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Added != 1 || a.Updated != 1 || a.Deleted != 1 || a.Records != 5 {
		t.Fatalf("second merge: %+v", a)
	}
	var effects []string
	for _, c := range a.Changes {
		effects = append(effects, c.Effect+" "+c.ID)
	}
	if got := strings.Join(effects, ", "); got != "UPDATE my:2, ADD my:4, DELETE my:3" {
		t.Fatalf("second merge effects: %s", got)
	}
	sameSet(t, allRecords(t, db), mergeExpect(mid, v2, "my"))

	// The change log carries both merges, so a replica at v1 catches up
	// with a delta.
	changes, current, err := db.ChangesSince("v1")
	if err != nil || current != "v3" {
		t.Fatalf("changes since v1: %v, current %s", err, current)
	}
	if got := changeList(changes); got != "ADD my:1, ADD my:2, ADD my:4" {
		t.Fatalf("changes since v1: %s", got)
	}
	if changes, _, _ := db.ChangesSince("v2"); changeList(changes) != "UPDATE my:2, DELETE my:3, ADD my:4" {
		t.Fatalf("changes since v2: %s", changeList(changes))
	}

	// The same file again changes nothing and makes no version.
	a, err = db.MergeSources("v4", Slice(v2), MergeOptions{}, func(*Tx, *Applied) error {
		t.Fatal("hook called for a merge without changes")
		return nil
	})
	if err != nil || a.Version != "v3" || len(a.Changes) != 0 || a.Records != 5 {
		t.Fatalf("repeated merge: %+v, %v", a, err)
	}
	if v, _ := db.Version(); v.ID != "v3" {
		t.Fatalf("repeated merge moved the store to %s", v.ID)
	}

	// Naming the source removes it with an empty file.
	a, err = db.MergeSources("v5", Slice(nil), MergeOptions{Sources: []string{"my"}}, nil)
	if err != nil || a.Deleted != 3 || a.Records != 2 {
		t.Fatalf("empty merge of my: %+v, %v", a, err)
	}
	sameSet(t, allRecords(t, db), before)
	st, _ := db.Stats()
	if st.BySourceID["my"] != 0 || st.BySourceID["us_ofac_sdn"] != 1 || st.ByEntityType[record.EntityIndividual] != 1 {
		t.Fatalf("stats after removing my: %+v", st)
	}
}

func TestMergeSourcesKeepsListDate(t *testing.T) {
	db, _ := openTest(t, Options{})
	mustImport(t, db, "v1", publicRecords())
	// A converted list without list_date, merged over the same records:
	// nothing changes, as for a delta's UPDATE.
	same := publicRecords()[0].Clone()
	same.ListDate = 0
	a, err := db.MergeSources("v2", Slice([]*record.Record{same}), MergeOptions{}, nil)
	if err != nil || len(a.Changes) != 0 {
		t.Fatalf("merge without list_date: %+v, %v", a, err)
	}
	if r, _ := db.Get("OFAC-1"); r.ListDate != 1_600_000_000_000 {
		t.Fatalf("list_date %d after the merge", r.ListDate)
	}
}

func TestMergeSourcesRefusesAndAppliesNothing(t *testing.T) {
	cases := []struct {
		name string
		file []*record.Record
		o    MergeOptions
		want string
	}{
		{"id of another source", []*record.Record{rec("my:1", "my", "A"), rec("OFAC-1", "my", "B")}, MergeOptions{}, "held by a record of source us_ofac_sdn"},
		{"duplicate id", []*record.Record{rec("my:1", "my", "A"), rec("my:1", "my", "B")}, MergeOptions{}, "comes twice"},
		{"no source", []*record.Record{rec("my:1", "", "A")}, MergeOptions{}, "no source_id"},
		{"no id", []*record.Record{rec("", "my", "A")}, MergeOptions{}, "no id"},
		{"outside the named sources", []*record.Record{rec("x:1", "other", "A")}, MergeOptions{Sources: []string{"my"}}, "not among the sources merged"},
		{"nothing", nil, MergeOptions{}, "nothing to merge"},
		{"version already current", []*record.Record{rec("my:1", "my", "A")}, MergeOptions{}, "already"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTest(t, Options{})
			mustImport(t, db, "v1", publicRecords())
			version := "v2"
			if c.name == "version already current" {
				version = "v1"
			}
			before := allRecords(t, db)
			_, err := db.MergeSources(version, Slice(c.file), c.o, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if v, _ := db.Version(); v.ID != "v1" {
				t.Fatalf("store at %s after a refused merge", v.ID)
			}
			sameSet(t, allRecords(t, db), before)
		})
	}
	db, _ := openTest(t, Options{})
	if _, err := db.MergeSources("", Slice(nil), MergeOptions{Sources: []string{"my"}}, nil); !errors.Is(err, ErrNoVersion) {
		t.Fatalf("empty version: %v", err)
	}
	boom := errors.New("read failed")
	if _, err := db.MergeSources("v1", func() (*record.Record, error) { return nil, boom }, MergeOptions{}, nil); !errors.Is(err, boom) {
		t.Fatalf("read error: %v", err)
	}
}

func TestMergeSourcesHookRollsBack(t *testing.T) {
	db, _ := openTest(t, Options{})
	mustImport(t, db, "v1", publicRecords())
	before := allRecords(t, db)
	boom := errors.New("outbox full")
	_, err := db.MergeSources("v2", Slice([]*record.Record{rec("my:1", "my", "A")}), MergeOptions{}, func(*Tx, *Applied) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the hook's", err)
	}
	if v, _ := db.Version(); v.ID != "v1" {
		t.Fatalf("store at %s after the hook failed", v.ID)
	}
	sameSet(t, allRecords(t, db), before)
	if _, _, err := db.ChangesSince("v1"); err != nil {
		t.Fatalf("changes since v1 after a rolled-back merge: %v", err)
	}
}

func TestMergeSourcesIntoEmptyAndReadOnlyStore(t *testing.T) {
	db, path := openTest(t, Options{})
	file := []*record.Record{rec("my:1", "my", "A")}
	a, err := db.MergeSources("v1", Slice(file), MergeOptions{}, nil)
	if err != nil || a.Previous != "" || a.Added != 1 {
		t.Fatalf("merge into an empty store: %+v, %v", a, err)
	}
	sameSet(t, allRecords(t, db), mergeExpect(nil, file, "my"))
	db.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.MergeSources("v2", Slice(file), MergeOptions{}, nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only: %v", err)
	}
}

// TestMergeSourcesDifferential merges random files into a store of
// random records and compares the result with the brute-force answer,
// and the change log with the difference.
func TestMergeSourcesDifferential(t *testing.T) {
	db, _ := openTest(t, Options{})
	base := genRecords(1, 300)
	for i, r := range base {
		r.SourceID = []string{"a", "b", "c"}[i%3]
	}
	mustImport(t, db, "v0", base)
	for round := 1; round <= 6; round++ {
		src := []string{"b", "c", "d"}[round%3]
		var file []*record.Record
		for i, r := range genRecords(int64(round+1), 200) {
			if i%4 == round%4 {
				continue
			}
			r.ID = src + "-" + r.ID[len(r.ID)-3:]
			r.SourceID = src
			file = append(file, r)
		}
		before := allRecords(t, db)
		prev, _ := db.Version()
		version := "v" + string(rune('0'+round))
		a, err := db.MergeSources(version, Slice(file), MergeOptions{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := mergeExpect(before, file, src)
		sameSet(t, allRecords(t, db), want)
		if a.Records != len(want) {
			t.Fatalf("round %d: Applied.Records %d, want %d", round, a.Records, len(want))
		}
		if len(a.Changes) == 0 {
			continue
		}
		changes, _, err := db.ChangesSince(prev.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := maps.Clone(before)
		for _, c := range changes {
			if c.Type == record.ChangeDelete {
				delete(got, c.Record.ID)
			} else {
				r := c.Record
				got[r.ID] = &r
			}
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: the change log leads to %d records, want %d", round, len(got), len(want))
		}
		for id := range want {
			if got[id] == nil || got[id].Name != want[id].Name {
				t.Fatalf("round %d: the change log leads to %+v for %s", round, got[id], id)
			}
		}
	}
}

// BenchmarkMergeSources merges a watchlist of 1,000 records into a store
// of AMLSCREEN_BENCH_N generated records, the first time (all ADDs) and
// again with a tenth changed. Every stored record is decoded once per
// merge to read its source, so the time grows with the store.
func BenchmarkMergeSources(b *testing.B) {
	n := benchN(b)
	db, _ := openTest(b, Options{})
	if err := db.ReplaceAll("v0", genFeed(1, n), nil); err != nil {
		b.Fatal(err)
	}
	first, second := genRecords(1, 1000), genRecords(2, 1000)
	for i := range first {
		if i%10 != 0 {
			second[i] = first[i].Clone() // nine in ten unchanged
		}
		first[i].ID, first[i].SourceID = fmt.Sprintf("my:%04d", i), "my_watchlist"
		second[i].ID, second[i].SourceID = first[i].ID, first[i].SourceID
	}
	b.ResetTimer()
	for i := range b.N {
		recs := first
		if i%2 == 1 {
			recs = second
		}
		if _, err := db.MergeSources(fmt.Sprintf("v%d", i+1), Slice(recs), MergeOptions{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFullImportKeepsMergedSources: a full import of the upstream's file
// (which knows nothing of a bank's own list) keeps the records and the
// catalogue entry of the sources merged into the store, counts them, and
// does not count them as removed for the shrink guard. A merge that
// empties a source forgets it, and the next full import removes nothing
// of it because there is nothing left.
func TestFullImportKeepsMergedSources(t *testing.T) {
	db, _ := openTest(t, Options{})
	// The public file is two records; the internal list three: a full
	// import that dropped the internal list would remove 3 of 5, more
	// than half, and be refused.
	mustImport(t, db, "v1", publicRecords())
	internal := []*record.Record{rec("my:1", "my", "Alice Example"), rec("my:2", "my", "Bob Example"), rec("my:3", "my", "Carol Example")}
	if _, err := db.MergeSources("v2", Slice(internal), MergeOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSources([]record.Source{{Source: "my", Name: "Our watchlist"}, {Source: "us_ofac_sdn", Name: "OFAC"}}); err != nil {
		t.Fatal(err)
	}
	if got, err := db.LocalSources(); err != nil || !slices.Equal(got, []string{"my"}) {
		t.Fatalf("LocalSources = %v, %v; want [my]", got, err)
	}

	// The upstream's next full file: one record changed, one gone, one new.
	a := rec("OFAC-1", "us_ofac_sdn", "Ivan Examplov Jr")
	a.SourceType = record.SourceSanction
	c := rec("OFAC-2", "us_ofac_sdn", "Petr Examplov")
	c.SourceType = record.SourceSanction
	if err := db.ReplaceAll("v3", Slice([]*record.Record{a, c}), nil); err != nil {
		t.Fatalf("full import with a merged source beside it: %v", err)
	}
	got := allRecords(t, db)
	for _, id := range []string{"my:1", "my:2", "my:3", "OFAC-1", "OFAC-2"} {
		if got[id] == nil {
			t.Errorf("after the full import, %s is gone", id)
		}
	}
	if got["UN-1"] != nil || len(got) != 5 {
		t.Errorf("after the full import: %d records (UN-1 kept: %v), want the 2 of the file and the 3 merged", len(got), got["UN-1"] != nil)
	}
	st, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 5 || st.BySourceID["my"] != 3 {
		t.Errorf("stats after the full import: %d records, %d of source my; want 5 and 3", st.Records, st.BySourceID["my"])
	}
	// The upstream's catalogue does not list the bank's source: it stays.
	if err := db.PutSources([]record.Source{{Source: "us_ofac_sdn", Name: "OFAC SDN"}}); err != nil {
		t.Fatal(err)
	}
	srcs, err := db.Sources()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range srcs {
		ids = append(ids, s.Source)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"my", "us_ofac_sdn"}) {
		t.Errorf("catalogue after the upstream's = %v, want the merged source kept", ids)
	}

	// Emptying the source by a merge that names it forgets it (3 of 5
	// records: the shrink guard wants AllowShrink).
	db.guard.allowShrink = true
	if _, err := db.MergeSources("v4", Slice(nil), MergeOptions{Sources: []string{"my"}}, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.LocalSources(); len(got) != 0 {
		t.Errorf("LocalSources after emptying my = %v, want none", got)
	}
	if err := db.ReplaceAll("v5", Slice([]*record.Record{a, c}), nil); err != nil {
		t.Fatal(err)
	}
	if got := allRecords(t, db); len(got) != 2 {
		t.Errorf("after emptying the merged source and a full import: %d records, want 2", len(got))
	}
}
