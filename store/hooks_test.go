package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestOnApplyRunsOnEveryWrite: a hook registered with OnApply runs in
// the transaction of every way records change (full import, delta, merge),
// after the call's own hook, and its error rolls the change back.
func TestOnApplyRunsOnEveryWrite(t *testing.T) {
	db, _ := openTest(t, Options{})
	var seen []string
	fail := false
	db.OnApply(func(tx *Tx, a *Applied) error {
		seen = append(seen, "registered "+a.Version)
		if fail {
			return errors.New("refused")
		}
		return nil
	})
	db.OnApply(func(tx *Tx, a *Applied) error { seen = append(seen, "applied "+a.Version); return nil })
	own := func(tx *Tx, a *Applied) error { seen = append(seen, "own "+a.Version); return nil }
	if err := db.ReplaceAll("v1", Slice(publicRecords()), own); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *rec("X1", "us_ofac_sdn", "New Person")}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeSources("v3", Slice([]*record.Record{rec("my:1", "my", "Alice Example")}), MergeOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	// Hooks run in the order registered.
	want := []string{"own v1", "registered v1", "applied v1", "registered v2", "applied v2", "registered v3", "applied v3"}
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

// tapLog records what an ImportTap is told.
type tapLog struct{ calls []string }

func (l *tapLog) Record(r *record.Record) { l.calls = append(l.calls, "record "+r.ID+" "+r.Name) }
func (l *tapLog) Read()                   { l.calls = append(l.calls, "read") }
func (l *tapLog) Kept(r *record.Record)   { l.calls = append(l.calls, "kept "+r.ID) }
func (l *tapLog) Abort(error)             { l.calls = append(l.calls, "abort") }

// TestImportTapSeesWhatTheImportLeaves: a full import's tap sees every
// record read in order (a later copy of an id too), then reading's end,
// then the local records the import keeps, inside the transaction, and the
// change hooks find it in Applied; a refused import tells it to abort, and
// merges and deltas have none.
func TestImportTapSeesWhatTheImportLeaves(t *testing.T) {
	db, _ := openTest(t, Options{})
	var taps []*tapLog
	db.OnImport(func(version string) ImportTap {
		l := &tapLog{calls: []string{"start " + version}}
		taps = append(taps, l)
		return l
	})
	var hooked []ImportTap
	db.OnApply(func(tx *Tx, a *Applied) error {
		hooked = append(hooked, a.Import)
		if a.Import != nil {
			a.Import.(*tapLog).calls = append(a.Import.(*tapLog).calls, "hook "+a.Version)
		}
		return nil
	})
	if err := db.ReplaceAll("v1", Slice([]*record.Record{rec("B", "us_ofac_sdn", "Bea One"), rec("A", "us_ofac_sdn", "Al One")}), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeSources("v2", Slice([]*record.Record{rec("my:1", "my", "Alice Example")}), MergeOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.ReplaceAll("v3", Slice([]*record.Record{rec("A", "us_ofac_sdn", "Al Two"), rec("C", "us_ofac_sdn", "Cy One"), rec("A", "us_ofac_sdn", "Al Three")}), nil); err != nil {
		t.Fatal(err)
	}
	// Refused: a file with no records never replaces the store.
	if err := db.ReplaceAll("v4", Slice(nil), nil); err == nil {
		t.Fatal("empty file not refused")
	}
	want := [][]string{
		{"start v1", "record B Bea One", "record A Al One", "read", "hook v1"},
		{"start v3", "record A Al Two", "record C Cy One", "record A Al Three", "read", "kept my:1", "hook v3"},
		{"start v4", "read", "abort"},
	}
	if len(taps) != len(want) {
		t.Fatalf("%d taps, want %d", len(taps), len(want))
	}
	for i, w := range want {
		if got := strings.Join(taps[i].calls, " | "); got != strings.Join(w, " | ") {
			t.Errorf("import %d:\n got  %s\n want %s", i+1, got, strings.Join(w, " | "))
		}
	}
	if len(hooked) != 3 || hooked[0] != taps[0] || hooked[1] != nil || hooked[2] != taps[1] {
		t.Errorf("hooks saw taps %v", hooked)
	}
}
