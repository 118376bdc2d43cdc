package book

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/amlscreen/amlscreen/casework"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
	"github.com/amlscreen/amlscreen/screen"
	"github.com/amlscreen/amlscreen/store"
)

// TestScoredWeightsAreTheDatabases: a scored book weighs words with the
// whole database, so a customer and a record score the same whether the
// change set holds that record alone or 1,500 records of a database of
// 2,000 (AMLSCREEN_LONG_TESTS=1: 10,000 of 12,000; under the race
// detector, ten times slower, 1,000 of 1,500, the matcher's workers alike).
func TestScoredWeightsAreTheDatabases(t *testing.T) {
	n, changed := 2_000, 1_500
	switch {
	case longTests():
		n, changed = 12_000, 10_000
	case raceEnabled:
		n, changed = 1_500, 1_000
	}
	g := gen.New(5)
	var recs []*record.Record
	for i := range n {
		recs = append(recs, g.Record(i))
	}
	db := screen.New(recs, gen.Sources(), "v1").Index()
	var customers []Customer
	for k, q := range gen.Queries(recs[:changed], 300, 5) {
		customers = append(customers, Customer{ID: fmt.Sprintf("C%04d", k), Name: q.Names, Type: q.EntityType, DOB: q.DOB, Gender: q.Gender, Citizenship: q.Citizenship})
	}
	m, err := newMatcher(customers, Config{Match: "scored", Fuzzy: 1})
	if err != nil {
		t.Fatal(err)
	}
	big, err := m.match(recs[:changed], nil, "v1", db)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d matches in the change set of %d records", len(big.Matches), changed)
	if len(big.Matches) < 50 {
		t.Fatalf("%d matches in the big change set: the test would prove little", len(big.Matches))
	}
	byID := map[string]*record.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	for _, mt := range big.Matches[:20] {
		one, err := m.match([]*record.Record{byID[mt.RecordID]}, nil, "v1", db)
		if err != nil {
			t.Fatal(err)
		}
		var got *Match
		for i := range one.Matches {
			if one.Matches[i].CustomerID == mt.CustomerID {
				got = &one.Matches[i]
			}
		}
		if got == nil || got.Score == nil || *got.Score != *mt.Score || got.Reason != mt.Reason {
			t.Fatalf("customer %s, record %s: %+v in the %d-record change set, %+v alone", mt.CustomerID, mt.RecordID, mt, changed, got)
		}
	}
}

// TestRejectedCustomerIsSkipped: a customer the screener rejects (here a
// date of birth stored before the rule that rejects it, written to the
// bucket directly) is skipped and counted at every change set, and the
// change set still raises the other customers' alerts, in both modes.
func TestRejectedCustomerIsSkipped(t *testing.T) {
	for _, cfg := range []Config{{Match: "strict", Fuzzy: 1}, {Match: "scored", Fuzzy: 1}} {
		t.Run(cfg.Match, func(t *testing.T) {
			g := gen.New(3)
			recs := []*record.Record{g.Record(0), g.Record(1), g.Record(2)}
			db, cw := watchedStore(t, recs)
			customers := []Customer{
				{ID: "C1", Name: "Zebedee Quatermain Oyelaran"},
				{ID: "C2", Name: "Zebedee Quatermain Oyelaran", Type: "individual", DOB: "31/02/1980"},
				{ID: "C3", Name: "Zebedee Quatermain Oyelaran", Citizenship: "Atlantis"},
			}
			// The import refuses them (line and field: TestImportIsADiff),
			// so they are written as an older version might have.
			if _, err := Import(db, customers[:1], cfg, "book.csv", time.Now()); err != nil {
				t.Fatal(err)
			}
			if err := putCustomersRaw(db, customers[1:]); err != nil {
				t.Fatal(err)
			}
			hit := recs[0].Clone()
			hit.ID, hit.Name, hit.AliasNames = "NEW-1", "Zebedee Quatermain Oyelaran", nil
			hit.EntityType = record.EntityIndividual
			if _, err := db.ApplyDelta("v1", "v2", []record.Change{{Type: record.ChangeAdd, Record: *hit}}, nil); err != nil {
				t.Fatalf("the change set failed for a rejected customer: %v", err)
			}
			as, err := cw.Alerts(casework.Filter{Origin: casework.OriginMonitor})
			if err != nil {
				t.Fatal(err)
			}
			if len(as) != 1 || as[0].Subject != "C1" {
				t.Fatalf("alerts %+v, want one for C1", as)
			}
			st, err := GetStatus(db)
			if err != nil {
				t.Fatal(err)
			}
			if ls := st.LastScreen; ls == nil || ls.Version != "v2" || ls.Skipped != 2 || strings.Join(ls.SkippedIDs, ",") != "C2,C3" || ls.Matches != 1 {
				t.Fatalf("last screen %+v, want v2, 1 match, C2 and C3 skipped", ls)
			}
		})
	}
}

// putCustomersRaw writes customers to the book's bucket without checking
// them, advancing its sequence as an import does.
func putCustomersRaw(db *store.Store, customers []Customer) error {
	return db.Write(func(tx *store.Tx) error {
		b, _, err := buckets(tx)
		if err != nil {
			return err
		}
		for _, c := range customers {
			raw, err := json.Marshal(c)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(c.ID), raw); err != nil {
				return err
			}
		}
		_, err = b.NextSequence()
		return err
	})
}
