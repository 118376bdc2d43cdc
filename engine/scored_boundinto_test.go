package engine

import (
	"reflect"
	"testing"

	"github.com/amlscreen/amlscreen/record"
)

// TestBoundIntoEqualsBound checks that a bound rewritten for one word list
// after another (the book bounds every customer it reaches into the same
// two) equals a fresh bound of each, shorter lists after longer ones
// included.
func TestBoundIntoEqualsBound(t *testing.T) {
	t.Parallel()
	recs, st := generatedStats(t, 300, 3)
	lists := [][]string{
		{"ivan", "petrov", "sergeyevich", "ivanov"},
		{"ali"},
		{},
		{"mohammed", "al", "rashid"},
		{"a", "b", "c", "d", "e", "f", "g", "h"},
		{"li"},
	}
	for _, q := range diffQueries(recs, 30, 9) {
		if ws, _, _, err := ScoredCheck(q); err == nil {
			lists = append(lists, ws)
		}
	}
	var reused ScoredBound
	for _, words := range lists {
		var ws []ScoredWordStat
		for _, w := range words {
			ws = append(ws, st.WordStat(w, false))
		}
		for _, minScore := range []float64{0, 0.5, 0.9} {
			want := st.Bound(ws, minScore)
			st.BoundInto(&reused, ws, minScore)
			got := reused
			if len(got.w) == 0 {
				got.w, got.miss = want.w, want.miss // empty either way
			}
			if !reflect.DeepEqual(&got, want) {
				t.Fatalf("%q at %v: reused bound %+v, fresh %+v", words, minScore, got, *want)
			}
		}
	}
}

// generatedStats returns n generated records and the scored word
// statistics of an index of them, released when t ends.
func generatedStats(t *testing.T, n int, seed int64) ([]*record.Record, *ScoredStats) {
	t.Helper()
	recs := generated(n, seed)
	ix := NewIndex(recs)
	ix.PrepareScored()
	st := ix.ScoredStats()
	t.Cleanup(st.Release)
	return recs, st
}
