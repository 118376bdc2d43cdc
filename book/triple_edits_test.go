package book

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestTripleEditsFindsEveryTriple pins the rule that keeps a triple of
// customer words written together (vanhoutenhendrik) out of the bigram
// index at fuzzy 1: a changed word one edit away from it, wherever the edit
// falls (in the first word, at a join, in the last word), still reaches it,
// as a look-up of the index would. Every dict entry a changed word pairs
// with must be among the word's partners. A rule one step tighter, which
// looked triples up by their first word only or by their last word only,
// fails: the test checks that both are needed.
func TestTripleEditsFindsEveryTriple(t *testing.T) {
	names := []string{"Van Houten Hendrik", "Del Carmen Maria", "Jean Pierre Dupont", "Ng Wei Ling", "Abu Bakar Salleh"}
	var customers []Customer
	for i, n := range names {
		customers = append(customers, Customer{ID: fmt.Sprint("c", i), Name: n, Type: "individual"})
	}
	sc, err := Config{Match: "scored", Fuzzy: 1}.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	rv := newScoredReverse(customers, sc)
	// Every changed word one edit from a triple: each rune substituted,
	// dropped, doubled, and swapped with the next.
	var changed []*record.Record
	var joined []string
	for id := range uint32(rv.d.Len()) {
		if !rv.triple[id] {
			continue
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
	if len(joined) != len(names) {
		t.Fatalf("%d triples in the dict (%v), want %d", len(joined), joined, len(names))
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
			if rv.triple[id] && tok != rv.d.Token(id) {
				byEdit++
			}
		}
	}
	if byEdit < 100 {
		t.Errorf("%d changed words pair with a triple by an edit: the test proves little", byEdit)
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
			t.Error("one of byFirst and byLast alone finds every triple: the test proves little")
		}
		for k, v := range saved {
			m[k] = v
		}
	}
}
