package book

import (
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// A scored book weighs words among the change set's records only: a
// change set of one record holding a customer's very name must still
// raise its alert, as a strict book would.
func TestScoredBookNeverMissesAStrictMatch(t *testing.T) {
	g := gen.New(11)
	recs := []*record.Record{g.Record(0), g.Record(1), g.Record(2)}
	db, cw := watchedStore(t, recs)
	customers, _, err := read(t, "customer_id,full_name,date_of_birth,nationality\nC1,Zebedee Quatermain Oyelaran,,\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(db, customers, Config{Match: "scored", Fuzzy: 1}, "book.csv", time.Now()); err != nil {
		t.Fatal(err)
	}
	hit := recs[0].Clone()
	hit.ID, hit.Name, hit.AliasNames = "NEW-1", "Zebedee Quatermain Oyelaran", nil
	if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *hit}}, nil); err != nil {
		t.Fatal(err)
	}
	as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Subject != "C1" || as[0].Hit.RecordID != "NEW-1" {
		t.Fatalf("alerts after a one-record change set holding C1's name: %+v, want one for C1 and NEW-1", as)
	}
}
