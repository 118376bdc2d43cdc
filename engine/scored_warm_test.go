package engine

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/amlscreen/amlscreen/internal/cputime"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// TestWarmReadsOrdinals checks that warm gives each candidate of a
// chunk its own record, for a chunk of one, a short one and a full one,
// up to the segment's last name string (boundWorld's index).
func TestWarmReadsOrdinals(t *testing.T) {
	ix := boundWorld().ix
	ix.PrepareScored()
	v := ix.acquire()
	defer v.release()
	vs := v.scored()
	ss := &scoredSeg{segView: &v.segs[0], keys: vs.keys[0], df: vs.global[0], words: vs.words[0], wordsN: vs.n}
	last := uint32(len(ss.nsRec) - 1)
	for _, n := range []int{1, 37, warmChunk} {
		cands := make([]uint32, n)
		for i := range cands {
			cands[i] = last - uint32(3*(n-1-i))
		}
		var ords [warmChunk]uint32
		for i := range ords {
			ords[i] = ^uint32(0)
		}
		ss.warm(cands, &ords)
		for i, ns := range cands {
			if ords[i] != ss.nsRec[ns] {
				t.Fatalf("chunk of %d: ords[%d] = %d, name string %d is record %d's", n, i, ords[i], ns, ss.nsRec[ns])
			}
		}
		if n < warmChunk && ords[n] != ^uint32(0) {
			t.Errorf("chunk of %d: warm wrote past it (ords[%d] = %d)", n, n, ords[n])
		}
	}
}

// warmWorld is the index and the checks the read-ahead tests compare
// answers on: 6,000 generated records and 96 more of one company's name,
// so that the tail's check of that name has more candidates and hits
// than a chunk (generated records alone need 20,000 for that), and the
// tail's, the median's and 60 generated checks. Built once for the
// tests that read it.
var warmWorld = sync.OnceValues(func() (*Index, []query.Query) {
	recs := generated(6000, 1)
	for i := range 96 {
		recs = append(recs, &record.Record{ID: fmt.Sprintf("GRANIT%02d", i), SourceID: "test", SourceType: "SANCTION",
			EntityType: record.EntityEntity, Name: "Granit LLC"})
	}
	ix := NewIndex(recs)
	ix.PrepareScored()
	qs := append(append([]query.Query(nil), scoredHitsTail...), scoredHitsMedian...)
	for _, gq := range gen.Queries(recs, 60, 2) {
		qs = append(qs, query.Query{Names: gq.Names, DOB: gq.DOB, Gender: gq.Gender, Citizenship: gq.Citizenship})
	}
	return ix, qs
})

// TestWarmAheadSameAnswers checks that reading candidates ahead changes
// no answer: the tail's checks and generated ones at fuzzy 2 in scored
// mode, with and without warm, some with more candidates than a chunk.
func TestWarmAheadSameAnswers(t *testing.T) {
	skipUnderRace(t)
	most := 0
	for _, hs := range sameAnswersBothWays(t, &warmAhead) {
		most = max(most, len(hs))
	}
	if most <= warmChunk {
		t.Fatalf("the most hits of a check is %d: no check had more candidates than a chunk (%d)", most, warmChunk)
	}
}

// sameAnswersBothWays searches warmWorld's checks at fuzzy 2 in scored
// mode with the read-ahead switch *on set and cleared, fails the test
// where the answers differ, and returns the hits of each check. The
// switch is left set.
func sameAnswersBothWays(t *testing.T, on *bool) [][]Hit {
	ix, qs := warmWorld()
	t.Cleanup(func() { *on = true })
	var hits [][]Hit
	for _, q := range qs {
		q.Fuzzy, q.Match = 2, query.Scored
		*on = true
		warm, err := ix.Search(q)
		if err != nil {
			t.Fatalf("%q: %v", q.Names, err)
		}
		*on = false
		plain, err := ix.Search(q)
		if err != nil {
			t.Fatalf("%q: %v", q.Names, err)
		}
		if !reflect.DeepEqual(warm, plain) {
			t.Errorf("%q: %d hits read ahead, %d not, or they differ", q.Names, len(warm.Hits), len(plain.Hits))
		}
		hits = append(hits, warm.Hits)
	}
	*on = true
	return hits
}

// BenchmarkSearchScoredWarm times each of the tail's and the median's
// checks with and without warm, one right after the other, on the
// benchmark's thread clock: a shared machine's load, which moves
// separate runs by a fifth, falls on both alike. warm-cpu-ns and
// plain-cpu-ns are the CPU time of a check each way
// (AMLSCREEN_BENCH_RECORDS=1000000 for the size the lists were read at).
func BenchmarkSearchScoredWarm(b *testing.B) { benchBothWays(b, &warmAhead) }

// benchBothWays times each of the tail's and the median's checks with
// the read-ahead switch *on set and cleared, in turn, on the thread's
// clock, and reports warm-cpu-ns and plain-cpu-ns.
func benchBothWays(b *testing.B, on *bool) {
	for _, set := range []struct {
		name string
		qs   []query.Query
	}{{"tail", scoredHitsTail}, {"median", scoredHitsMedian}} {
		b.Run(set.name, func(b *testing.B) {
			benchSetup(b)
			benchData.ix.PrepareScored()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			defer func() { *on = true }()
			var cpu [2]float64 // with, without
			n := 0
			for b.Loop() {
				for _, q := range set.qs {
					q.Fuzzy, q.Match = 2, query.Scored
					// Alternate which way goes first.
					for _, way := range [2]bool{n%2 == 0, n%2 != 0} {
						*on = way
						c0, ok0 := cputime.Thread()
						if _, err := benchData.ix.Search(q); err != nil {
							b.Fatal(err)
						}
						c1, ok1 := cputime.Thread()
						if !ok0 || !ok1 {
							b.Skip("no thread CPU clock on this system")
						}
						k := 1
						if way {
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
