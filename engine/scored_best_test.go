package engine

import (
	"slices"
	"testing"
)

// TestBestSetKeepsEachRecordsBest puts runs of keys, in order and out of
// it, with records repeated, and checks that the set holds each record
// once with its best score, as a map keeping the higher score does.
func TestBestSetKeepsEachRecordsBest(t *testing.T) {
	type put struct {
		key   uint64
		score float64
	}
	for _, tc := range []struct {
		name string
		runs [][]put
	}{
		{"ascending, repeats next to each other", [][]put{{{1, 0.5}, {1, 0.9}, {1, 0.7}, {4, 0.8}, {9, 0.85}, {9, 0.95}}}},
		{"two runs", [][]put{{{2, 0.9}, {5, 0.86}, {5, 0.88}}, {{1<<32 | 2, 0.83}, {1<<32 | 3, 0.99}}}},
		{"out of order", [][]put{{{7, 0.9}, {3, 0.84}, {7, 0.95}, {3, 0.83}, {5, 0.9}, {1, 0.99}, {5, 0.91}}}},
		{"second run below the first", [][]put{{{10, 0.9}, {12, 0.9}}, {{1, 0.85}, {1, 0.95}, {11, 0.86}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s bestSet
			s.reset()
			want := map[uint64]float64{}
			for _, run := range tc.runs {
				s.startRun()
				for _, p := range run {
					b := scoredBest{score: p.score}
					at, found := s.find(p.key)
					if old, ok := want[p.key]; ok != found {
						t.Fatalf("key %d: found %v, held before %v", p.key, found, ok)
					} else if ok && old >= p.score {
						continue
					}
					s.put(at, found, p.key, b)
					want[p.key] = p.score
				}
			}
			if s.len() != len(want) {
				t.Fatalf("%d records held, want %d", s.len(), len(want))
			}
			for i, key := range s.keys {
				if s.bs[i].score != want[key] {
					t.Errorf("key %d: score %v, want %v", key, s.bs[i].score, want[key])
				}
			}
			// Dropping every other record keeps the rest in order.
			drop := make([]bool, s.len())
			var kept []uint64
			for i := range drop {
				drop[i] = i%2 == 1
				if !drop[i] {
					kept = append(kept, s.keys[i])
				}
			}
			s.keep(drop)
			if !slices.Equal(s.keys, kept) || len(s.bs) != len(kept) {
				t.Errorf("after keep: keys %v (%d bests), want %v", s.keys, len(s.bs), kept)
			}
		})
	}
}
