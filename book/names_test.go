package book

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// TestRecordWordsLoseNoHit scores every other customer of the test world
// on every changed record and checks that each hit is a candidate pair
// with the record words that pair with none of the customer's units paid
// for (recordWords), and that the check one step too aggressive loses
// hits: each unpaired word charged twice its cost, or every word taken
// as unpaired. TestRecordWordsSplitTouch shows the words of a split.
func TestRecordWordsLoseNoHit(t *testing.T) {
	if raceEnabled && !longTests() {
		t.Skip("a comparison with every customer reached, ten times slower under the race detector: the main run checks it, and TestMatchChangedEqualsBatch runs the same workers under the detector")
	}
	w := newWorld(t)
	cfg := Config{Match: "scored", Fuzzy: 1}
	customers := readBook(t, w.book, cfg)
	sc, err := cfg.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	prepared := make([]*engine.PreparedRecord, len(w.changed))
	for i, r := range w.changed {
		prepared[i] = engine.PrepareRecord(r)
	}
	var hits [][2]int
	scoredHits(t, w, sc, customers, prepared, 0, 2, func(i, r int, _ float64) { hits = append(hits, [2]int{i, r}) })
	if len(hits) < 20 {
		t.Fatalf("%d hits: too few to tell", len(hits))
	}
	lost := func(hook func(rw *recordWords, ids []uint32, wp [][]partner)) (lost, pairs int) {
		recordWordsHook = hook
		defer func() { recordWordsHook = nil }()
		rv := newScoredReverse(customers, sc)
		st := w.full.ScoredStats()
		defer st.Release()
		custs, recs := rv.scoredPairs(w.changed, st, 0)
		cand := map[[2]int]bool{}
		for k, c := range custs {
			for _, r := range recs[k] {
				cand[[2]int{int(c), int(r)}] = true
				pairs++
			}
		}
		for _, h := range hits {
			if !cand[h] {
				lost++
			}
		}
		return lost, pairs
	}
	n, pairs := lost(nil)
	t.Logf("%d hits, %d candidate pairs", len(hits), pairs)
	if n > 0 {
		t.Fatalf("%d hits are no candidates", n)
	}
	dearer := func(rw *recordWords, _ []uint32, _ [][]partner) {
		for i := range rw.miss {
			rw.miss[i] *= 2
		}
	}
	for _, c := range []struct {
		name string
		hook func(rw *recordWords, ids []uint32, wp [][]partner)
	}{{"twice dearer", dearer}, {"none touched", func(rw *recordWords, _ []uint32, _ [][]partner) {
		for k := range rw.touch {
			rw.touch[k] = nil
		}
	}}} {
		if n, _ := lost(c.hook); n == 0 {
			t.Errorf("%s: no hit lost, the test cannot tell the check one step too aggressive", c.name)
		} else {
			t.Logf("%s: %d hits lost", c.name, n)
		}
	}
}

// wordsOnly keeps of rw's touches those of the changed words alone: the
// words of a changed pair or triple pairing with a split customer word
// are taken as unpaired.
func wordsOnly(rw *recordWords, ids []uint32, wp [][]partner) {
	pos := map[uint32]int{}
	for i, id := range ids {
		pos[id] = i
	}
	for k := range rw.touch {
		rw.touch[k] = nil
	}
	for i, p := range wp {
		for _, pt := range p {
			rw.touch[pos[pt.id]] = append(rw.touch[pos[pt.id]], int32(i))
		}
	}
	for k := range rw.touch {
		slices.Sort(rw.touch[k])
		rw.touch[k] = slices.Compact(rw.touch[k])
	}
}

// TestRecordWordsSplitTouch checks that a record whose two words pair
// with one customer word split in two (Ali Akbar against Aliakbar) is a
// candidate of that customer, and is not when those words are taken as
// unpaired: the check counts the words of a split as paired.
func TestRecordWordsSplitTouch(t *testing.T) {
	const splitFillers = 40
	g := gen.New(26)
	var recs []*record.Record
	for i := range 400 {
		recs = append(recs, g.Record(i))
	}
	// Common words weigh little: the hits need the completeness term,
	// which a word left unpaired denies.
	for i := range splitFillers {
		recs = append(recs, &record.Record{ID: fmt.Sprint("f", i), Name: fmt.Sprint("Mirzaei ", g.Record(1000+i).Name), EntityType: record.EntityIndividual},
			&record.Record{ID: fmt.Sprint("g", i), Name: fmt.Sprint("Oosterhuis ", g.Record(2000+i).Name), EntityType: record.EntityIndividual})
	}
	changed := []*record.Record{
		{ID: "split-1", Name: "Ali Akbar Mirzaei", EntityType: record.EntityIndividual},
		{ID: "split-2", Name: "Van Der Bilt Oosterhuis", EntityType: record.EntityIndividual},
	}
	recs = append(recs, changed...)
	ix := engine.NewIndex(recs)
	customers := []Customer{
		{ID: "c1", Name: "Aliakbar Mirzaei"},
		{ID: "c2", Name: "Vanderbilt Oosterhuis"},
	}
	cfg := Config{Match: "scored", Fuzzy: 1}
	sc, err := cfg.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range customers {
		if !scoresHit(t, ix, sc, c, changed[i]) {
			t.Fatalf("%s is no hit of %s", changed[i].Name, c.Name)
		}
	}
	pairs := func(hook func(rw *recordWords, ids []uint32, wp [][]partner)) []string {
		recordWordsHook = hook
		defer func() { recordWordsHook = nil }()
		rv := newScoredReverse(customers, sc)
		st := ix.ScoredStats()
		defer st.Release()
		return pairsOf(rv.scoredPairs(changed, st, 0))
	}
	if got, want := pairs(nil), []string{"0 0", "1 1"}; !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
	if got := pairs(wordsOnly); len(got) == 2 {
		t.Errorf("with the words of a split taken as unpaired, candidates %q: the test cannot tell", got)
	}
}

// scoresHit reports whether customer c's scored check, as sc builds it,
// scores record r a hit under ix's word statistics.
func scoresHit(t *testing.T, ix *engine.Index, sc *batch.Screener, c Customer, r *record.Record) bool {
	t.Helper()
	q, rej := sc.Query(c.Row())
	if rej != nil {
		t.Fatalf("customer %s rejected: %+v", c.ID, rej)
	}
	pq, err := ix.PrepareScoredQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := pq.ScorePrepared(engine.PrepareRecord(r))
	return ok
}
