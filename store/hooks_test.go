package store

import (
	"errors"
	"testing"

	"github.com/amlscreen/amlscreen/record"
	bolt "go.etcd.io/bbolt"
)

// TestOnChangeRunsOnEveryWrite: a hook registered with OnChange runs in
// the transaction of every way records change (full import, delta, merge),
// after the call's own hook, and its error rolls the change back.
func TestOnChangeRunsOnEveryWrite(t *testing.T) {
	db, _ := openTest(t, Options{})
	var seen []string
	fail := false
	db.OnChange(func(tx *bolt.Tx, a *Applied) error {
		seen = append(seen, "registered "+a.Version)
		if fail {
			return errors.New("refused")
		}
		return nil
	})
	own := func(tx *bolt.Tx, a *Applied) error { seen = append(seen, "own "+a.Version); return nil }
	if err := db.ReplaceAll("v1", feed(publicRecords()), own); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *rec("X1", "us_ofac_sdn", "New Person")}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeSources("v3", feed([]*record.Record{rec("my:1", "my", "Alice Example")}), MergeOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"own v1", "registered v1", "registered v2", "registered v3"}
	if len(seen) != len(want) {
		t.Fatalf("hooks ran %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("hooks ran %v, want %v", seen, want)
		}
	}
	fail = true
	_, err := db.ApplyDelta("v3", "v4", []record.Change{{Type: record.ChangeAdd, Record: *rec("X2", "us_ofac_sdn", "Other Person")}}, nil)
	if err == nil {
		t.Fatal("a failing registered hook did not fail the change")
	}
	if v, _ := db.Version(); v.ID != "v3" {
		t.Errorf("after a failed hook the store is at %q, want v3", v.ID)
	}
	if _, err := db.Get("X2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after a failed hook X2 is stored: %v", err)
	}
}
