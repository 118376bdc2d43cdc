package book

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestScoredCandidatesLoseNoMatch checks the scored reverse index against
// scoring every customer's check on every changed record (with the
// database's statistics): each pair that scores a hit is among the pairs
// the index gives, and those are a small part of all pairs (the point of
// the index). The customers are derived from the database's records with
// the generator's variants (spellings, initials, swapped and dropped
// words, typos). Scoring is the cost: fuzzy f scores the customers whose
// position is f modulo 6, so every other customer is scored, at one fuzzy
// setting; AMLSCREEN_LONG_TESTS=1 scores every customer at every setting.
// Under the race detector only fuzzy 1 runs.
func TestScoredCandidatesLoseNoMatch(t *testing.T) {
	w := newWorld(t)
	prepared := make([]*engine.PreparedRecord, len(w.changed))
	for i, r := range w.changed {
		prepared[i] = engine.PrepareRecord(r)
	}
	fuzzies := []int{0, 1, 2}
	stride := 2 * len(fuzzies)
	if longTests() {
		stride = 1
	}
	for _, fuzzy := range fuzzies {
		t.Run(fmt.Sprint("fuzzy ", fuzzy), func(t *testing.T) {
			skipLevelUnderRace(t, fuzzy, 1)
			cfg := Config{Match: "scored", Fuzzy: fuzzy}
			customers := readBook(t, w.book, cfg)
			sc, err := cfg.Screener(nil)
			if err != nil {
				t.Fatal(err)
			}
			rv := newScoredReverse(customers, sc)
			st := w.full.ScoredStats()
			custs, recs := rv.scoredPairs(w.changed, st, 0)
			st.Release()
			cand := map[[2]int]bool{}
			pairs := 0
			for k, c := range custs {
				for _, r := range recs[k] {
					cand[[2]int{int(c), int(r)}] = true
					pairs++
				}
			}
			hits := 0
			scoredHits(t, w, sc, customers, prepared, fuzzy%stride, stride, func(i, r int, score float64) {
				hits++
				if !cand[[2]int{i, r}] {
					t.Fatalf("customer %s (%q) scores %.4f on %s (%q) but is no candidate for it",
						customers[i].ID, customers[i].Name, score, w.changed[r].ID, w.changed[r].Name)
				}
			})
			all := len(customers) * len(w.changed)
			t.Logf("%d hits scoring 1 customer in %d; %d candidate pairs of %d (%d customers of %d)", hits, stride, pairs, all, len(custs), len(customers))
			if hits < 20 || pairs > all/20 {
				t.Errorf("%d hits, %d candidate pairs of %d: the index should leave few", hits, pairs, all)
			}
		})
	}
}

// scoredHits scores the check of every stride-th customer from start on
// every changed record of w (prepared), with the database's statistics:
// the reference the reverse index's candidates are compared with. hit is
// called for each pair that scores a hit.
func scoredHits(t *testing.T, w *world, sc *batch.Screener, customers []Customer, prepared []*engine.PreparedRecord, start, stride int, hit func(cust, rec int, score float64)) {
	t.Helper()
	for i := start; i < len(customers); i += stride {
		q, rej := sc.Query(customers[i].Row())
		if rej != nil {
			t.Fatalf("customer %s rejected: %+v", customers[i].ID, rej)
		}
		pq, err := w.full.PrepareScoredQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		for r, p := range prepared {
			if h, ok := pq.ScorePrepared(p); ok {
				hit(i, r, h.Score)
			}
		}
	}
}

// scoredPairs is scoredPairsMarked without the marks.
func (rv *scoredReverse) scoredPairs(changed []*record.Record, st *engine.ScoredStats, minScore float64) (custs []int32, recs [][]int32) {
	custs, recs, _ = rv.scoredPairsMarked(changed, st, minScore)
	return custs, recs
}
