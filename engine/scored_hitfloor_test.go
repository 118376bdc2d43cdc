package engine

import (
	"math"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestHitFloorPrunesWithoutExactName: a query with a word that no record
// holds as it is written (a typo) cannot meet a name of the very same
// words, so its hit floor is the threshold's logit, not -Inf (which
// scored every name string holding a partner of any word); a query whose
// every word is held keeps a floor at or under the threshold's, finite.
func TestHitFloorPrunesWithoutExactName(t *testing.T) {
	t.Parallel()
	w := generatedWorld(1500, 23)
	recs, ix := w.recs, w.ix
	v := ix.acquire()
	defer v.release()
	const minScore = 0.82
	for _, tc := range []struct {
		names string
		exact bool // every word held as written
	}{
		{recs[0].Name, true},
		{recs[0].Name + " Qzxqzv", false},
		{"Qzxqzv", false},
	} {
		c, err := compile(query.Query{Names: tc.names, Match: query.Scored, Fuzzy: 2, MinScore: minScore})
		if err != nil {
			t.Fatal(err)
		}
		_, variants, _ := v.scoredVariants(c)
		for _, vr := range variants {
			for si, sq := range vr.segs {
				f := sq.hitFloor(minScore)
				switch {
				case !tc.exact && f != logitFloor(minScore):
					t.Errorf("%q, segment %d: hit floor %v, want the threshold's logit %v", tc.names, si, f, logitFloor(minScore))
				case tc.exact && (math.IsInf(f, 0) || f > logitFloor(minScore)):
					t.Errorf("%q, segment %d: hit floor %v, want finite and at most %v", tc.names, si, f, logitFloor(minScore))
				}
			}
		}
	}
}
