package engine

import (
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestScoredTinyListsAgreeWithBrute scores lists of one to six records,
// where every word is rare in no sense and an exact name's logit falls
// below the threshold's: the index must still find what the brute-force
// reference finds, and a record's own name string, asked exactly, is a
// hit at every threshold.
func TestScoredTinyListsAgreeWithBrute(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	for n := 1; n <= 6; n++ {
		recs := generated(n, int64(100+n))
		ix := NewIndex(recs)
		var queries []query.Query
		for _, r := range recs {
			for _, ns := range NameStrings(r) {
				for _, min := range []float64{0, 0.95, 1} {
					queries = append(queries, query.Query{Kind: query.Any, Fuzzy: 2, Names: ns.Text, Limit: 50, Match: query.Scored, MinScore: min})
				}
			}
		}
		queries = append(queries, scoredQueries(recs, 30, int64(n))...)
		scoredAgreesWithBrute(t, ix, recs, queries)
		for _, r := range recs {
			name := NameStrings(r)[0].Text
			res, err := ix.Search(query.Query{Kind: query.Any, Fuzzy: 0, Names: name, Limit: 50, Match: query.Scored, MinScore: 1})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, h := range res.Hits {
				found = found || h.Record.ID == r.ID && h.Score == 1
			}
			if !found {
				t.Errorf("list of %d: %q at min_score 1 does not find its own record %s", n, name, r.ID)
			}
		}
	}
}
