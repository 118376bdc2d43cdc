package book

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestJoinedEditsFindsEveryJoinedWord pins the rule that keeps a pair or
// triple of customer words written together (vanhouten,
// vanhoutenhendrik) out of the bigram index at fuzzy 1: a changed word one
// edit away from it, wherever the edit falls (in the first word, at a
// join, in the last word), still reaches it, as a look-up of the index
// would. Every dict entry a changed word pairs with must be among the
// word's partners. A rule one step tighter, which looked them up by their
// first word only or by their last word only, fails: the test checks that
// both are needed (and without the swapped look-up, a swap at a pair's
// join, ng wei as nwgei, is missed).
func TestJoinedEditsFindsEveryJoinedWord(t *testing.T) {
	names := []string{"Van Houten Hendrik", "Del Carmen Maria", "Jean Pierre Dupont", "Ng Wei Ling", "Abu Bakar Salleh", "Star Dragon 2", "Lee 2 Dragon"}
	var customers []Customer
	for i, n := range names {
		customers = append(customers, Customer{ID: fmt.Sprint("c", i), Name: n, Type: "individual"})
	}
	sc, err := Config{Match: "scored", Fuzzy: 1}.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	rv := newScoredReverse(customers, sc)
	// Every changed word one edit from a joined pair or triple: each
	// rune substituted, dropped, doubled, and swapped with the next.
	var changed []*record.Record
	var joined []string
	triples := 0
	for id := range uint32(rv.d.Len()) {
		if rv.d.Indexed(id) {
			continue
		}
		if rv.triple[id] {
			triples++
		}
		j := []rune(rv.d.Token(id))
		joined = append(joined, string(j))
		for k := range j {
			edits := []string{
				string(slices.Concat(j[:k], []rune{'x'}, j[k+1:])),
				string(slices.Concat(j[:k], j[k+1:])),
				string(slices.Concat(j[:k+1], j[k:])),
			}
			if k+1 < len(j) {
				edits = append(edits, string(slices.Concat(j[:k], []rune{j[k+1], j[k]}, j[k+2:])))
			}
			for _, e := range edits {
				changed = append(changed, &record.Record{ID: fmt.Sprint("r", len(changed)), EntityType: record.EntityIndividual, Name: e})
			}
		}
	}
	if triples != len(names) || len(joined) != 3*len(names) {
		t.Fatalf("%d triples of %d joined entries in the dict (%v), want %d of %d", triples, len(joined), joined, len(names), 3*len(names))
	}
	cw := changedWordsOf(changed)
	rts := make([]*engine.ScoredTok, len(cw.toks))
	for i, tok := range cw.toks {
		rts[i] = engine.NewScoredTok(tok)
	}
	partners := rv.wordPartners(cw.toks, rts, 2, newTokCache(rv.d))
	byEdit := 0
	for i, tok := range cw.toks {
		for id := range uint32(rv.d.Len()) {
			if _, ok := engine.RelatedToks(engine.NewScoredTok(rv.d.Token(id)), rts[i], 1); !ok {
				continue
			}
			if !slices.ContainsFunc(partners[i], func(p partner) bool { return p.id == id }) {
				t.Errorf("changed word %q pairs with %q but does not reach it", tok, rv.d.Token(id))
			}
			if !rv.d.Indexed(id) && tok != rv.d.Token(id) {
				byEdit++
			}
		}
	}
	if byEdit < 100 {
		t.Errorf("%d changed words pair with a joined entry by an edit: the test proves little", byEdit)
	}
	// Each of the two look-ups finds a triple the other does not.
	for _, m := range []map[uint32][]uint32{rv.byFirst, rv.byLast} {
		saved := map[uint32][]uint32{}
		for k, v := range m {
			saved[k] = v
			delete(m, k)
		}
		missed := 0
		for i, p := range rv.wordPartners(cw.toks, rts, 2, newTokCache(rv.d)) {
			missed += len(partners[i]) - len(p)
		}
		if missed == 0 {
			t.Error("one of byFirst and byLast alone finds every joined entry: the test proves little")
		}
		for k, v := range saved {
			m[k] = v
		}
	}
}
