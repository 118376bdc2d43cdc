package book

import (
	"testing"

	"github.com/amlscreen/amlscreen/engine"
)

// TestCountedWordStatsEqualLookedUp weighs every customer word from the
// counts a change set makes of them (essentialCut.now) and by looking it
// up in the serving index (ScoredStats.WordStatOf): the two agree, whether
// the cut is made under the change set's statistics or kept from earlier
// ones. Weighing from the counts of the cut's statistics instead would
// change some words' weights: the test can tell stale counts.
func TestCountedWordStatsEqualLookedUp(t *testing.T) {
	w := newWorld(t)
	_, old := indexBefore(t, w)
	cfg := Config{Match: "scored", Fuzzy: 1}
	customers := readBook(t, w.book, cfg)
	sc, err := cfg.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(tol engine.ScoredTolerance) { essentialTolerance = tol }(essentialTolerance)
	for _, c := range []struct {
		name string
		from *engine.Index // the statistics the cut is made under first; nil: the change set's
	}{
		{"cut made under the change set's statistics", nil},
		{"cut kept from the statistics before", old},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Wide enough that the cut made before is kept.
			essentialTolerance = engine.ScoredTolerance{DF: 2, Live: 1}
			rv := newScoredReverse(customers, sc)
			if c.from != nil {
				st := c.from.ScoredStats()
				rv.candidates(nil, st, 0, 2)
				st.Release()
			}
			st := w.full.ScoredStats()
			defer st.Release()
			rv.ess.mu.Lock()
			defer rv.ess.mu.Unlock()
			made := rv.ess.made
			rv.candidates(nil, st, 0, 2)
			if c.from != nil && !(made && rv.ess.made && &rv.ess.now[0] != &rv.ess.df[0]) {
				t.Fatal("the cut was made again: the test does not weigh with a kept cut")
			}
			if rv.ess.now == nil {
				t.Fatal("the change set's candidates counted no word")
			}
			wg := &weigher{st: st}
			stale := 0
			for k, id := range rv.ess.words {
				tok := rv.d.Token(id)
				for _, syllabic := range []bool{false, true} {
					want := st.WordStatOf(tok, rv.info[id], syllabic)
					if got := wg.stat(rv, id, syllabic); got != want {
						t.Fatalf("%q (syllabic %v): counted %+v, looked up %+v", tok, syllabic, got, want)
					}
					if st.WordStatDF(tok, rv.info[id], syllabic, int(rv.ess.df[k])) != want {
						stale++
					}
				}
			}
			t.Logf("%d customer words, %d weighed otherwise with the cut's counts", len(rv.ess.words), stale)
			if c.from != nil && stale == 0 {
				t.Error("the cut's counts weigh every word as the change set's: the test cannot tell stale counts")
			}
		})
	}
}
