package engine

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestSharedReasonPartsAgreeWithScoreRecord checks the reasons of checks
// whose hits repeat names (companies and people, spelled alike and not,
// with evidence beyond the name) against ScoreRecord's, which writes
// every reason on its own: hits of the same words share their pairs, and
// each must still read as its own record's.
func TestSharedReasonPartsAgreeWithScoreRecord(t *testing.T) {
	recs := generated(400, 5)
	for i := range 12 {
		recs = append(recs,
			&record.Record{ID: fmt.Sprintf("C%02d", i), Name: []string{"Imperial Limited", "IMPERIAL LTD", "Imperial Trading Limited"}[i%3], EntityType: record.EntityEntity},
			&record.Record{ID: fmt.Sprintf("P%02d", i), Name: []string{"John Smith", "Jon Smith", "John Robert Smith"}[i%3], EntityType: record.EntityIndividual,
				DateOfBirth: []string{[]string{"02/01/1970", "1981"}[i%2]}, Gender: []string{record.GenderMale, record.GenderFemale}[i%2]})
	}
	ix := NewIndex(recs)
	shared := 0
	for _, q := range []query.Query{
		{Names: "Imperial Limited"},
		{Names: "John Smith"},
		{Names: "John Smith", DOB: "02/01/1970", Gender: "male"},
	} {
		q.Fuzzy, q.Match = 2, query.Scored
		res, err := ix.Search(q)
		if err != nil {
			t.Fatalf("%q: %v", q.Names, err)
		}
		if len(res.Hits) < 4 {
			t.Fatalf("%q: %d hits, want the repeated names' (4 or more)", q.Names, len(res.Hits))
		}
		seen := map[*ScorePair]bool{}
		for _, h := range res.Hits {
			one, ok, err := ix.ScoreRecord(q, h.ID)
			if err != nil || !ok {
				t.Fatalf("%q: ScoreRecord(%s) = %v, %v", q.Names, h.ID, ok, err)
			}
			if !reflect.DeepEqual(h.Reason, one.Reason) {
				t.Errorf("%q: %s: reason\n%+v\nScoreRecord's\n%+v", q.Names, h.ID, h.Reason, one.Reason)
			}
			if len(h.Reason.Pairs) > 0 {
				if p := &h.Reason.Pairs[0]; seen[p] {
					shared++
				} else {
					seen[p] = true
				}
			}
		}
	}
	if shared == 0 {
		t.Error("no two hits share their pairs: the repeated names were written each apart")
	}
}
