package book

import (
	"fmt"
	"testing"

	"github.com/amlscreen/amlscreen/engine"
)

// TestUnpairedMarksEveryPairedWord pins the rule that lets the change
// set's scorer skip a customer word's look-up among the changed records
// (engine.ChangeSetScorer.SetPaired): a word or joined pair of the
// customers' dict is called unpaired only when no word of the changed
// records pairs with it. It compares the marks of scoredPairsMarked with
// relating every dict entry to every changed word, in the readings its
// customers pair it in (as Latin, and as romanised Arabic when a customer
// written in Arabic script holds it): each entry that pairs with one is
// marked (a rule one step tighter, which left out any of
// them, fails), and the world has entries of both kinds, so that the test
// proves something. Marks beyond those (a customer word whose split pairs
// with two changed words) only cost a look-up. Relating every entry to
// every changed word is the cost: each fuzzy level checks a sixth of the
// entries, a different sixth each, so half the entries are checked once
// (AMLSCREEN_LONG_TESTS=1: every entry at every level). Under the race
// detector only fuzzy 0 runs.
func TestUnpairedMarksEveryPairedWord(t *testing.T) {
	w := newWorld(t)
	cw := changedWordsOf(w.changed)
	for _, fuzzy := range []int{0, 1, 2} {
		t.Run(fmt.Sprint("fuzzy ", fuzzy), func(t *testing.T) {
			skipLevelUnderRace(t, fuzzy, 0)
			cfg := Config{Match: "scored", Fuzzy: fuzzy}
			sc, err := cfg.Screener(nil)
			if err != nil {
				t.Fatal(err)
			}
			customers := readBook(t, w.book, cfg)
			rv := newScoredReverse(customers, sc)
			arabicMarked(t, rv, customers, sc)
			st := w.full.ScoredStats()
			_, _, marked := rv.scoredPairsMarked(w.changed, st, 0)
			st.Release()
			recToks := make([]*engine.ScoredTok, len(cw.toks))
			for i, tok := range cw.toks {
				recToks[i] = engine.NewScoredTok(tok)
			}
			paired, unpaired, extra := 0, 0, 0
			for id := range uint32(rv.d.Len()) {
				if !longTests() && int(id%6) != fuzzy {
					continue
				}
				word := rv.d.Token(id)
				q := engine.NewScoredTok(word)
				related := engine.RelatedToksLatin
				if rv.arabic[id/64]&(1<<(id%64)) != 0 {
					related = engine.RelatedToks
				}
				pairs := false
				for _, r := range recToks {
					if _, ok := related(q, r, fuzzy); ok {
						pairs = true
						break
					}
				}
				marks, known := rv.paired(marked, word)
				if !known {
					t.Fatalf("customer word %q of the dict is not known", word)
				}
				switch got := !marks; {
				case pairs && got:
					t.Fatalf("customer word %q pairs with a changed word but is called unpaired", word)
				case pairs:
					paired++
				case got:
					unpaired++
				default:
					extra++
				}
			}
			t.Logf("%d dict entries pair with a changed word, %d do not, %d more are marked", paired, unpaired, extra)
			if paired < 50 || unpaired < 50 {
				t.Errorf("%d paired and %d unpaired entries: the test would prove little", paired, unpaired)
			}
			if _, known := rv.paired(marked, "no such customer word"); known {
				t.Error("a word the dict does not hold is known")
			}
		})
	}
}
