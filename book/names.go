package book

import (
	"slices"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/normalize"
	"github.com/amlscreen/amlscreen/record"
)

// recordWords are the changed records' name strings as a change set's
// scorer reads them, by the numbers of their words (changedWords.toks),
// and what each word costs left unpaired: a record word that pairs with
// no word of a customer is left unpaired by every pairing, so a name
// string of the record reaches the threshold only when its units' gain
// pays for those words too (engine.ScoredBound.ReachesName).
type recordWords struct {
	// names: by record, the words of each name string (the first
	// engine's scored words of each).
	names [][][]int32
	// person: by record, whether its names are a person's.
	person []bool
	// miss, optional and known: by word, its cost unpaired, whether it
	// is optional, whether the index knows it (a word it does not know
	// is taken as paired).
	miss     []float64
	optional []bool
	known    []bool
	// touch: aligned with the customer words reached (sortReach's ids),
	// the words that pair with each, ascending: a word of a changed pair
	// or triple pairing with a customer word's split counts as each of
	// its words.
	touch [][]int32
}

// recordWordsHook, when set, changes a change set's recordWords before
// use: tests make the check one step too aggressive through it, to show
// they would see the matches it loses.
var recordWordsHook func(rw *recordWords, ids []uint32, wp [][]partner)

// maxScoredNameWords is the most words of a name string scored mode
// pairs (engine's maxScoredWords).
const maxScoredNameWords = 32

// newRecordWords reads the name strings of changed and the costs of
// their words cw under st; touch gathers, by customer word reached, the
// changed words that pair with it, from the partners of the words
// (wp), pairs (pp) and triples (tp) of cw.
func newRecordWords(changed []*record.Record, cw *changedWords, st *engine.ScoredStats, ids []uint32, wp, pp, tp [][]partner, workers int) *recordWords {
	rw := &recordWords{names: make([][][]int32, len(changed)), person: make([]bool, len(changed)),
		miss: make([]float64, len(cw.toks)), optional: make([]bool, len(cw.toks)), known: make([]bool, len(cw.toks))}
	parallel(len(cw.toks), workers, func(i int) {
		rw.miss[i], rw.optional[i], rw.known[i] = st.RecordWordMiss(cw.toks[i])
	})
	parallel(len(changed), workers, func(ri int) {
		r := changed[ri]
		legal := r.EntityType != record.EntityIndividual
		rw.person[ri] = !legal
		for _, ns := range engine.NameStrings(r) {
			nm := normalize.RecordName(ns.Text, legal)
			toks := nm.Tokens[:min(nm.Base, maxScoredNameWords, len(nm.Tokens))]
			words := make([]int32, len(toks))
			for k, t := range toks {
				words[k] = cw.tokID[t]
			}
			rw.names[ri] = append(rw.names[ri], words)
		}
	})
	pos := make(map[uint32]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	rw.touch = make([][]int32, len(ids))
	add := func(ps [][]partner, words func(i int) []int32) {
		for i, p := range ps {
			for _, pt := range p {
				k := pos[pt.id]
				rw.touch[k] = append(rw.touch[k], words(i)...)
			}
		}
	}
	add(wp, func(i int) []int32 { return []int32{int32(i)} })
	add(pp, func(i int) []int32 { return []int32{cw.tokID[cw.pairs[i][0]], cw.tokID[cw.pairs[i][1]]} })
	add(tp, func(i int) []int32 {
		return []int32{cw.tokID[cw.triples[i][0]], cw.tokID[cw.triples[i][1]], cw.tokID[cw.triples[i][2]]}
	})
	parallel(len(rw.touch), workers, func(k int) {
		slices.Sort(rw.touch[k])
		rw.touch[k] = slices.Compact(rw.touch[k])
	})
	return rw
}

// reaches reports whether record r, whose units reached of a customer
// (hs) gain gain, covering covered, whole at similarity 1 and its evidence
// adding add under the customer's bound b, may reach the threshold
// through one of its name strings: the words of a name string that pair
// with none of the customer's units reached are paid for. tm holds the
// changed words that pair with one of hs (touchMarks.mark).
func (rw *recordWords) reaches(b *engine.ScoredBound, tm *touchMarks, r int32, gain float64, covered, whole uint64, add float64) bool {
	for _, words := range rw.names[r] {
		if len(words) == 0 {
			continue
		}
		missed, untouched, extra := 0.0, 0, 0
		for _, t := range words {
			if !rw.known[t] || tm.has(t) {
				continue
			}
			missed += rw.miss[t]
			untouched++
			if !rw.optional[t] {
				extra++
			}
		}
		if b.ReachesName(gain, covered, whole, add, missed, untouched, extra, rw.person[r]) {
			return true
		}
	}
	return false
}

// touchMarks marks the changed words (by number) that pair with one of a
// customer's units reached, for the records of that customer: one pass
// over its units' words, not a search of each unit for every word of
// every record. One per goroutine; its zero value is ready.
type touchMarks struct {
	// at: by changed word, the stamp of the last customer it was marked
	// for.
	at    []uint32
	stamp uint32
}

// mark marks the changed words that pair with one of the units hs,
// forgetting those of the customer before.
func (tm *touchMarks) mark(rw *recordWords, hs []unitHit) {
	if len(tm.at) < len(rw.miss) {
		tm.at = make([]uint32, len(rw.miss))
		tm.stamp = 0
	}
	tm.stamp++
	if tm.stamp == 0 { // wrapped: stamps of long ago could match again
		clear(tm.at)
		tm.stamp = 1
	}
	for _, h := range hs {
		for _, t := range rw.touch[h.word] {
			tm.at[t] = tm.stamp
		}
	}
}

// has reports whether changed word t pairs with one of the units marked.
func (tm *touchMarks) has(t int32) bool { return tm.at[t] == tm.stamp }
