package engine

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/amlscreen/amlscreen/internal/cputime"
	"github.com/amlscreen/amlscreen/query"
)

// TestWarmHitsSameAnswers checks that reading the hits' ids, records and
// words ahead changes no answer: the tail's and the median's checks and
// generated ones at fuzzy 2 in scored mode, with and without it, some
// with more hits than a chunk, one with hits of a name string past the
// first (an alias).
func TestWarmHitsSameAnswers(t *testing.T) {
	skipUnderRace(t)
	ix, qs := warmWorld()
	t.Cleanup(func() { warmHitsAhead = true })
	most, alias := 0, false
	for _, q := range qs {
		q.Fuzzy, q.Match = 2, query.Scored
		warmHitsAhead = true
		warm, err := ix.Search(q)
		if err != nil {
			t.Fatalf("%q: %v", q.Names, err)
		}
		warmHitsAhead = false
		plain, err := ix.Search(q)
		if err != nil {
			t.Fatalf("%q: %v", q.Names, err)
		}
		if !reflect.DeepEqual(warm, plain) {
			t.Errorf("%q: %d hits read ahead, %d not, or they differ", q.Names, len(warm.Hits), len(plain.Hits))
		}
		most = max(most, len(warm.Hits))
		for _, h := range warm.Hits {
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
func BenchmarkSearchScoredWarmHits(b *testing.B) {
	for _, set := range []struct {
		name string
		qs   []query.Query
	}{{"tail", scoredHitsTail}, {"median", scoredHitsMedian}} {
		b.Run(set.name, func(b *testing.B) {
			benchSetup(b)
			benchData.ix.PrepareScored()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			defer func() { warmHitsAhead = true }()
			var cpu [2]float64 // with, without
			n := 0
			for b.Loop() {
				for _, q := range set.qs {
					q.Fuzzy, q.Match = 2, query.Scored
					// Alternate which way goes first.
					for _, on := range [2]bool{n%2 == 0, n%2 != 0} {
						warmHitsAhead = on
						c0, ok0 := cputime.Thread()
						if _, err := benchData.ix.Search(q); err != nil {
							b.Fatal(err)
						}
						c1, ok1 := cputime.Thread()
						if !ok0 || !ok1 {
							b.Skip("no thread CPU clock on this system")
						}
						k := 1
						if on {
							k = 0
						}
						cpu[k] += float64((c1 - c0).Nanoseconds())
					}
					n++
				}
			}
			b.ReportMetric(cpu[0]/float64(n), "warm-cpu-ns")
			b.ReportMetric(cpu[1]/float64(n), "plain-cpu-ns")
		})
	}
}
