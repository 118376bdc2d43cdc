package engine

import (
	"math"
	"testing"

	"github.com/amlscreen/amlscreen/query"
)

// TestRecordWordCacheAgrees checks the view's cache of record-word costs:
// after scored checks have filled it, every cached token reads what
// recordMiss and optionalWord compute for it, and a query weighed over
// another number of records bypasses it.
func TestRecordWordCacheAgrees(t *testing.T) {
	recs := generated(2000, 3)
	ix := NewIndex(recs)
	for _, r := range recs[:200] {
		if _, err := ix.Search(query.Query{Names: r.Name, Fuzzy: 2, Match: query.Scored}); err != nil {
			t.Fatal(err)
		}
	}
	v := ix.acquire()
	defer v.release()
	vs := v.scored()
	ss := &scoredSeg{segView: &v.segs[0], keys: vs.keys[0], df: vs.global[0], words: vs.words[0], wordsN: vs.n}
	sq := &scoredQuery{n: vs.n, lambda: prior(vs.n)}
	filled := 0
	for id := range ss.words {
		if ss.words[id].Load() == 0 {
			continue
		}
		filled++
		tok := ss.Token(uint32(id))
		wantMiss := recordMiss(tok, recordWeight(tok, int(ss.df[id]), sq.n), sq.lambda)
		miss, opt := ss.recordWord(sq, uint32(id))
		if math.Float64bits(miss) != math.Float64bits(wantMiss) || opt != optionalWord(tok) {
			t.Errorf("token %q: cached (%v, %v), computed (%v, %v)", tok, miss, opt, wantMiss, optionalWord(tok))
		}
	}
	if filled == 0 {
		t.Fatal("no record word was cached after 200 scored checks")
	}
	// Weighed over another count, the cost is computed, not read.
	other := &scoredQuery{n: vs.n * 10, lambda: prior(vs.n * 10)}
	for id := range ss.words {
		if ss.words[id].Load() == 0 {
			continue
		}
		tok := ss.Token(uint32(id))
		want := recordMiss(tok, recordWeight(tok, int(ss.df[id]), other.n), other.lambda)
		if got, _ := ss.recordWord(other, uint32(id)); got != want {
			t.Fatalf("token %q over %d records: got %v, want %v", tok, other.n, got, want)
		}
		break
	}
}
