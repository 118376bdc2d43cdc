package engine

import (
	"testing"
)

// TestWarmHitsSameAnswers checks that reading the hits' ids, records and
// words ahead changes no answer: the tail's and the median's checks and
// generated ones at fuzzy 2 in scored mode, with and without it, some
// with more hits than a chunk, one with hits of a name string past the
// first (an alias).
func TestWarmHitsSameAnswers(t *testing.T) {
	skipUnderRace(t)
	hits := sameAnswersBothWays(t, &warmHitsAhead)
	most, alias := 0, false
	for _, hs := range hits {
		most = max(most, len(hs))
		for _, h := range hs {
			alias = alias || h.slot > 0
		}
	}
	if most <= warmChunk {
		t.Fatalf("the most hits of a check is %d: no check had more hits than a chunk (%d)", most, warmChunk)
	}
	if !alias {
		t.Fatal("no hit by a name string past the first: the slots warmHits reads were not tried")
	}
}

// BenchmarkSearchScoredWarmHits times each of the tail's and the
// median's checks with and without warmIDs and warmHits, one right after
// the other, on the benchmark's thread clock (as BenchmarkSearchScoredWarm
// does for warm): warm-cpu-ns and plain-cpu-ns are the CPU time of a
// check each way (AMLSCREEN_BENCH_RECORDS=1000000 for the size the lists
// were read at).
func BenchmarkSearchScoredWarmHits(b *testing.B) { benchBothWays(b, &warmHitsAhead) }
