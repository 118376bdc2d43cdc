package book

import (
	"errors"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/store"
)

// TestHookRaisesAlerts registers the hooks as the CLI and serve do, on a
// real store holding a book, and applies change sets: a record added with
// a customer's name raises one monitor alert in the change's transaction;
// the same record applied again raises no second one; a change to the
// record reopens it; a change set rolled back raises nothing; a book
// re-imported in scored mode or with a customer removed is followed.
func TestHookRaisesAlerts(t *testing.T) {
	g := gen.New(7)
	var recs []*record.Record
	for i := range 200 {
		recs = append(recs, g.Record(i))
	}
	db, cw := watchedStore(t, recs)
	customers, _, err := read(t, "customer_id,full_name,date_of_birth,nationality\nC1,Zebedee Quatermain Oyelaran,,\nC2,Philippa Vandersloot-Achterberg,,\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(db, customers, DefaultConfig, "book.csv", time.Now()); err != nil {
		t.Fatal(err)
	}
	hit := recs[0].Clone()
	hit.ID, hit.Name, hit.AliasNames = "NEW-1", "Zebedee Quatermain Oyelaran", nil
	other := recs[1].Clone()
	other.ID, other.Name, other.AliasNames = "NEW-2", "Nobody Of Consequence", nil
	monitor := func(t *testing.T) []*casework.Alert {
		t.Helper()
		as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
		if err != nil {
			t.Fatal(err)
		}
		return as
	}

	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *hit}, {Type: record.ChangeAdd, Record: *other}}, nil); err != nil {
		t.Fatal(err)
	}
	as := monitor(t)
	if len(as) != 1 {
		t.Fatalf("%d monitor alerts after v2, want 1: %+v", len(as), as)
	}
	a := as[0]
	if a.Subject != "C1" || a.Hit.RecordID != "NEW-1" || a.Version != "v2" || a.Status != casework.Open || a.Hit.Reason == "" ||
		a.Query.Names != "Zebedee Quatermain Oyelaran" || a.Hit.SourceType != hit.SourceType {
		t.Fatalf("alert: %+v", a)
	}

	// The same change set again is refused by the store; the same record
	// in a new change set is content already alerted on.
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *hit}}, nil); err == nil {
		t.Fatal("a change set applied twice was accepted")
	}
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: record.ChangeAdd, Record: *hit}}, nil); err != nil {
		t.Fatal(err)
	}
	if as := monitor(t); len(as) != 1 || as[0].Reopened != 0 || as[0].Version != "v2" {
		t.Fatalf("after the same record again: %+v", as)
	}

	// A changed record reopens its alert, still one.
	changed := hit.Clone()
	changed.AliasNames = []string{"Z. Q. Oyelaran"}
	if _, err := db.ApplyDelta("v3", "v4", []record.Change{{Type: record.ChangeUpdate, Record: *changed}}, nil); err != nil {
		t.Fatal(err)
	}
	if as := monitor(t); len(as) != 1 || as[0].Reopened != 1 || as[0].Version != "v4" || as[0].Status != casework.Open {
		t.Fatalf("after a change to the record: %+v", as)
	}

	// A second customer matched by a change set that a later hook
	// refuses: the alert is rolled back with the records, because it was
	// raised in their transaction.
	third := recs[2].Clone()
	third.ID, third.Name = "NEW-3", "Philippa Vandersloot-Achterberg"
	refuse := true
	db.OnApply(func(_ *store.Tx, ap *store.Applied) error {
		if refuse {
			return errors.New("refused by a later hook")
		}
		return nil
	})
	if _, err := db.ApplyDelta("v4", "v5", []record.Change{{Type: record.ChangeAdd, Record: *third}}, nil); err == nil {
		t.Fatal("a change set a hook refused was applied")
	}
	if as := monitor(t); len(as) != 1 {
		t.Fatalf("a refused change set raised alerts: %+v", as)
	}
	refuse = false
	if _, err := db.ApplyDelta("v4", "v5", []record.Change{{Type: record.ChangeAdd, Record: *third}}, nil); err != nil {
		t.Fatal(err)
	}
	if as := monitor(t); len(as) != 2 || as[1].Subject != "C2" || as[1].Hit.RecordID != "NEW-3" || as[1].Version != "v5" {
		t.Fatalf("after v5: %+v", as)
	}

	// A book screened in scored mode: the alert carries the score. Its
	// word weights are those of the changed records (as batch --since
	// scores), so the change set sends fifty records again beside it.
	if _, err := Import(db, customers, Config{Match: "scored", Fuzzy: 1}, "book.csv", time.Now()); err != nil {
		t.Fatal(err)
	}
	fourth := recs[3].Clone()
	fourth.ID, fourth.Name, fourth.AliasNames = "NEW-4", "Philippa Vandersloot Achterberg", nil
	delta := []record.Change{{Type: record.ChangeAdd, Record: *fourth}}
	for _, r := range recs[10:60] {
		delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
	}
	if _, err := db.ApplyDelta("v5", "v6", delta, nil); err != nil {
		t.Fatal(err)
	}
	as = monitor(t)
	if len(as) != 3 || as[2].Subject != "C2" || as[2].Hit.RecordID != "NEW-4" || as[2].Hit.Score == nil || *as[2].Hit.Score <= 0 {
		t.Fatalf("after v6, scored: %+v", as[len(as)-1])
	}

	// A customer removed from the book is matched no more: the hook's
	// copy of the book follows the store's.
	if missing, err := Remove(db, []string{"C1"}); err != nil || len(missing) != 0 {
		t.Fatalf("remove: %v %v", missing, err)
	}
	fifth := recs[4].Clone()
	fifth.ID, fifth.Name, fifth.AliasNames = "NEW-5", "Zebedee Quatermain Oyelaran", nil
	delta = []record.Change{{Type: record.ChangeAdd, Record: *fifth}}
	for _, r := range recs[10:60] {
		delta = append(delta, record.Change{Type: record.ChangeUpdate, Record: *r})
	}
	if _, err := db.ApplyDelta("v6", "v7", delta, nil); err != nil {
		t.Fatal(err)
	}
	if as := monitor(t); len(as) != 3 {
		t.Fatalf("after v7, a removed customer matched: %+v", as[len(as)-1])
	}
}

// watchedStore opens a store in a test directory with the hooks the CLI
// and serve register (casework's reopen hook, then the book's), holding
// recs at version v1. The test's cleanup closes it.
func watchedStore(t *testing.T, recs []*record.Record) (*store.Store, *casework.Casework) {
	t.Helper()
	return shardedStore(t, recs, Shard{})
}
