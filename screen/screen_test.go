package screen

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

func feed(recs ...*record.Record) func() (*record.Record, error) { return store.Slice(recs) }

func hits(t *testing.T, d *Database, names string) []string {
	t.Helper()
	res, err := d.Index().Search(query.Query{Names: names})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, h := range res.Hits {
		out = append(out, h.Record.ID)
	}
	return out
}

func TestFollowsTheStore(t *testing.T) {
	// AllowShrink: the full import below replaces every record on purpose.
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{AllowShrink: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := &record.Record{ID: "A", SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Anna Alpha"}
	b := &record.Record{ID: "B", SourceID: "s2", SourceType: "OTHER", EntityType: "INDIVIDUAL", Name: "Bert Beta"}
	if err := st.ReplaceAll("v1", feed(a, b), nil); err != nil {
		t.Fatal(err)
	}
	d, err := Load(st)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Version() != "v1" || !reflect.DeepEqual(hits(t, d, "anna"), []string{"A"}) {
		t.Fatalf("after load: version %q, hits %v", d.Version(), hits(t, d, "anna"))
	}

	// A change set: rename A, delete B, add C.
	changes := []record.Change{
		{Type: record.ChangeUpdate, Record: record.Record{ID: "A", SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: "Anna Gamma"}},
		{Type: record.ChangeDelete, Record: record.Record{ID: "B"}},
		{Type: record.ChangeAdd, Record: record.Record{ID: "C", SourceID: "s1", SourceType: "SANCTION", EntityType: "ENTITY", Name: "Gamma LLC"}},
	}
	applied, err := st.ApplyDelta("v1", "v2", changes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Apply(st, applied); err != nil {
		t.Fatal(err)
	}
	if d.Version() != "v2" {
		t.Errorf("version %q, want v2", d.Version())
	}
	if got := hits(t, d, "gamma"); !reflect.DeepEqual(got, []string{"A", "C"}) {
		t.Errorf("gamma: %v", got)
	}
	if got := hits(t, d, "bert"); len(got) != 0 {
		t.Errorf("deleted B still found: %v", got)
	}

	// A full import replaces everything.
	if err := st.ReplaceAll("v3", feed(b), nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Apply(st, &store.Applied{Full: true, Version: "v3"}); err != nil {
		t.Fatal(err)
	}
	if d.Version() != "v3" || len(hits(t, d, "gamma")) != 0 || len(hits(t, d, "bert")) != 1 {
		t.Errorf("after full import: version %q", d.Version())
	}
}

// TestCompactsTombstones: change sets leave the old postings of deleted and
// updated records behind until they reach a quarter of the live records;
// then Apply swaps in a compacted index that answers the same, while
// searches on the old one go on.
func TestCompactsTombstones(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 4000
	person := func(i int, name string) record.Record {
		return record.Record{ID: fmt.Sprintf("R%05d", i), SourceID: "s1", SourceType: "SANCTION", EntityType: "INDIVIDUAL", Name: name}
	}
	var recs []*record.Record
	for i := range n {
		r := person(i, fmt.Sprintf("Olga Person%d", i))
		recs = append(recs, &r)
	}
	if err := st.ReplaceAll("v1", feed(recs...), nil); err != nil {
		t.Fatal(err)
	}
	d, err := Load(st)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	apply := func(prev, next string, changes []record.Change) {
		t.Helper()
		a, err := st.ApplyDelta(prev, next, changes, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Apply(st, a); err != nil {
			t.Fatal(err)
		}
		d.WaitMerges() // a server's index merges in the background
	}
	// The index merges its segments as change sets pile up: once the
	// merge a change set starts has run, tombstones never outgrow a
	// quarter of the records.
	var small []record.Change
	for i := range 999 {
		small = append(small, record.Change{Type: record.ChangeUpdate, Record: person(i, fmt.Sprintf("Olga Renamed%d", i))})
	}
	apply("v1", "v2", small)
	if live, dead := d.Index().Garbage(); live != n || dead*4 > live {
		t.Fatalf("after %d updates: live %d dead %d", len(small), live, dead)
	}

	// Searches run while the next change set crosses the threshold.
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for {
			select {
			case <-stop:
				close(done)
				return
			default:
			}
			if _, err := d.Index().Search(query.Query{Names: "olga person3999"}); err != nil {
				done <- err
				return
			}
		}
	}()
	big := []record.Change{{Type: record.ChangeDelete, Record: record.Record{ID: "R03000"}}, {Type: record.ChangeUpdate, Record: person(1, "Olga Twice")}}
	apply("v2", "v3", big)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if live, dead := d.Index().Garbage(); live != n-1 || dead*4 > live {
		t.Errorf("after the second change set: live %d dead %d", live, dead)
	}
	if d.Version() != "v3" {
		t.Errorf("version %q", d.Version())
	}
	for q, want := range map[string][]string{
		"olga renamed5":   {"R00005"},
		"olga person5":    {},
		"olga twice":      {"R00001"},
		"olga renamed1":   {},
		"olga person3000": {},
		"olga person3001": {"R03001"},
	} {
		if got := hits(t, d, q); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
}
