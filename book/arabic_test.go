package book

import (
	"slices"
	"testing"

	"github.com/amlscreen/amlscreen/batch"
	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/internal/gen"
	"github.com/amlscreen/amlscreen/record"
)

// TestArabicWordsReadBothWays checks that a customer written in Arabic
// script is a candidate of the record its romanised words pair with only
// as Arabic (bibi bitr against Pepe Peter), and that the words
// of the other customers are read once: with no word marked as an
// Arabic-script customer's, that candidate is lost, so the test can tell
// a mark too few.
func TestArabicWordsReadBothWays(t *testing.T) {
	g := gen.New(37)
	var recs []*record.Record
	for i := range 400 {
		recs = append(recs, g.Record(i))
	}
	changed := []*record.Record{{ID: "PETER", Name: "Pepe Peter", EntityType: record.EntityIndividual}}
	recs = append(recs, changed...)
	ix := engine.NewIndex(recs)
	customers := []Customer{
		{ID: "c1", Name: "بيبي بيتر"},
		{ID: "c2", Name: "Bibi Bitr"},
	}
	cfg := Config{Match: "scored", Fuzzy: 1}
	sc, err := cfg.Screener(nil)
	if err != nil {
		t.Fatal(err)
	}
	hit := func(c Customer) bool { return scoresHit(t, ix, sc, c, changed[0]) }
	if !hit(customers[0]) {
		t.Fatalf("%s is no hit of %s", changed[0].Name, customers[0].Name)
	}
	pairs := func(latinOnly bool) []string {
		rv := newScoredReverse(customers, sc)
		arabicMarked(t, rv, customers, sc)
		if latinOnly {
			clear(rv.arabic)
		}
		st := ix.ScoredStats()
		defer st.Release()
		return pairsOf(rv.scoredPairs(changed, st, 0))
	}
	got := pairs(false)
	if !slices.Contains(got, "0 0") {
		t.Errorf("candidates %q: the Arabic-script customer's hit is lost", got)
	}
	if hit(customers[1]) && !slices.Contains(got, "1 0") {
		t.Errorf("candidates %q: the Latin customer's hit is lost", got)
	}
	if slices.Contains(pairs(true), "0 0") {
		t.Error("the Arabic-script customer is a candidate with its words read as Latin: the test cannot tell a mark too few")
	}
}

// arabicMarked fails t unless every word of the check of every customer of
// rv written in Arabic script is marked in rv.arabic: the tests that read
// a word in the readings its customers pair it in rely on the marks.
func arabicMarked(t *testing.T, rv *scoredReverse, customers []Customer, sc *batch.Screener) {
	t.Helper()
	n := 0
	for _, c := range customers {
		q, rej := sc.Query(c.Row())
		if rej != nil || !engine.ArabicQuery(q.Names) {
			continue
		}
		raw, legal, _, err := engine.ScoredCheck(q)
		if err != nil {
			continue
		}
		for _, w := range append(raw, legal...) {
			id, ok := rv.d.ID(w)
			if !ok || rv.arabic[id/64]&(1<<(id%64)) == 0 {
				t.Fatalf("word %q of customer %s, written in Arabic script, is not marked", w, c.ID)
			}
			n++
		}
	}
	t.Logf("%d words of customers written in Arabic script marked", n)
}
