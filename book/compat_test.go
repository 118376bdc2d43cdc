package book

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/storetest"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// fixtureBook is the book of testdata/book-2026-11.db.gz, as its CSV.
const fixtureBook = "customer_id,full_name,date_of_birth,nationality,branch\n" +
	"C1,Zebedee Quatermain Oyelaran,,,Riga\nC2,Philippa Vandersloot-Achterberg,,,\nC3,Anna Sokolova,,RU,Tallinn\n"

// TestOpensABookWrittenBeforeSubStores opens a store written by the code
// of before the book moved onto store's sub-stores
// (testdata/book-2026-11.db.gz: internal/gen records 0-39 of seed 7 at
// v1; fixtureBook plus C4 "Boris Kuznetsov" imported in scored mode,
// fuzzy 1, from book.csv at 2026-11-20T09:30:00Z; C4 removed; record
// NEW-1 named as C1 added at v2, which raised one monitor alert) and
// reads the book back and screens a change set against it: the move
// changed no bucket name and no encoding.
func TestOpensABookWrittenBeforeSubStores(t *testing.T) {
	db := storetest.OpenGzipped(t, "testdata/book-2026-11.db.gz")
	cw := casework.New(db, casework.Options{})
	db.OnApply(cw.Hook)
	db.OnApply(Hook(cw, Shard{}, screen.Follow(db, nil).Index))

	st, err := GetStatus(db)
	if err != nil {
		t.Fatal(err)
	}
	li, ls := st.LastImport, st.LastScreen
	if st.Customers != 3 || st.Match != "scored" || st.Fuzzy != 1 || li == nil || ls == nil {
		t.Fatalf("status %+v", st)
	}
	if !li.At.Equal(time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)) || li.File != "book.csv" || li.Customers != 4 || li.Added != 4 {
		t.Errorf("last import %+v", li)
	}
	if ls.Version != "v2" || ls.Matches != 1 || ls.Skipped != 0 {
		t.Errorf("last screen %+v", ls)
	}
	var got []string
	if err := ForEach(db, func(c *Customer) error { got = append(got, c.ID+"="+c.Name+"/"+c.Extra["branch"]); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"C1=Zebedee Quatermain Oyelaran/Riga", "C2=Philippa Vandersloot-Achterberg/", "C3=Anna Sokolova/Tallinn"}; !slices.Equal(got, want) {
		t.Errorf("customers %v, want %v", got, want)
	}

	// The stored customer is the bytes this code writes for it.
	want, _, err := read(t, fixtureBook)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(&want[2])
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Read(func(tx *store.Tx) error {
		if b := store.BookCustomers.Bucket(tx); b == nil || string(b.Get([]byte("C3"))) != string(raw) {
			t.Errorf("C3 stored as another encoding than %s", raw)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// The hook follows the stored book: a change to the record it matched
	// reopens the alert, and the last screen is the new change set's.
	hit, err := db.Get("NEW-1")
	if err != nil {
		t.Fatal(err)
	}
	changed := hit.Clone()
	changed.AliasNames = []string{"Z. Q. Oyelaran"}
	if _, err := db.ApplyDelta("v2", "v3", []record.Change{{Type: record.ChangeUpdate, Record: *changed}}, nil); err != nil {
		t.Fatal(err)
	}
	as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
	if err != nil || len(as) != 1 || as[0].Subject != "C1" || as[0].Hit.RecordID != "NEW-1" || as[0].Reopened != 1 || as[0].Version != "v3" {
		t.Fatalf("monitor alerts after v3: %+v, %v", as, err)
	}
	if st, err := GetStatus(db); err != nil || st.LastScreen == nil || st.LastScreen.Version != "v3" || st.LastScreen.Matches != 1 {
		t.Fatalf("status after v3: %+v, %v", st, err)
	}

	// The same book imported again is unchanged, customer by customer.
	res, err := Import(db, want, Config{Match: "scored", Fuzzy: 1}, "book.csv", time.Now())
	if err != nil || res.Unchanged != 3 || res.Added+res.Changed+res.Removed != 0 {
		t.Fatalf("re-import: %+v, %v", res, err)
	}
}
