package book

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/record"
)

// TestSplitsFoundFromEveryPiece pins buildPieces' rule that a split is
// posted under its rarest piece only: a changed record whose adjacent
// words are a customer word's pieces (every split in two and in three of
// every customer word) reaches that word through pairPartners and
// triplePartners. The words share common pieces (al, abd, van), so that
// splits are anchored on every position; a look-up one step tighter,
// which read the splits anchored at the first piece only (as the index
// was posted before), fails.
func TestSplitsFoundFromEveryPiece(t *testing.T) {
	words := []string{"vanderbilt", "vanderzandt", "osterberghaus", "aliakbar", "alimohammed", "alihassan",
		"abdulrahman", "abdelaziz", "abdulkarim", "mohammedali", "almansouri", "alrashid", "albertson", "vanhouten"}
	var customers []Customer
	for i, w := range words {
		customers = append(customers, Customer{ID: fmt.Sprint("c", i), Name: w, Type: "entity"})
	}
	for fuzzy := range 3 {
		t.Run(fmt.Sprint("fuzzy ", fuzzy), func(t *testing.T) {
			sc, err := Config{Match: "scored", Fuzzy: fuzzy}.Screener(nil)
			if err != nil {
				t.Fatal(err)
			}
			rv := newScoredReverse(customers, sc)
			for p := range rv.pieces {
				if len(rv.pieces[p].sps) == 0 {
					t.Errorf("no split in two anchored on piece %d: the test proves little", p)
				}
			}
			for p := range rv.pieces3 {
				if len(rv.pieces3[p].sps) == 0 {
					t.Errorf("no split in three anchored on piece %d: the test proves little", p)
				}
			}
			var changed []*record.Record
			var want []uint32 // the customer word each changed record writes split
			for _, w := range words {
				id, ok := rv.d.ID(w)
				if !ok {
					t.Fatalf("customer word %q not in the dict", w)
				}
				add := func(name string) {
					changed = append(changed, &record.Record{ID: fmt.Sprint("r", len(changed)), EntityType: record.EntityIndividual, Name: name})
					want = append(want, id)
				}
				engine.ScoredSplits(w, func(a, b string) { add(a + " " + b) })
				engine.ScoredSplits3(w, func(a, b, c string) { add(a + " " + b + " " + c) })
			}
			cw := changedWordsOf(changed)
			rts := make([]*engine.ScoredTok, len(cw.toks))
			pks := make([]pieceKeys, len(cw.toks))
			for i, tok := range cw.toks {
				rts[i], pks[i] = engine.NewScoredTok(tok), pieceFindKeys(tok, fuzzy)
			}
			reachedBy := make([][]uint32, len(changed)) // customer words reached, by record
			note := func(ps [][]partner, holders [][]int32) {
				for i, p := range ps {
					for _, pt := range p {
						for _, r := range holders[i] {
							reachedBy[r] = append(reachedBy[r], pt.id)
						}
					}
				}
			}
			note(rv.pairPartners(&cw, rts, pks, 2), cw.pairHolders)
			note(rv.triplePartners(&cw, rts, pks, 2), cw.tripleHolders)
			for r, rec := range changed {
				if !slices.Contains(reachedBy[r], want[r]) {
					t.Errorf("%q does not reach %q", rec.Name, rv.d.Token(want[r]))
				}
			}
		})
	}
}
