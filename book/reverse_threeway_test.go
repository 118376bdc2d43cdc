package book

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// TestScoredCandidatesThreeWay: a customer whose word a changed record
// writes as three (Vanderbilt, van der bilt) and one whose three words a
// record writes as one are scored against that record, as every hit the
// index scores is (engine: one word against three joined).
func TestScoredCandidatesThreeWay(t *testing.T) {
	g := gen.New(41)
	var recs []*record.Record
	for i := range 500 {
		recs = append(recs, g.Record(i))
	}
	ent := func(id, name string) *record.Record {
		return &record.Record{ID: id, SourceID: recs[0].SourceID, SourceType: recs[0].SourceType, EntityType: record.EntityEntity, Name: name}
	}
	changed := []*record.Record{ent("T1", "van der bilt corp"), ent("T2", "Vanderzandt Holdings"), ent("T3", "Oster Berg Haus Trading")}
	full := engine.NewIndex(append(recs, changed...))
	customers := []Customer{
		{ID: "c1", Name: "vanderbilt corp", Type: "entity"},
		{ID: "c2", Name: "Van Der Zandt Holdings", Type: "entity"},
		{ID: "c3", Name: "Osterberghaus Trading", Type: "entity"},
		{ID: "c4", Name: "Unrelated Name Holdings", Type: "entity"},
	}
	for fuzzy := range 3 {
		t.Run(fmt.Sprint("fuzzy ", fuzzy), func(t *testing.T) {
			cfg := Config{Match: "scored", Fuzzy: fuzzy}
			sc, err := cfg.Screener(nil)
			if err != nil {
				t.Fatal(err)
			}
			rv := newScoredReverse(customers, sc)
			st := full.ScoredStats()
			custs, rs := rv.scoredPairs(changed, st, 0)
			st.Release()
			cand := map[[2]int]bool{}
			for k, c := range custs {
				for _, r := range rs[k] {
					cand[[2]int{int(c), int(r)}] = true
				}
			}
			hits := 0
			for i := range customers {
				q, rej := sc.Query(customers[i].Row())
				if rej != nil {
					t.Fatalf("customer %s rejected: %+v", customers[i].ID, rej)
				}
				pq, err := full.PrepareScoredQuery(q)
				if err != nil {
					t.Fatal(err)
				}
				for r, rec := range changed {
					if _, ok := pq.Score(rec); !ok {
						continue
					}
					hits++
					if !cand[[2]int{i, r}] {
						t.Errorf("%s hits %s, but is not a candidate", customers[i].Name, rec.Name)
					}
				}
			}
			if hits < 3 {
				t.Errorf("%d hits, want the three customers' at least", hits)
			}
		})
	}
}
